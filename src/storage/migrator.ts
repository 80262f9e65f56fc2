import { Migrator } from 'kysely';
import type { Db } from './db.js';
import { migrationProvider } from './migrations/index.js';

export class MigrationError extends Error {}

/** Applies every pending migration; throws (so callers exit non-zero) if any fails. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db: db.kysely, provider: migrationProvider(db.dialect) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? '');
    throw new MigrationError(`Migração ${failed?.migrationName ?? ''} falhou: ${cause}`.trim(), { cause: error });
  }
  return (results ?? []).map((r) => r.migrationName);
}
