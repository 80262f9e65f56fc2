import { Migrator, sql, type Kysely } from 'kysely';
import type { Database } from './database.js';
import type { Db } from './db.js';
import { migrationProvider } from './migrations/index.js';

export class MigrationError extends Error {}

/** Any fixed number: the PostgreSQL advisory lock that serializes migrations of processes starting together. */
const MIGRATION_LOCK = 4_242_001;

async function run(kysely: Kysely<Database>, db: Db, schema?: string): Promise<string[]> {
  const migrator = new Migrator({ db: kysely, provider: migrationProvider(db.dialect), migrationTableSchema: schema });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
    throw new MigrationError(`Migração ${failed?.migrationName ?? ''} falhou: ${cause}`.trim(), { cause: error });
  }
  return (results ?? []).map((r) => r.migrationName);
}

/** Applies every pending migration; throws (so callers exit non-zero) if any fails. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  if (db.dialect !== 'postgres') return run(db.kysely, db);
  // Kysely's own lock table is created on first use, which two processes can race; this lock cannot.
  return db.kysely.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`.execute(conn);
    try {
      // Kysely's bookkeeping tables live in the schema the connection works in (search_path), like ours.
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(conn);
      return await run(conn, db, rows[0]?.schema);
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.execute(conn);
    }
  });
}

/** The notes the given migrations left for the operator (table `migration_notes`, migration 0018). */
export async function migrationNotes(db: Db, migrations: readonly string[]): Promise<Array<{ migration: string; note: string }>> {
  if (migrations.length === 0) return [];
  return db.kysely.selectFrom('migration_notes').select(['migration', 'note']).where('migration', 'in', migrations).execute();
}
