import { sql, type Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../../dialect.js';
import { lockAgainstWrites } from '../backfill-lock.js';

/** The tables whose unfiltered list totals come from record_counts, by their `status` column. */
export const COUNTED_TABLES = ['deals', 'clients'] as const;

/**
 * record_counts: how many rows of a table a team has in each status, kept exact by triggers in the
 * writing transaction (so a total is never stale, whoever writes: the API, the CLI, a seed script).
 * A count is the sum over `slot`s: on PostgreSQL each change bumps one of 8 random slots, so
 * concurrent writes in one team rarely wait for the same counter row. No foreign key to teams: the
 * triggers of a cascaded team delete must be able to write here while the team row is going away.
 */
export async function createCountTriggers(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const t = dialectTypes(dialect);
  await db.schema
    .createTable('record_counts')
    .addColumn('team_id', t.uuid, (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('record_counts_pk', ['team_id', 'resource', 'status', 'slot'])
    .execute();
  if (dialect === 'postgres') await createPostgresFunctions(db);
  for (const table of COUNTED_TABLES) {
    await lockAgainstWrites(db, dialect, table);
    await sql`insert into record_counts (team_id, resource, status, slot, n)
      select team_id, ${sql.lit(table)}, status, 0, count(*) from ${sql.table(table)} group by team_id, status`.execute(db);
    if (dialect === 'postgres') await createPostgresTriggers(db, table);
    else await createSqliteTriggers(db, table);
  }
}

async function createPostgresFunctions(db: Kysely<unknown>): Promise<void> {
  await sql`create function record_counts_bump(p_team uuid, p_resource text, p_status text, p_delta int) returns void
    language sql as $$
      insert into record_counts (team_id, resource, status, slot, n)
      values (p_team, p_resource, p_status, floor(random() * 8)::int, p_delta)
      on conflict (team_id, resource, status, slot) do update set n = record_counts.n + excluded.n
    $$`.execute(db);
  // A status change touches two counter rows: always in the same (status) order, so two
  // transactions changing statuses in opposite directions cannot deadlock on them.
  await sql`create function record_counts_track() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform record_counts_bump(new.team_id, tg_table_name, new.status, 1);
      elsif tg_op = 'DELETE' then
        perform record_counts_bump(old.team_id, tg_table_name, old.status, -1);
      elsif old.status < new.status then
        perform record_counts_bump(old.team_id, tg_table_name, old.status, -1);
        perform record_counts_bump(new.team_id, tg_table_name, new.status, 1);
      else
        perform record_counts_bump(new.team_id, tg_table_name, new.status, 1);
        perform record_counts_bump(old.team_id, tg_table_name, old.status, -1);
      end if;
      return null;
    end
  $$`.execute(db);
}

async function createPostgresTriggers(db: Kysely<unknown>, table: string): Promise<void> {
  const on = sql.table(table);
  await sql`create trigger ${sql.id(`${table}_count_insert_delete`)} after insert or delete on ${on}
    for each row execute function record_counts_track()`.execute(db);
  await sql`create trigger ${sql.id(`${table}_count_status`)} after update of status on ${on}
    for each row when (old.status is distinct from new.status) execute function record_counts_track()`.execute(db);
}

async function createSqliteTriggers(db: Kysely<unknown>, table: string): Promise<void> {
  const on = sql.table(table);
  const bump = (row: 'new' | 'old', delta: number) =>
    sql`insert into record_counts (team_id, resource, status, slot, n) values (${sql.raw(row)}.team_id, ${sql.lit(table)}, ${sql.raw(row)}.status, 0, ${sql.lit(delta)})
      on conflict (team_id, resource, status, slot) do update set n = n + ${sql.lit(delta)};`;
  await sql`create trigger ${sql.id(`${table}_count_insert`)} after insert on ${on} begin ${bump('new', 1)} end`.execute(db);
  await sql`create trigger ${sql.id(`${table}_count_delete`)} after delete on ${on} begin ${bump('old', -1)} end`.execute(db);
  await sql`create trigger ${sql.id(`${table}_count_status`)} after update of status on ${on}
    when old.status is not new.status begin ${bump('old', -1)} ${bump('new', 1)} end`.execute(db);
}

/**
 * Counts a table added after 0004 (record_counts and, on PostgreSQL, its functions exist already):
 * its current rows, then the same triggers as the first tables.
 */
export async function countRecordsOf(db: Kysely<unknown>, dialect: DialectName, table: string): Promise<void> {
  await sql`insert into record_counts (team_id, resource, status, slot, n)
    select team_id, ${sql.lit(table)}, status, 0, count(*) from ${sql.table(table)} group by team_id, status`.execute(db);
  if (dialect === 'postgres') await createPostgresTriggers(db, table);
  else await createSqliteTriggers(db, table);
}
