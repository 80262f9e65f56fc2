import { createDb } from '../../src/storage/db.js';
import { migrateToLatest } from '../../src/storage/migrator.js';

/** Migrates the PostgreSQL test database once, before test files run side by side. */
export default async function setup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const db = createDb(url);
  try {
    await migrateToLatest(db);
  } finally {
    await db.close();
  }
}
