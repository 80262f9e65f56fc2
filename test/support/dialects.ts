import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import type { DialectName } from '../../src/storage/dialect.js';
import { createDb, type Db } from '../../src/storage/db.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { migrationProvider } from '../../src/storage/migrations/index.js';

/**
 * Every integration file loops over these. SQLite always; PostgreSQL when TEST_DATABASE_URL is set
 * (as .ci/run does). TEST_DIALECTS=sqlite or =postgres narrows the run.
 */
export const DIALECTS: DialectName[] = (['sqlite', 'postgres'] as const).filter((d) => {
  if (d === 'postgres' && !process.env.TEST_DATABASE_URL) return false;
  const only = process.env.TEST_DIALECTS?.split(',').map((s) => s.trim());
  return !only || only.includes(d);
});

export interface TestDb {
  db: Db;
  url: string;
  close(): Promise<void>;
}

/**
 * A migrated database of its own: a fresh SQLite file, or a fresh schema in the PostgreSQL test
 * database (selected through the connection's search_path). Own tables matter for the delivery
 * worker, which claims every due delivery it can see. `migrate: false` leaves it empty (upgrade tests).
 */
export async function openTestDb(dialect: DialectName, { migrate = true } = {}): Promise<TestDb> {
  if (dialect === 'postgres') {
    const base = process.env.TEST_DATABASE_URL!;
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const url = withSearchPath(base, schema);
    const db = createDb(url, { poolMax: 5 });
    if (migrate) await migrateToLatest(db);
    return {
      db,
      url,
      close: async () => {
        await db.close();
        const cleaner = new pg.Client({ connectionString: base });
        await cleaner.connect();
        await cleaner.query(`drop schema ${schema} cascade`);
        await cleaner.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'autosales-test-'));
  const url = `sqlite:${join(dir, 'test.db')}`;
  // One read worker, as `serve` runs them (storage/read-workers.ts): every suite's lists, searches and boards go through it.
  const db = createDb(url, { readWorkers: 1 });
  if (migrate) await migrateToLatest(db);
  return {
    db,
    url,
    close: async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The same PostgreSQL URL with every connection's search_path set to `schema`. */
export function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.toString();
}

/**
 * A migrator for upgrade tests (migrate to a given step, write rows of that schema, then go on).
 * On PostgreSQL its bookkeeping tables are the ones of the connection's own schema, as in
 * migrateToLatest: another schema of the same database (a kept benchmark schema) does not mislead it.
 */
export async function stepMigrator(db: Db): Promise<Migrator> {
  const schema = db.dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db.kysely)).rows[0]?.schema : undefined;
  return new Migrator({ db: db.kysely, provider: migrationProvider(db.dialect), migrationTableSchema: schema });
}
