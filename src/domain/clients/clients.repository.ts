import type { DbExecutor, Trx } from '../../storage/executor.js';
import { locksRows } from '../../storage/dialect.js';
import { compiledQuery } from '../../storage/compiled-query.js';
import type { ClientUpdate, NewClientRow } from '../../storage/database.js';

const clientById = compiledQuery('client_by_id', (db: DbExecutor, teamId: string, id: string) =>
  db.selectFrom('clients').selectAll().where('team_id', '=', teamId).where('id', '=', id),
);

/** A client; no lock. GET /clients/:id's hot path: compiled once (storage/compiled-query.ts). */
export const findClient = (db: DbExecutor, teamId: string, id: string) => clientById.executeTakeFirst(db, teamId, id);

/** The same, row-locked until the transaction ends (PostgreSQL). */
export const findClientForUpdate = (trx: Trx, teamId: string, id: string) =>
  trx.selectFrom('clients').selectAll().where('team_id', '=', teamId).where('id', '=', id).forUpdate().executeTakeFirst();

/** The row a write changes: row-locked until the transaction ends where transactions run at once (PostgreSQL). */
export const findClientForChange = (trx: Trx, teamId: string, id: string) =>
  locksRows(trx) ? findClientForUpdate(trx, teamId, id) : findClient(trx, teamId, id);

/** `{id, name}` of a client of the team: what a deal embeds, and how its client_id is checked. */
export const findClientRef = (db: DbExecutor, teamId: string, id: string): Promise<{ id: string; name: string } | undefined> =>
  db.selectFrom('clients').select(['id', 'name']).where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();

export const insertClient = (db: DbExecutor, row: NewClientRow) => db.insertInto('clients').values(row).execute();

export const updateClient = (db: DbExecutor, teamId: string, id: string, patch: ClientUpdate) =>
  db.updateTable('clients').set(patch).where('team_id', '=', teamId).where('id', '=', id).execute();
