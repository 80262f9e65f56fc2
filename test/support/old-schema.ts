import { sql } from 'kysely';
import { createServices } from '../../src/app/services.js';
import type { DialectName } from '../../src/storage/dialect.js';
import { openTestDb } from './dialects.js';
import { newId } from '../../src/domain/shared/ids.js';
import { DEFAULT_PHASES } from '../../src/domain/teams/teams.service.js';
import { DEFAULT_VEHICLE_PHASES } from '../../src/domain/phases/phases.types.js';
import type { Db } from '../../src/storage/db.js';

/**
 * A team as the code of an older schema wrote it: only the columns of migration 0001 (and the vehicle
 * board from 0005 on). Today's teams service writes columns of later migrations (phase labels, …), so
 * upgrade tests seed their teams with this before migrating to the latest schema.
 */
export async function createTeamOnOldSchema(db: Db, input: { name: string; plan?: 'starter' | 'professional' | 'autoshopping' }) {
  const team = { id: newId(), name: input.name, plan: input.plan ?? 'starter', alert_email: null, created_at: new Date().toISOString() };
  const kysely = db.kysely;
  await kysely.insertInto('teams').values(team).execute();
  await kysely
    .insertInto('team_phases')
    .values(DEFAULT_PHASES.map((p) => ({ name: p.name, position: p.position, probability: p.probability, team_id: team.id })))
    .execute();
  const hasVehicleBoard = await sql`select 1 from vehicle_phases where 1 = 0`
    .execute(kysely)
    .then(() => true)
    .catch(() => false);
  if (hasVehicleBoard) {
    for (const [index, name] of DEFAULT_VEHICLE_PHASES.entries()) {
      await sql`insert into vehicle_phases (team_id, name, position) values (${team.id}, ${name}, ${index + 1})`.execute(kysely);
    }
  }
  return team;
}

/** The columns `table` has in `db`'s schema now (an older schema has fewer). */
async function columnsOf(db: Db, table: string): Promise<string[]> {
  if (db.dialect === 'postgres') {
    const { rows } = await sql<{
      column_name: string;
    }>`select column_name from information_schema.columns where table_schema = current_schema() and table_name = ${table}`.execute(db.kysely);
    return rows.map((r) => r.column_name);
  }
  const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db.kysely);
  return rows.map((r) => r.name);
}

/**
 * Records as an older schema's code would have left them: written by today's services on `from` (a
 * database at the latest schema), then copied into `to` (migrated only up to an older migration) with
 * the columns `to` has. Today's services read and write later migrations' tables and columns (the win
 * probability's model, the clients' contact keys, …), so an upgrade test cannot run them on the old
 * schema itself. Tables are copied in the order given (parents first).
 */
export async function copyToOldSchema(from: Db, to: Db, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    const columns = await columnsOf(to, table);
    const rows = (await sql<Record<string, unknown>>`select ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(table)}`.execute(from.kysely)).rows;
    for (const row of rows) {
      await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) values (${sql.join(columns.map((c) => row[c]))})`.execute(
        to.kysely,
      );
    }
  }
}

/** The tables an upgrade test's records live in, parents first. */
const SEEDED_TABLES = ['teams', 'team_phases', 'vehicle_phases', 'clients', 'vehicles', 'deals'] as const;

/**
 * Runs `seed` with today's services on a fresh database at the latest schema and copies what it wrote
 * (teams, phases, clients, vehicles, deals) into `old`, a database migrated only up to an older
 * migration, with the columns `old` has: the records as that schema's code left them.
 */
export async function seedOnOldSchema<T>(dialect: DialectName, old: Db, seed: (services: ReturnType<typeof createServices>) => Promise<T>): Promise<T> {
  const fresh = await openTestDb(dialect);
  try {
    const result = await seed(createServices(fresh.db));
    await copyToOldSchema(fresh.db, old, SEEDED_TABLES);
    return result;
  } finally {
    await fresh.close();
  }
}
