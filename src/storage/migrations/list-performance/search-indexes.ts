import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../dialect.js';

/** The tables with a folded `search_text` column searched by `search=` (contains, case- and accent-insensitive). */
export const SEARCHED_TABLES = ['deals', 'clients'] as const;

/**
 * Trigram indexes over `search_text`, so a contains-search reads only the rows holding the query's
 * trigrams instead of every row of the team. (Migrations 0004 and 0005; 0010 replaces them with
 * indexes that know each row's team: see 0010-team-search.ts.)
 * - SQLite: an external-content FTS5 table `<table>_fts` (tokenizer `trigram`), keyed by the table's
 *   rowid and kept by triggers. A search runs `rowid in (select rowid from <table>_fts where
 *   search_text like ?)` (see src/domain/shared/text-search.ts). After a manual `VACUUM`, which may
 *   renumber rowids, rebuild it: `insert into deals_fts(deals_fts) values ('rebuild')`.
 * - PostgreSQL: a GIN index with pg_trgm's `gin_trgm_ops`, used by the planner for `LIKE '%…%'`. The
 *   extension is created in `public` (or found where it already is) so it outlives any one schema.
 *   Where it cannot be created (no privilege), the migration goes on without the index: searches
 *   stay correct, only slower, and `create extension pg_trgm` plus this index can be added later.
 */
export async function createSearchIndexes(db: Kysely<unknown>, dialect: DialectName, tables: readonly string[] = SEARCHED_TABLES): Promise<void> {
  if (dialect === 'postgres') {
    const schema = await trigramSchema(db);
    if (!schema) return;
    for (const table of tables) {
      await sql`create index ${sql.id(`${table}_search_trgm_idx`)} on ${sql.table(table)}
        using gin (search_text ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
    }
    return;
  }
  for (const table of tables) {
    const fts = sql.table(`${table}_fts`);
    const on = sql.table(table);
    const remove = sql`insert into ${fts} (${fts}, rowid, search_text) values ('delete', old.rowid, old.search_text);`;
    const add = sql`insert into ${fts} (rowid, search_text) values (new.rowid, new.search_text);`;
    await sql`create virtual table ${fts} using fts5(search_text, content=${sql.lit(table)}, tokenize='trigram')`.execute(db);
    await sql`insert into ${fts} (${fts}) values ('rebuild')`.execute(db);
    await sql`create trigger ${sql.id(`${table}_fts_insert`)} after insert on ${on} begin ${add} end`.execute(db);
    await sql`create trigger ${sql.id(`${table}_fts_delete`)} after delete on ${on} begin ${remove} end`.execute(db);
    await sql`create trigger ${sql.id(`${table}_fts_update`)} after update of search_text on ${on} begin ${remove} ${add} end`.execute(db);
  }
}

/** The schema holding pg_trgm, creating the extension if it is missing; null when it cannot be had. */
async function trigramSchema(db: Kysely<unknown>): Promise<string | null> {
  const installed = async () =>
    (
      await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
      where e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]?.schema ?? null;
  const found = await installed();
  if (found) return found;
  const { rows } = await sql<{ target: string }>`select coalesce(
      (select nspname from pg_namespace where nspname = 'public' and has_schema_privilege(oid, 'CREATE')),
      current_schema()) as target`.execute(db);
  // The migration runs in a transaction: a savepoint keeps a refused CREATE EXTENSION from aborting it.
  await sql`savepoint pg_trgm_setup`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm with schema ${sql.id(rows[0]!.target)}`.execute(db);
    await sql`release savepoint pg_trgm_setup`.execute(db);
  } catch {
    await sql`rollback to savepoint pg_trgm_setup`.execute(db);
    return null;
  }
  return installed();
}
