import type { DbExecutor } from '../../storage/executor.js';
import { sql } from 'kysely';
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
    // The auth_epoch counter (migration 0008) read in the same snapshot as the key: a cached answer is good while it stays the same.
    .select(sql<number>`(select n from auth_epoch where id = 1)`.as('auth_epoch'))
    .where('api_keys.key_hash', '=', keyHash)
    .where('api_keys.revoked_at', 'is', null),
);

export const findActiveKeyByHash = (db: DbExecutor, keyHash: string) => activeKeyByHash.executeTakeFirst(db, keyHash);

const authEpoch = compiledQuery('auth_epoch', (db: DbExecutor) => db.selectNoFrom(sql<number>`(select n from auth_epoch where id = 1)`.as('n')));

/** The auth_epoch counter: moved by triggers whenever a key is revoked or what a key may do changes. */
export const readAuthEpoch = async (db: DbExecutor): Promise<number> => Number((await authEpoch.executeTakeFirst(db))?.n);

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
