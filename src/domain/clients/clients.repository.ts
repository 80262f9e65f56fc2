import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { ClientUpdate, Database, NewClientRow } from '../../storage/database.js';
import type { Page, Sort } from '../shared/list-query.js';
import { normalizeTaxId } from '../shared/tax-id.js';
import { containsPattern } from '../shared/text-search.js';

const TAX_ID_QUERY = /^(?=.*\d)[\dA-Za-z]*[./-][\dA-Za-z./\s-]*$/;

type DbLike = Kysely<Database>;
export type ClientSortField = 'created_at' | 'updated_at' | 'name' | 'segment' | 'status' | 'type';

export interface ClientFilters {
  type?: string;
  status?: string;
  segment?: string;
  store_id?: string;
  search?: string;
}

export async function findClient(db: DbLike, teamId: string, id: string, options: { forUpdate?: boolean } = {}) {
  let query = db.selectFrom('clients').selectAll().where('team_id', '=', teamId).where('id', '=', id);
  if (options.forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

export const insertClient = (db: DbLike, row: NewClientRow) => db.insertInto('clients').values(row).execute();

export const updateClient = (db: DbLike, teamId: string, id: string, patch: ClientUpdate) =>
  db.updateTable('clients').set(patch).where('team_id', '=', teamId).where('id', '=', id).execute();

function applyFilters<O>(query: SelectQueryBuilder<Database, 'clients', O>, teamId: string, f: ClientFilters) {
  let q = query.where('team_id', '=', teamId);
  // Inactive clients are soft-deleted: listed only when asked for by status.
  q = q.where('status', '=', (f.status ?? 'active') as 'active' | 'inactive');
  if (f.type !== undefined) q = q.where('type', '=', f.type as 'PF' | 'PJ');
  if (f.segment !== undefined) q = q.where('segment', '=', f.segment);
  if (f.store_id !== undefined) q = q.where('store_id', '=', f.store_id);
  if (f.search !== undefined) {
    const patterns = [containsPattern(f.search)];
    // A punctuated tax number (`111.444.777-35`) also finds one stored without punctuation.
    if (TAX_ID_QUERY.test(f.search)) patterns.push(containsPattern(normalizeTaxId(f.search)));
    q = q.where((eb) => eb.or(patterns.map((p) => sql<boolean>`search_text like ${p} escape '\\'`)));
  }
  return q;
}

const SORT_COLUMNS = {
  created_at: 'created_at',
  updated_at: 'updated_at',
  name: 'name_key',
  segment: 'segment',
  status: 'status',
  type: 'type',
} as const;

export async function listClients(db: DbLike, teamId: string, filters: ClientFilters, sort: Sort<ClientSortField>, page: Page) {
  const base = db.selectFrom('clients');
  const [rows, count] = await Promise.all([
    applyFilters(base.selectAll(), teamId, filters)
      // Nulls last in both directions, on both databases; ties broken by id so paging is stable.
      .orderBy(SORT_COLUMNS[sort.field], (ob) => (sort.direction === 'desc' ? ob.desc() : ob.asc()).nullsLast())
      .orderBy('id', sort.direction)
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    applyFilters(base.select((eb) => eb.fn.countAll<number>().as('total')), teamId, filters).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}
