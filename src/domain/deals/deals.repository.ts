import type { DbExecutor, Trx } from '../../storage/executor.js';
import { compiledQuery } from '../../storage/compiled-query.js';
import type { DealUpdate, NewDealRow } from '../../storage/database.js';
import { locksRows } from '../../storage/dialect.js';
import type { DealRowWithClient } from './deals.mapper.js';

export interface DealFilters {
  status?: string;
  phase?: string;
  client_id?: string;
  responsible_id?: string;
  source?: string;
  store_id?: string;
  minCents?: number;
  maxCents?: number;
  createdFrom?: string;
  createdBefore?: string;
  search?: string;
}

function withClient(db: DbExecutor) {
  return db
    .selectFrom('deals')
    .leftJoin('clients', (join) => join.onRef('clients.id', '=', 'deals.client_id').onRef('clients.team_id', '=', 'deals.team_id'))
    .selectAll('deals')
    .select('clients.name as client_name');
}

const dealById = compiledQuery('deal_by_id', (db: DbExecutor, teamId: string, id: string) =>
  withClient(db).where('deals.team_id', '=', teamId).where('deals.id', '=', id),
);

/** A deal with its client's name; no lock. GET /deals/:id's hot path: compiled once (storage/compiled-query.ts). */
export async function findDeal(db: DbExecutor, teamId: string, id: string): Promise<DealRowWithClient | undefined> {
  return dealById.executeTakeFirst(db, teamId, id);
}

/** The same, row-locked until the transaction ends (PostgreSQL), so concurrent updates compute their changes from the row they replace. */
export async function findDealForUpdate(trx: Trx, teamId: string, id: string): Promise<DealRowWithClient | undefined> {
  const query = withClient(trx).where('deals.team_id', '=', teamId).where('deals.id', '=', id).forUpdate('deals');
  return query.executeTakeFirst();
}

/** The deal a write changes: row-locked until the transaction ends where transactions run at once (PostgreSQL). */
export const findDealForChange = (trx: Trx, teamId: string, id: string) => (locksRows(trx) ? findDealForUpdate(trx, teamId, id) : findDeal(trx, teamId, id));

export const insertDeal = (db: DbExecutor, row: NewDealRow) => db.insertInto('deals').values(row).execute();

export const updateDeal = (db: DbExecutor, teamId: string, id: string, patch: DealUpdate) =>
  db.updateTable('deals').set(patch).where('team_id', '=', teamId).where('id', '=', id).execute();

/** Count and summed value per status of the team's deals in `statuses` last changed in [from, before) (the dashboard's month; deals_team_updated_idx). */
export async function dealTotalsChangedBetween(
  db: DbExecutor,
  teamId: string,
  statuses: string[],
  from: string,
  before: string,
): Promise<Array<{ status: string; count: number; value_cents: number }>> {
  const rows = await db
    .selectFrom('deals')
    .select((eb) => ['status', eb.fn.countAll<number>().as('count'), eb.fn.coalesce(eb.fn.sum<number>('value_cents'), eb.lit(0)).as('value_cents')])
    .where('team_id', '=', teamId)
    .where('updated_at', '>=', from)
    .where('updated_at', '<', before)
    .where('status', 'in', statuses as never)
    .groupBy('status')
    .execute();
  return rows.map((r) => ({ status: r.status, count: Number(r.count), value_cents: Number(r.value_cents) }));
}
