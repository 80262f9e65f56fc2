import type { Insertable, Updateable } from 'kysely';
import { locksRows } from '../../storage/dialect.js';
import type { StoreTable } from '../../storage/database.js';
import type { DbExecutor, Trx } from '../../storage/executor.js';

/** The writes of stores and the store checks of other resources' writes (reads go through the planner). */

export const findStore = (db: DbExecutor, teamId: string, id: string) =>
  db.selectFrom('stores').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();

/** The row a write changes: row-locked until the transaction ends where transactions run at once (PostgreSQL). */
export const findStoreForChange = (trx: Trx, teamId: string, id: string) => {
  const q = trx.selectFrom('stores').selectAll().where('team_id', '=', teamId).where('id', '=', id);
  return (locksRows(trx) ? q.forUpdate() : q).executeTakeFirst();
};

/** A store's status, to check a `store_id` a record names (undefined: no such store in the team). */
export const storeStatus = (db: DbExecutor, teamId: string, id: string): Promise<{ status: 'active' | 'inactive' } | undefined> =>
  db.selectFrom('stores').select('status').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();

export const insertStore = (db: DbExecutor, row: Insertable<StoreTable>) => db.insertInto('stores').values(row).execute();

export const updateStore = (db: DbExecutor, teamId: string, id: string, patch: Updateable<StoreTable>) =>
  db.updateTable('stores').set(patch).where('team_id', '=', teamId).where('id', '=', id).execute();
