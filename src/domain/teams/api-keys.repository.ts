import type { DbExecutor } from '../../storage/executor.js';
import { compiledQuery } from '../../storage/compiled-query.js';
import type { ApiKeyRow, NewApiKeyRow } from '../../storage/database.js';

export const insertApiKey = (db: DbExecutor, key: NewApiKeyRow) => db.insertInto('api_keys').values(key).execute();

export const listApiKeys = (db: DbExecutor, teamId: string) =>
  db.selectFrom('api_keys').selectAll().where('team_id', '=', teamId).orderBy('created_at').orderBy('id').execute();

// Runs on every authenticated request: compiled once (storage/compiled-query.ts).
const activeKeyByHash = compiledQuery('active_key_by_hash', (db: DbExecutor, keyHash: string) =>
  db
    .selectFrom('api_keys')
    .innerJoin('teams', 'teams.id', 'api_keys.team_id')
    .select(['api_keys.id', 'api_keys.team_id', 'api_keys.scopes', 'api_keys.last_used_at', 'teams.plan'])
    .where('api_keys.key_hash', '=', keyHash)
    .where('api_keys.revoked_at', 'is', null),
);

export const findActiveKeyByHash = (db: DbExecutor, keyHash: string) => activeKeyByHash.executeTakeFirst(db, keyHash);

export async function revokeApiKey(db: DbExecutor, id: string, at: string): Promise<ApiKeyRow | undefined> {
  await db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Records a key's use; `staleBefore` keeps it to one write a minute per key whatever the traffic. */
export const touchApiKey = (db: DbExecutor, id: string, at: string, staleBefore: string) =>
  db
    .updateTable('api_keys')
    .set({ last_used_at: at })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
    .execute();

export const findApiKey = (db: DbExecutor, id: string) => db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
