import { loadConfig } from '../config.js';
import { createServices, type Services } from '../app/services.js';
import { createDb, type Db } from '../storage/db.js';
import { migrateToLatest } from '../storage/migrator.js';

/** The database and every service (the same composition root as the server's). */
export interface CliContext extends Services {
  db: Db;
}

/** Opens the same DATABASE_URL the server uses (migrated), runs the command, and always closes it. */
export async function withContext<T>(run: (ctx: CliContext) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const db = createDb(config.databaseUrl, { poolMax: 2, groupCommit: config.sqliteGroupCommit });
  try {
    await migrateToLatest(db);
    return await run({
      db,
      ...createServices(db, { allowPrivateWebhookTargets: config.webhooks.allowPrivateTargets, databaseUrl: config.databaseUrl }),
    });
  } finally {
    await db.close();
  }
}
