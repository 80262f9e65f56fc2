import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database, DealUpdate, NewDealRow } from '../../storage/database.js';
import type { Page, Sort } from '../shared/list-query.js';
import { containsPattern } from '../shared/text-search.js';
import type { DealRowWithClient } from './deals.mapper.js';

type DbLike = Kysely<Database>;
export type DealSortField =
  | 'created_at'
  | 'updated_at'
  | 'title'
  | 'value'
  | 'probability'
  | 'expected_close_date'
  | 'priority'
  | 'phase'
  | 'status';

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

function withClient(db: DbLike) {
  return db
    .selectFrom('deals')
    .leftJoin('clients', (join) => join.onRef('clients.id', '=', 'deals.client_id').onRef('clients.team_id', '=', 'deals.team_id'))
    .selectAll('deals')
    .select('clients.name as client_name');
}

export async function findDeal(db: DbLike, teamId: string, id: string, options: { forUpdate?: boolean } = {}) {
  let query = withClient(db).where('deals.team_id', '=', teamId).where('deals.id', '=', id);
  // Row lock on PostgreSQL so concurrent updates compute their changes from the row they replace.
  if (options.forUpdate) query = query.forUpdate('deals');
  return (await query.executeTakeFirst()) as DealRowWithClient | undefined;
}

export const insertDeal = (db: DbLike, row: NewDealRow) => db.insertInto('deals').values(row).execute();

export const updateDeal = (db: DbLike, teamId: string, id: string, patch: DealUpdate) =>
  db.updateTable('deals').set(patch).where('team_id', '=', teamId).where('id', '=', id).execute();

function applyFilters<O>(query: SelectQueryBuilder<Database, 'deals' | 'clients', O>, teamId: string, f: DealFilters) {
  let q = query.where('deals.team_id', '=', teamId);
  // Archived deals are soft-deleted: listed only when asked for by status.
  q = f.status ? q.where('deals.status', '=', f.status as never) : q.where('deals.status', '!=', 'arquivado');
  if (f.phase !== undefined) q = q.where('deals.phase', '=', f.phase);
  if (f.client_id !== undefined) q = q.where('deals.client_id', '=', f.client_id);
  if (f.responsible_id !== undefined) q = q.where('deals.responsible_id', '=', f.responsible_id);
  if (f.source !== undefined) q = q.where('deals.source', '=', f.source);
  if (f.store_id !== undefined) q = q.where('deals.store_id', '=', f.store_id);
  if (f.minCents !== undefined) q = q.where('deals.value_cents', '>=', f.minCents);
  if (f.maxCents !== undefined) q = q.where('deals.value_cents', '<=', f.maxCents);
  if (f.createdFrom !== undefined) q = q.where('deals.created_at', '>=', f.createdFrom);
  if (f.createdBefore !== undefined) q = q.where('deals.created_at', '<', f.createdBefore);
  if (f.search !== undefined) q = q.where(sql<boolean>`deals.search_text like ${containsPattern(f.search)} escape '\\'`);
  return q;
}

const SORT_COLUMNS = {
  created_at: sql.ref('deals.created_at'),
  updated_at: sql.ref('deals.updated_at'),
  title: sql.ref('deals.title_key'),
  value: sql.ref('deals.value_cents'),
  probability: sql.ref('deals.probability'),
  expected_close_date: sql.ref('deals.expected_close_date'),
  priority: sql.ref('deals.priority_rank'),
  // The pipeline order of the team's phases, not the alphabet.
  phase: sql`(select p.position from team_phases p where p.team_id = deals.team_id and p.name = deals.phase)`,
  status: sql.ref('deals.status'),
} as const;

export async function listDeals(db: DbLike, teamId: string, filters: DealFilters, sort: Sort<DealSortField>, page: Page) {
  const base = db
    .selectFrom('deals')
    .leftJoin('clients', (join) => join.onRef('clients.id', '=', 'deals.client_id').onRef('clients.team_id', '=', 'deals.team_id'));
  const [rows, count] = await Promise.all([
    applyFilters(base.selectAll('deals').select('clients.name as client_name'), teamId, filters)
      // Nulls last in both directions, on both databases; ties broken by id so paging is stable.
      .orderBy(SORT_COLUMNS[sort.field], (ob) => (sort.direction === 'desc' ? ob.desc() : ob.asc()).nullsLast())
      .orderBy('deals.id', sort.direction)
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    applyFilters(base.select((eb) => eb.fn.countAll<number>().as('total')), teamId, filters).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as DealRowWithClient[], total: Number(count.total) };
}
