import { sql, type SelectQueryBuilder } from 'kysely';
import { compiledQuery } from '../../storage/compiled-query.js';
import type { Database, NewVehicleRow, VehicleRow, VehicleUpdate } from '../../storage/database.js';
import type { DialectName } from '../../storage/dialect.js';
import type { DbExecutor, Trx } from '../../storage/executor.js';
import type { Page, Sort } from '../shared/list-query.js';
import { countByStatus, onlyStatusFilter, pageAndTotal, sortOrder, teamColumn } from '../shared/list-sql.js';
import { searchCondition } from '../shared/search-sql.js';
import { sqliteIndexServes } from '../shared/text-search.js';
import type { VehicleSortField } from './vehicles.types.js';

export interface VehicleFilters {
  status?: string;
  phase?: string;
  /** Folded (brand_key / model_key). */
  brandKey?: string;
  modelKey?: string;
  condition?: string;
  fuel?: string;
  transmission?: string;
  store_id?: string;
  minCents?: number;
  maxCents?: number;
  minYear?: number;
  maxYear?: number;
  maxMileage?: number;
  search?: string;
}

const vehicleById = compiledQuery('vehicle_by_id', (db: DbExecutor, teamId: string, id: string) =>
  db.selectFrom('vehicles').selectAll().where('team_id', '=', teamId).where('id', '=', id),
);

/** A vehicle; no lock. GET /vehicles/:id's hot path: compiled once. */
export const findVehicle = (db: DbExecutor, teamId: string, id: string): Promise<VehicleRow | undefined> => vehicleById.executeTakeFirst(db, teamId, id);

/** The same, row-locked until the transaction ends (PostgreSQL). */
export const findVehicleForUpdate = (trx: Trx, teamId: string, id: string): Promise<VehicleRow | undefined> =>
  trx.selectFrom('vehicles').selectAll().where('team_id', '=', teamId).where('id', '=', id).forUpdate().executeTakeFirst();

export const insertVehicle = (db: DbExecutor, row: NewVehicleRow) => db.insertInto('vehicles').values(row).execute();

export const updateVehicle = (db: DbExecutor, teamId: string, id: string, patch: VehicleUpdate) =>
  db.updateTable('vehicles').set(patch).where('team_id', '=', teamId).where('id', '=', id).execute();

type VehiclesQuery<O> = SelectQueryBuilder<Database, 'vehicles', O>;

function applyFilters<O>(query: VehiclesQuery<O>, dialect: DialectName, teamId: string, f: VehicleFilters, fromSearchIndex = false) {
  let q = query.where(teamColumn('vehicles', fromSearchIndex), '=', teamId);
  // Archived vehicles are soft-deleted: listed only when asked for by status.
  q = f.status ? q.where('vehicles.status', '=', f.status as never) : q.where('vehicles.status', '!=', 'arquivado');
  if (f.phase !== undefined) q = q.where('vehicles.phase', '=', f.phase);
  if (f.brandKey !== undefined) q = q.where('vehicles.brand_key', '=', f.brandKey);
  if (f.modelKey !== undefined) q = q.where('vehicles.model_key', '=', f.modelKey);
  if (f.condition !== undefined) q = q.where('vehicles.condition', '=', f.condition as never);
  if (f.fuel !== undefined) q = q.where('vehicles.fuel', '=', f.fuel);
  if (f.transmission !== undefined) q = q.where('vehicles.transmission', '=', f.transmission);
  if (f.store_id !== undefined) q = q.where('vehicles.store_id', '=', f.store_id);
  if (f.minCents !== undefined) q = q.where('vehicles.price_cents', '>=', f.minCents);
  if (f.maxCents !== undefined) q = q.where('vehicles.price_cents', '<=', f.maxCents);
  if (f.minYear !== undefined) q = q.where('vehicles.model_year', '>=', f.minYear);
  if (f.maxYear !== undefined) q = q.where('vehicles.model_year', '<=', f.maxYear);
  if (f.maxMileage !== undefined) q = q.where('vehicles.mileage', '<=', f.maxMileage);
  if (f.search !== undefined) q = q.where(searchCondition(dialect, 'vehicles', [f.search]));
  return q;
}

const SORT_COLUMNS = {
  created_at: sql.ref('vehicles.created_at'),
  updated_at: sql.ref('vehicles.updated_at'),
  title: sql.ref('vehicles.title_key'),
  brand: sql.ref('vehicles.brand_key'),
  price: sql.ref('vehicles.price_cents'),
  model_year: sql.ref('vehicles.model_year'),
  mileage: sql.ref('vehicles.mileage'),
  // The board order of the team's vehicle phases, not the alphabet.
  phase: sql`(select p.position from vehicle_phases p where p.team_id = vehicles.team_id and p.name = vehicles.phase)`,
  status: sql.ref('vehicles.status'),
} as const;
const DEEP_PAGE_OFFSET = 100;
const NULLABLE_SORTS: ReadonlySet<VehicleSortField> = new Set(['price', 'model_year', 'mileage']);

export async function listVehicles(db: DbExecutor, dialect: DialectName, teamId: string, filters: VehicleFilters, sort: Sort<VehicleSortField>, page: Page) {
  const order = sortOrder(dialect, sort, NULLABLE_SORTS.has(sort.field));
  const pageRows = (fromSearchIndex: boolean): Promise<VehicleRow[]> => {
    const all = db.selectFrom('vehicles').selectAll('vehicles');
    if (page.offset < DEEP_PAGE_OFFSET) {
      return applyFilters(all, dialect, teamId, filters, fromSearchIndex)
        .orderBy(SORT_COLUMNS[sort.field], order)
        .orderBy('vehicles.id', sort.direction)
        .limit(page.limit)
        .offset(page.offset)
        .execute();
    }
    // A deep page: its ids first (an index-only walk past the offset for the default list), then their rows.
    const pageIds = applyFilters(db.selectFrom('vehicles').select('vehicles.id'), dialect, teamId, filters, fromSearchIndex)
      .orderBy(SORT_COLUMNS[sort.field], order)
      .orderBy('vehicles.id', sort.direction)
      .limit(page.limit)
      .offset(page.offset);
    return all.where('vehicles.id', 'in', pageIds).orderBy(SORT_COLUMNS[sort.field], order).orderBy('vehicles.id', sort.direction).execute();
  };
  const total = (fromSearchIndex: boolean) =>
    onlyStatusFilter(filters)
      ? countByStatus(db, teamId, 'vehicles', filters.status ? { equals: filters.status } : { notEquals: 'arquivado' })
      : applyFilters(
          db.selectFrom('vehicles').select((eb) => eb.fn.countAll<number>().as('total')),
          dialect,
          teamId,
          filters,
          fromSearchIndex,
        )
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.total));
  const searchDrives = dialect === 'sqlite' && filters.search !== undefined && sqliteIndexServes([filters.search]);
  return pageAndTotal(searchDrives, page, pageRows, total);
}
