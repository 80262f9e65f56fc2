import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DialectName } from '../../src/storage/dialect.js';
import { createDb, type Db } from '../../src/storage/db.js';
import { migrateToLatest } from '../../src/storage/migrator.js';

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

/** A migrated database: a fresh SQLite file per call, or the shared PostgreSQL test database (teams keep tests apart). */
export async function openTestDb(dialect: DialectName): Promise<TestDb> {
  if (dialect === 'postgres') {
    const url = process.env.TEST_DATABASE_URL!;
    const db = createDb(url, { poolMax: 5 });
    await migrateToLatest(db);
    return { db, url, close: () => db.close() };
  }
  const dir = mkdtempSync(join(tmpdir(), 'autosales-test-'));
  const url = `sqlite:${join(dir, 'test.db')}`;
  const db = createDb(url);
  await migrateToLatest(db);
  return {
    db,
    url,
    close: async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
