import { loadConfig } from '../config.js';
import { createApiKeysService } from '../domain/teams/api-keys.service.js';
import { createTeamsService } from '../domain/teams/teams.service.js';
import { createWebhooksService } from '../domain/webhooks/webhooks.service.js';
import { createDb, type Db } from '../storage/db.js';
import { migrateToLatest } from '../storage/migrator.js';

export interface CliContext {
  db: Db;
  teams: ReturnType<typeof createTeamsService>;
  keys: ReturnType<typeof createApiKeysService>;
  webhooks: ReturnType<typeof createWebhooksService>;
}

/** Opens the same DATABASE_URL the server uses (migrated), runs the command, and always closes it. */
export async function withContext<T>(run: (ctx: CliContext) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const db = createDb(config.databaseUrl, { poolMax: 2 });
  try {
    await migrateToLatest(db);
    const teams = createTeamsService(db.kysely);
    return await run({ db, teams, keys: createApiKeysService(db.kysely, teams), webhooks: createWebhooksService(db, teams) });
  } finally {
    await db.close();
  }
}
