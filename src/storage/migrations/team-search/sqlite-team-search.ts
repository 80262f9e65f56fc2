import { sql, type Kysely, type RawBuilder } from 'kysely';

/** The rows a table's default list shows (its soft-deleted rows are listed only when asked for by status). */
const LISTED: Record<string, (row: 'new' | 'old' | 't') => RawBuilder<unknown>> = {
  deals: (row) => sql`${sql.raw(row)}.status != 'arquivado'`,
  clients: (row) => sql`${sql.raw(row)}.status = 'active'`,
  vehicles: (row) => sql`${sql.raw(row)}.status != 'arquivado'`,
};

/**
 * SQLite's team-scoped search index (migration 0010):
 * - `search_scopes` gives every team a token of three private-use characters, made from a number
 *   that is never reused (AUTOINCREMENT). A trigger gives each new team its own.
 * - `<table>_fts` is rebuilt as a contentless FTS5 trigram table (`contentless_delete=1`, so a row
 *   is removed by rowid alone) with three columns: `search_text`; `team_scope`, the team's token;
 *   `listed_scope`, the team's token when the default list shows the row, else empty. A
 *   three-character column is exactly one trigram, so `listed_scope MATCH <token>` reads one doclist:
 *   the team's listed rows. ANDed by FTS5 with the query's phrase, it leaves the team's hits only,
 *   and the count needs no row at all.
 * - Triggers keep it: re-indexed on a change of the text, the team or whether the row is listed (a
 *   phase or status change that keeps the row listed costs nothing).
 * Contentless tables cannot `rebuild`: after a manual `VACUUM` (which may renumber rowids), refill
 * with `delete from <table>_fts` and the `insert … select` below.
 */
export async function createSqliteTeamSearch(db: Kysely<unknown>, tables: readonly string[]): Promise<void> {
  await sql`create table search_scopes (
      code integer primary key autoincrement,
      team_id text not null unique references teams (id) on delete cascade,
      token text generated always as (char(57344 + ((code >> 24) & 4095), 57344 + ((code >> 12) & 4095), 57344 + (code & 4095))) virtual
    )`.execute(db);
  await sql`insert into search_scopes (team_id) select id from teams order by created_at, id`.execute(db);
  await sql`create trigger teams_search_scope after insert on teams begin insert into search_scopes (team_id) values (new.id); end`.execute(db);

  for (const table of tables) {
    const fts = sql.table(`${table}_fts`);
    const on = sql.table(table);
    const listed = LISTED[table]!;
    for (const old of ['insert', 'delete', 'update']) await sql`drop trigger if exists ${sql.id(`${table}_fts_${old}`)}`.execute(db);
    await sql`drop table if exists ${fts}`.execute(db);
    await sql`create virtual table ${fts} using fts5(search_text, team_scope, listed_scope,
      content='', contentless_delete=1, tokenize='trigram')`.execute(db);
    await sql`insert into ${fts} (rowid, search_text, team_scope, listed_scope)
      select t.rowid, t.search_text, s.token, case when ${listed('t')} then s.token end
      from ${on} t join search_scopes s on s.team_id = t.team_id`.execute(db);
    // One segment instead of one per batch of the fill: fewer doclists to merge at every query.
    await sql`insert into ${fts} (${fts}) values ('optimize')`.execute(db);
    const add = sql`insert into ${fts} (rowid, search_text, team_scope, listed_scope)
      select new.rowid, new.search_text, s.token, case when ${listed('new')} then s.token end from search_scopes s where s.team_id = new.team_id;`;
    const remove = sql`delete from ${fts} where rowid = old.rowid;`;
    await sql`create trigger ${sql.id(`${table}_fts_insert`)} after insert on ${on} begin ${add} end`.execute(db);
    await sql`create trigger ${sql.id(`${table}_fts_delete`)} after delete on ${on} begin ${remove} end`.execute(db);
    await sql`create trigger ${sql.id(`${table}_fts_update`)} after update of search_text, status, team_id on ${on}
      when old.search_text is not new.search_text or old.team_id is not new.team_id or (${listed('old')}) is not (${listed('new')})
      begin ${remove} ${add} end`.execute(db);
  }
}
