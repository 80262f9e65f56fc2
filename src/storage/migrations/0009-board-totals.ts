import { sql, type Kysely, type RawBuilder } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect.js';
import { lockAgainstWrites } from './backfill-lock.js';

/**
 * board_totals (issue 15, the panel's routes at the lists' targets): per team, board and phase, how
 * many records are in stock / in the pipeline (status `ativo`) and a sum over them: the deals' value
 * in cents, the vehicles' entry time in epoch seconds (their mean age in stock). The boards' column
 * headers and the dashboard read these few rows instead of grouping every `ativo` row of the team
 * (30–40 ms at 100,000 deals). Kept exact by triggers in the writing transaction, like record_counts:
 * whoever writes (API, panel, CLI, a script), the totals move with the rows. A total is the sum over
 * `slot`s: on PostgreSQL a change goes to one of 8 random slots, so concurrent writers in one team
 * rarely wait for the same row. No foreign key to teams, so a cascaded team delete can write here.
 */
export function boardTotals(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const t = dialectTypes(dialect);
      await db.schema
        .createTable('board_totals')
        .addColumn('team_id', t.uuid, (c) => c.notNull())
        .addColumn('board', 'text', (c) => c.notNull())
        .addColumn('phase', 'text', (c) => c.notNull())
        .addColumn('slot', 'integer', (c) => c.notNull())
        .addColumn('n', 'bigint', (c) => c.notNull())
        .addColumn('total', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('board_totals_pk', ['team_id', 'board', 'phase', 'slot'])
        .execute();
      for (const board of BOARDS) {
        const summed = board.summed(dialect, sql.raw(board.table));
        await lockAgainstWrites(db, dialect, board.table);
        await sql`insert into board_totals (team_id, board, phase, slot, n, total)
          select team_id, ${sql.lit(board.table)}, phase, 0, count(*), coalesce(sum(${summed}), 0) from ${sql.table(board.table)}
          where status = 'ativo' group by team_id, phase`.execute(db);
        if (dialect === 'postgres') await postgresTriggers(db, board);
        else await sqliteTriggers(db, board);
      }
    },
  };
}

interface Board {
  table: 'deals' | 'vehicles';
  /** The summed value of one row (`row` is new, old or the table itself). */
  summed(dialect: DialectName, row: RawBuilder<unknown>): RawBuilder<number>;
  /** The columns whose change moves a total. */
  watched: string;
}

const BOARDS: Board[] = [
  { table: 'deals', summed: (_d, row) => sql<number>`coalesce(${row}.value_cents, 0)`, watched: 'status, phase, value_cents, team_id' },
  {
    table: 'vehicles',
    summed: (dialect, row) =>
      dialect === 'postgres'
        ? sql<number>`floor(extract(epoch from ${row}.created_at))::bigint`
        : sql<number>`cast((julianday(${row}.created_at) - 2440587.5) * 86400 as integer)`,
    watched: 'status, phase, created_at, team_id',
  },
];

async function sqliteTriggers(db: Kysely<unknown>, board: Board): Promise<void> {
  const on = sql.table(board.table);
  // insert … select … where: a row counts only while it is `ativo` (SQLite needs the WHERE for an upsert from a SELECT).
  const bump = (row: 'new' | 'old', sign: 1 | -1) => {
    const r = sql.raw(row);
    const value = board.summed('sqlite', r);
    return sql`insert into board_totals (team_id, board, phase, slot, n, total)
      select ${r}.team_id, ${sql.lit(board.table)}, ${r}.phase, 0, ${sql.lit(sign)}, ${sql.lit(sign)} * ${value} where ${r}.status = 'ativo'
      on conflict (team_id, board, phase, slot) do update set n = n + excluded.n, total = total + excluded.total;`;
  };
  await sql`create trigger ${sql.id(`${board.table}_board_insert`)} after insert on ${on} begin ${bump('new', 1)} end`.execute(db);
  await sql`create trigger ${sql.id(`${board.table}_board_delete`)} after delete on ${on} begin ${bump('old', -1)} end`.execute(db);
  await sql`create trigger ${sql.id(`${board.table}_board_update`)} after update of ${sql.raw(board.watched)} on ${on}
    when old.status = 'ativo' or new.status = 'ativo' begin ${bump('old', -1)} ${bump('new', 1)} end`.execute(db);
}

async function postgresTriggers(db: Kysely<unknown>, board: Board): Promise<void> {
  const fn = sql.id(`${board.table}_board_track`);
  const oldValue = board.summed('postgres', sql.raw('old'));
  const newValue = board.summed('postgres', sql.raw('new'));
  const bump = (row: 'new' | 'old', sign: 1 | -1, value: RawBuilder<number>) => sql`
    if ${sql.raw(row)}.status = 'ativo' then
      insert into board_totals (team_id, board, phase, slot, n, total)
      values (${sql.raw(row)}.team_id, ${sql.lit(board.table)}, ${sql.raw(row)}.phase, floor(random() * 8)::int, ${sql.lit(sign)}, ${sql.lit(sign)} * ${value})
      on conflict (team_id, board, phase, slot) do update set n = board_totals.n + excluded.n, total = board_totals.total + excluded.total;
    end if;`;
  // An update touches two phases' rows: always in phase order, so two transactions moving records in
  // opposite directions cannot deadlock on them.
  await sql`create function ${fn}() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        ${bump('new', 1, newValue)}
      elsif tg_op = 'DELETE' then
        ${bump('old', -1, oldValue)}
      elsif old.phase <= new.phase then
        ${bump('old', -1, oldValue)}
        ${bump('new', 1, newValue)}
      else
        ${bump('new', 1, newValue)}
        ${bump('old', -1, oldValue)}
      end if;
      return null;
    end
  $$`.execute(db);
  const on = sql.table(board.table);
  await sql`create trigger ${sql.id(`${board.table}_board_insert_delete`)} after insert or delete on ${on}
    for each row execute function ${fn}()`.execute(db);
  await sql`create trigger ${sql.id(`${board.table}_board_update`)} after update of ${sql.raw(board.watched)} on ${on}
    for each row when ((old.status = 'ativo' or new.status = 'ativo') and (old.status, old.phase, ${oldValue}, old.team_id) is distinct from (new.status, new.phase, ${newValue}, new.team_id))
    execute function ${fn}()`.execute(db);
}
