import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { compiledQuery, compiledQueryFamily, perShape } from '../../storage/compiled-query.js';
import type { CommittedReader } from '../../storage/committed-reader.js';
import type { Database, NewVehicleRow, VehicleRow, VehicleUpdate } from '../../storage/database.js';
import { VEHICLE_VIEW_COLUMNS, type VehicleViewRow } from './vehicles.mapper.js';
import type { DialectName } from '../../storage/dialect.js';
import type { DbExecutor, Trx } from '../../storage/executor.js';
import type { Page, Sort } from '../shared/list-query.js';
import {
  boardTotalsByPhase,
  countByStatus,
  onlyActiveFilter,
  onlySearchFilter,
  onlyStatusFilter,
  pageAndTotal,
  pageAndTotalOfFew,
  searchHitsDriveLimit,
  searchHitsDrivePage,
  sortOrder,
  literalFirstPageLimit,
  statusListRead,
  statusTotalColumn,
  teamColumn,
  type ListRead,
} from '../shared/list-sql.js';
import { countListedSearchHits, listedSearchPage, pgListedSearchPage, searchCondition } from '../shared/search-sql.js';
import { sqliteIndexServes } from '../shared/text-search.js';
import { canonicalPlate } from './vehicle-identifiers.js';
import { authEpochColumn, authEpochTable, splitAuthEpoch } from '../shared/auth-epoch-sql.js';
import { PRICE_BUCKET_CENTS } from '../../storage/migrations/0011-vehicle-price-counts.js';
import type { VehicleSortField } from './vehicles.types.js';
import { listVehiclePhasesWithTotals, vehiclePhasesWithTotalsQuery, withTotals, type PhaseWithTotals } from '../phases/phases.repository.js';

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

const vehicleByIdWithAuthEpoch = compiledQuery('vehicle_by_id_auth_epoch', (db: DbExecutor, teamId: string, id: string) =>
  db
    .selectFrom(authEpochTable())
    .leftJoin('vehicles', (join) => join.on('vehicles.team_id', '=', teamId).on('vehicles.id', '=', id))
    // Only what the answer is made of: fewer values for the backend to write out and for pg to parse (issue 15).
    .select(VEHICLE_VIEW_COLUMNS.map((column) => `vehicles.${column}` as const))
    .select('e.n as auth_epoch'),
);

/**
 * The same read, with the auth_epoch counter of its snapshot: it confirms a cached authentication too.
 * PostgreSQL: one round trip. SQLite (`committed`): one synchronous read on the read-only connection, so
 * the record and the counter come from one committed snapshot, never from an open group-commit batch.
 */
export const findVehicleWithAuthEpoch = async (db: DbExecutor, teamId: string, id: string, committed?: CommittedReader) =>
  splitAuthEpoch<VehicleViewRow>(await vehicleByIdWithAuthEpoch.takeFirstCommitted(committed, db, teamId, id));

/** The same, row-locked until the transaction ends (PostgreSQL). */
export const findVehicleForUpdate = (trx: Trx, teamId: string, id: string): Promise<VehicleRow | undefined> =>
  trx.selectFrom('vehicles').selectAll().where('team_id', '=', teamId).where('id', '=', id).forUpdate().executeTakeFirst();

export const insertVehicle = (db: DbExecutor, row: NewVehicleRow) => db.insertInto('vehicles').values(row).execute();

export const updateVehicle = (db: DbExecutor, teamId: string, id: string, patch: VehicleUpdate) =>
  db.updateTable('vehicles').set(patch).where('team_id', '=', teamId).where('id', '=', id).execute();

type VehiclesQuery<O> = SelectQueryBuilder<Database, 'vehicles', O>;

/** The range-filtered columns and the sort that their index serves. */
const RANGE_COLUMNS = { price_cents: 'price', model_year: 'model_year', mileage: 'mileage' } as const satisfies Record<string, VehicleSortField>;

/**
 * A range-filtered column. `rangeIndex` false (SQLite): a unary `+` keeps the planner off the
 * column's index, so a page is read by walking the sort's index and checking the range on the way
 * (a page of a wide range is found after a few rows), instead of reading the whole range and sorting
 * it. The column of the sort itself keeps its index (it serves both).
 */
function rangeColumn(column: keyof typeof RANGE_COLUMNS, sortField: VehicleSortField | null, rangeIndex: boolean) {
  const ref = sql.ref(`vehicles.${column}`);
  return rangeIndex || RANGE_COLUMNS[column] === sortField ? ref : sql`+${ref}`;
}

function applyFilters<O>(
  query: VehiclesQuery<O>,
  dialect: DialectName,
  teamId: string,
  f: VehicleFilters,
  fromSearchIndex = false,
  sortField: VehicleSortField | null = null,
  rangeIndex = true,
  /** A listed search's own condition (listedSearchPage), in place of the search's. */
  listedSearch: RawBuilder<boolean> | null = null,
) {
  const range = (column: keyof typeof RANGE_COLUMNS) => rangeColumn(column, sortField, rangeIndex);
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
  if (f.minCents !== undefined) q = q.where(range('price_cents'), '>=', f.minCents);
  if (f.maxCents !== undefined) q = q.where(range('price_cents'), '<=', f.maxCents);
  if (f.minYear !== undefined) q = q.where(range('model_year'), '>=', f.minYear);
  if (f.maxYear !== undefined) q = q.where(range('model_year'), '<=', f.maxYear);
  if (f.maxMileage !== undefined) q = q.where(range('mileage'), '<=', f.maxMileage);
  // Without a status filter the search index answers with the team's listed rows only.
  if (f.search !== undefined) q = q.where(listedSearch ?? searchCondition(dialect, 'vehicles', [f.search], teamId, f.status ? 'team' : 'listed'));
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
  // The board order of the team's vehicle phases (read through the join of phaseOrderedPage).
  phase: sql.ref('vehicle_phases.position'),
  status: sql.ref('vehicles.status'),
} as const;
const DEEP_PAGE_OFFSET = 100;
const NULLABLE_SORTS: ReadonlySet<VehicleSortField> = new Set(['price', 'model_year', 'mileage']);

/**
 * A page in board order: the team's phases in position order, each phase's vehicles from the
 * (team_id, phase, created_at, id) index, so ties within a phase go by created_at, then id. The
 * cross join keeps SQLite's loops in that order (the phases outside), and the unique
 * (team_id, position, name) index lets it read the page in order and stop after it, instead of
 * sorting the team's vehicles (600 ms -> under 1 ms at 100,000 on SQLite).
 */
function phaseOrderedPage(
  db: DbExecutor,
  dialect: DialectName,
  teamId: string,
  filters: VehicleFilters,
  fromSearchIndex: boolean,
  rangeIndex: boolean,
  sort: Sort<VehicleSortField>,
  page: Page,
) {
  const joined = db
    .selectFrom('vehicle_phases')
    .crossJoin('vehicles')
    .whereRef('vehicles.team_id', '=', 'vehicle_phases.team_id')
    .whereRef('vehicles.phase', '=', 'vehicle_phases.name')
    .where('vehicle_phases.team_id', '=', teamId)
    .selectAll('vehicles');
  return applyFilters(joined as unknown as VehiclesQuery<VehicleRow>, dialect, teamId, filters, fromSearchIndex, sort.field, rangeIndex)
    .orderBy(sql.ref('vehicle_phases.position'), sort.direction)
    .orderBy(sql.ref('vehicle_phases.name'), sort.direction)
    .orderBy('vehicles.created_at', sort.direction)
    .orderBy('vehicles.id', sort.direction)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** Only a price range (and the status) is filtered: the total comes from vehicle_price_counts. */
const onlyPriceFilter = (filters: VehicleFilters): boolean =>
  (filters.minCents !== undefined || filters.maxCents !== undefined) &&
  Object.entries(filters).every(([key, value]) => key === 'status' || key === 'minCents' || key === 'maxCents' || value === undefined);

/** floor(cents / PRICE_BUCKET_CENTS), exact for every safe integer (as the migration's triggers compute it). */
const bucketOf = (cents: number): number => (cents - (((cents % PRICE_BUCKET_CENTS) + PRICE_BUCKET_CENTS) % PRICE_BUCKET_CENTS)) / PRICE_BUCKET_CENTS;

/**
 * Exact number of the team's vehicles (status as filtered) priced in [minCents, maxCents], in one
 * statement: the counters of the buckets wholly inside the range (migration 0011), plus the rows of
 * the partial buckets at each end counted from the (team_id, price_cents, id, status) index. A range
 * narrower than two buckets is counted from the index alone.
 */
async function countPriceRange(db: DbExecutor, teamId: string, filters: VehicleFilters): Promise<number> {
  const { minCents, maxCents } = filters;
  if (minCents !== undefined && maxCents !== undefined && minCents > maxCents) return 0;
  // Whole buckets: from the first that starts at or after minCents to the last that ends at or before maxCents.
  const first = minCents === undefined ? Number.MIN_SAFE_INTEGER : bucketOf(minCents + PRICE_BUCKET_CENTS - 1);
  const last = maxCents === undefined ? Number.MAX_SAFE_INTEGER : bucketOf(maxCents + 1) - 1;
  type Range = [number, number] | null;
  let whole: Range = [first, last];
  let below: Range = null;
  let above: Range = null;
  if (first > last) {
    // No whole bucket: the range is narrow (both bounds given), counted from the index.
    whole = null;
    below = [minCents!, maxCents!];
  } else {
    if (minCents !== undefined && minCents < first * PRICE_BUCKET_CENTS) below = [minCents, first * PRICE_BUCKET_CENTS - 1];
    if (maxCents !== undefined && maxCents >= (last + 1) * PRICE_BUCKET_CENTS) above = [(last + 1) * PRICE_BUCKET_CENTS, maxCents];
  }
  const equals = Boolean(filters.status);
  const status = filters.status || 'arquivado';
  const op = equals ? '=' : '!=';
  const row = await db
    .selectNoFrom((eb) => [
      whole
        ? eb
            .selectFrom('vehicle_price_counts')
            .select((c) => c.fn.coalesce(c.fn.sum<number>('vehicle_price_counts.n'), c.lit(0)).as('n'))
            .where('vehicle_price_counts.team_id', '=', teamId)
            .where('vehicle_price_counts.status', op, status)
            .where('vehicle_price_counts.bucket', '>=', whole[0])
            .where('vehicle_price_counts.bucket', '<=', whole[1])
            .as('whole')
        : eb.lit(0).as('whole'),
      ...([below, above] as const).map((range, i) =>
        range
          ? eb
              .selectFrom('vehicles')
              .select((c) => c.fn.countAll<number>().as('n'))
              .where('vehicles.team_id', '=', teamId)
              .where('vehicles.status', op, status as VehicleRow['status'])
              .where('vehicles.price_cents', '>=', range[0])
              .where('vehicles.price_cents', '<=', range[1])
              .as(i === 0 ? 'below' : 'above')
          : eb.lit(0).as(i === 0 ? 'below' : 'above'),
      ),
    ])
    .executeTakeFirstOrThrow();
  return Number(row.whole) + Number(row.below) + Number(row.above);
}

/**
 * The default list, or one status, in any sort but the board's, before DEEP_PAGE_OFFSET: one
 * statement per shape, compiled once, with the exact total from the counters as a column
 * (`statusTotalColumn`) and the auth_epoch counter of the same snapshot: one round trip on
 * PostgreSQL, one committed read on SQLite.
 */
const statusPage = perShape(
  (dialect: DialectName, sort: ListSort, equals: boolean) => `${dialect} ${sort.field} ${sort.direction} ${equals}`,
  (dialect: DialectName, sort: ListSort, equals: boolean) =>
    compiledQuery(
      `vehicles_page_${sort.field}_${sort.direction}_${equals ? 'eq' : 'ne'}`,
      (db: DbExecutor, teamId: string, status: string, limit: number, offset: number) =>
        statusPageQuery(db, dialect, sort, equals, teamId, status).limit(limit).offset(offset),
    ),
);

/** The same, first page, its limit a constant (`literalFirstPageLimit`). */
const firstStatusPage = perShape(
  (dialect: DialectName, sort: ListSort, equals: boolean, limit: number) => `${dialect} ${sort.field} ${sort.direction} ${equals} ${limit}`,
  (dialect: DialectName, sort: ListSort, equals: boolean, limit: number) =>
    compiledQuery(`vehicles_first_page_${sort.field}_${sort.direction}_${equals ? 'eq' : 'ne'}_${limit}`, (db: DbExecutor, teamId: string, status: string) =>
      statusPageQuery(db, dialect, sort, equals, teamId, status).limit(sql.lit(limit)),
    ),
);

type ListSort = Sort<Exclude<VehicleSortField, 'phase'>>;

function statusPageQuery(db: DbExecutor, dialect: DialectName, sort: ListSort, equals: boolean, teamId: string, status: string) {
  return db
    .selectFrom('vehicles')
    .selectAll('vehicles')
    .select((eb) => [statusTotalColumn(eb, teamId, 'vehicles', equals, status), authEpochColumn()])
    .where('vehicles.team_id', '=', teamId)
    .where('vehicles.status', equals ? '=' : '!=', status as VehicleRow['status'])
    .orderBy(SORT_COLUMNS[sort.field], sortOrder(dialect, sort, NULLABLE_SORTS.has(sort.field)))
    .orderBy('vehicles.id', sort.direction);
}

const notByPhase = (sort: Sort<VehicleSortField>): sort is Sort<Exclude<VehicleSortField, 'phase'>> => sort.field !== 'phase';

export async function listVehicles(
  db: DbExecutor,
  dialect: DialectName,
  teamId: string,
  filters: VehicleFilters,
  sort: Sort<VehicleSortField>,
  page: Page,
  /** SQLite: the status-only page is read on the read-only connection (storage/committed-reader.ts), one committed snapshot. */
  committed?: CommittedReader,
): Promise<ListRead<VehicleRow>> {
  if (page.offset < DEEP_PAGE_OFFSET && notByPhase(sort) && onlyStatusFilter(filters)) {
    // Archived vehicles are soft-deleted: listed only when asked for by status.
    const equals = Boolean(filters.status);
    const status = filters.status || 'arquivado';
    const first = literalFirstPageLimit(page);
    const rows =
      first === null
        ? await statusPage(dialect, sort, equals).executeCommitted(committed, db, teamId, status, page.limit, page.offset)
        : await firstStatusPage(dialect, sort, equals, first).executeCommitted(committed, db, teamId, status);
    return statusListRead(rows, db, committed, teamId, 'vehicles', equals, status);
  }
  return { ...(await filteredVehicles(db, dialect, teamId, filters, sort, page)), authEpoch: null };
}

async function filteredVehicles(db: DbExecutor, dialect: DialectName, teamId: string, filters: VehicleFilters, sort: Sort<VehicleSortField>, page: Page) {
  const order = sortOrder(dialect, sort, NULLABLE_SORTS.has(sort.field));
  const search = filters.search;
  /** A listed search's page query, in its own condition (search-sql.ts). */
  const listedSearch = (fromHits: boolean, searched: RawBuilder<boolean>) =>
    applyFilters(db.selectFrom('vehicles').selectAll('vehicles'), dialect, teamId, filters, fromHits, sort.field, true, searched)
      .orderBy(SORT_COLUMNS[sort.field], order)
      .orderBy('vehicles.id', sort.direction);
  if (
    dialect === 'sqlite' &&
    search !== undefined &&
    page.offset < DEEP_PAGE_OFFSET &&
    notByPhase(sort) &&
    !filters.status &&
    onlySearchFilter(filters) &&
    sqliteIndexServes([search])
  ) {
    // Page and total in one statement, the index's hits read once (search-sql.ts).
    const { rows, total } = await listedSearchPage(db, 'vehicles', [search], teamId, page, searchHitsDriveLimit(page), listedSearch);
    return { rows: rows as VehicleRow[], total };
  }
  const pageRows = (fromSearchIndex: boolean, rangeIndex = true): Promise<VehicleRow[]> => {
    if (sort.field === 'phase') return phaseOrderedPage(db, dialect, teamId, filters, fromSearchIndex, rangeIndex, sort, page);
    const all = db.selectFrom('vehicles').selectAll('vehicles');
    if (page.offset < DEEP_PAGE_OFFSET) {
      return applyFilters(all, dialect, teamId, filters, fromSearchIndex, sort.field, rangeIndex)
        .orderBy(SORT_COLUMNS[sort.field], order)
        .orderBy('vehicles.id', sort.direction)
        .limit(page.limit)
        .offset(page.offset)
        .execute();
    }
    // A deep page: its ids first (an index-only walk past the offset for the default list), then their rows.
    const pageIds = applyFilters(db.selectFrom('vehicles').select('vehicles.id'), dialect, teamId, filters, fromSearchIndex, sort.field, rangeIndex)
      .orderBy(SORT_COLUMNS[sort.field], order)
      .orderBy('vehicles.id', sort.direction)
      .limit(page.limit)
      .offset(page.offset);
    return all.where('vehicles.id', 'in', pageIds).orderBy(SORT_COLUMNS[sort.field], order).orderBy('vehicles.id', sort.direction).execute();
  };
  const total = (fromSearchIndex: boolean) =>
    onlyStatusFilter(filters)
      ? countByStatus(db, teamId, 'vehicles', filters.status ? { equals: filters.status } : { notEquals: 'arquivado' })
      : onlyPriceFilter(filters)
        ? countPriceRange(db, teamId, filters)
        : fromSearchIndex && !filters.status && onlySearchFilter(filters)
          ? countListedSearchHits(db, 'vehicles', [filters.search!], teamId)
          : applyFilters(
              db.selectFrom('vehicles').select((eb) => eb.fn.countAll<number>().as('total')),
              dialect,
              teamId,
              filters,
              fromSearchIndex,
            )
              .executeTakeFirstOrThrow()
              .then((r) => Number(r.total));
  if (dialect === 'postgres' && search !== undefined && page.offset < DEEP_PAGE_OFFSET && sort.field !== 'phase' && canonicalPlate(search) !== null) {
    // A whole plate names one vehicle (its forms are all in its own search text): one statement reads the
    // matches and counts them, instead of a page and a count that each search the trigram index (list-sql.ts).
    const window = ({ offset, limit }: Page, literal: boolean) =>
      applyFilters(db.selectFrom('vehicles').selectAll('vehicles'), dialect, teamId, filters, false, sort.field)
        .orderBy(SORT_COLUMNS[sort.field], order)
        .orderBy('vehicles.id', sort.direction)
        .limit(literal ? sql.lit(limit) : limit)
        .offset(literal ? sql.lit(offset) : offset)
        .execute();
    return pageAndTotalOfFew(page, window, () => total(false));
  }
  if (
    dialect === 'postgres' &&
    search !== undefined &&
    page.offset < DEEP_PAGE_OFFSET &&
    sort.field === 'created_at' &&
    !filters.status &&
    onlySearchFilter(filters)
  ) {
    // The page walks the date index when the search was last counted dense (search-sql.ts).
    return pgListedSearchPage(db, 'vehicles', [search], teamId, page, searchHitsDriveLimit(page), (searched) => listedSearch(false, searched));
  }
  const searchDrives = dialect === 'sqlite' && filters.search !== undefined && sqliteIndexServes([filters.search]);
  const ranged = [filters.minCents, filters.maxCents, filters.minYear, filters.maxYear, filters.maxMileage].some((v) => v !== undefined);
  if (dialect === 'sqlite' && ranged && !searchDrives) {
    // SQLite has no statistics to weigh a range against the sort: the exact total (from the range's
    // index alone) decides. Few matches for the page wanted: read them from the range's index and sort
    // them; many: walk the sort's index and stop once the page is full (the search rule, list-sql.ts).
    const count = await total(false);
    return { rows: count === 0 || page.offset >= count ? [] : await pageRows(false, searchHitsDrivePage(count, page)), total: count };
  }
  return pageAndTotal(searchDrives, page, pageRows, total);
}

/** The columns a vehicle board card shows (boards.service.ts): a page reads these, never whole rows. */
const CARD_COLUMNS = [
  'vehicles.id',
  'vehicles.title',
  'vehicles.brand',
  'vehicles.model',
  'vehicles.price_cents',
  'vehicles.plate',
  'vehicles.model_year',
  'vehicles.mileage',
  'vehicles.phase',
  'vehicles.status',
  'vehicles.created_at',
] as const;

export type VehicleCardRow = Pick<
  VehicleRow,
  'id' | 'title' | 'brand' | 'model' | 'price_cents' | 'plate' | 'model_year' | 'mileage' | 'phase' | 'status' | 'created_at'
>;

/**
 * One column of the vehicle board as cards: a page of the team's vehicles in `phase` (filters as
 * given), the longest in stock first. Read in order from vehicles_team_phase_idx (team, phase,
 * created_at, id, status).
 */
export const boardCardQuery = (db: DbExecutor, dialect: DialectName, teamId: string, phase: string, filters: VehicleFilters, offset: number, limit: number) =>
  applyFilters(db.selectFrom('vehicles').select(CARD_COLUMNS), dialect, teamId, { ...filters, phase })
    .orderBy('vehicles.created_at', 'asc')
    .orderBy('vehicles.id', 'asc')
    .limit(limit)
    .offset(offset);

/** The board's own filter only: its statements are built and compiled once (storage/compiled-query.ts). */
const ACTIVE: VehicleFilters = { status: 'ativo' };

const activeColumnCards = compiledQueryFamily(
  'vehicles_board_column',
  (dialect: DialectName) => (db: DbExecutor, teamId: string, phase: string, offset: number, limit: number) =>
    boardCardQuery(db, dialect, teamId, phase, ACTIVE, offset, limit),
);

/** One page of one column of the vehicle board (its "carregar mais"): one statement. */
export const boardColumnCards = (...args: Parameters<typeof boardCardQuery>): Promise<VehicleCardRow[]> => {
  const [db, dialect, teamId, phase, filters, offset, limit] = args;
  return onlyActiveFilter(filters) ? activeColumnCards(dialect).execute(db, teamId, phase, offset, limit) : boardCardQuery(...args).execute();
};

/**
 * The first `limit` cards of several columns of the vehicle board in ONE statement: per phase the
 * column's own query (boardCardQuery, stopped after `limit` rows of the phase index), joined by
 * UNION ALL. `board_column` is the phase's index in `phases`; rows come column by column, each in the
 * column's order (the outer ORDER BY sorts at most `limit` rows per column).
 */
function boardColumnsQuery(db: DbExecutor, dialect: DialectName, teamId: string, filters: VehicleFilters, limit: number, phases: string[]) {
  const [first, ...rest] = phases.map((phase, i) =>
    db
      .selectFrom(boardCardQuery(db, dialect, teamId, phase, filters, 0, limit).as('c'))
      .selectAll('c')
      .select(sql.lit(i).as('board_column')),
  );
  return rest
    .reduce((union, branch) => union.unionAll(branch), first!)
    .orderBy('board_column')
    .orderBy('created_at')
    .orderBy('id');
}

// Unfiltered boards: one compiled statement per dialect and number of phases (the phases are bound values).
const activeColumnsCards = compiledQueryFamily(
  'vehicles_board',
  (key: `${DialectName}_${number}`) =>
    (db: DbExecutor, teamId: string, limit: number, ...names: string[]) =>
      boardColumnsQuery(db, key.split('_')[0] as DialectName, teamId, ACTIVE, limit, names),
);

export async function boardColumnsCards(
  db: DbExecutor,
  dialect: DialectName,
  teamId: string,
  phases: string[],
  filters: VehicleFilters,
  limit: number,
): Promise<Array<VehicleCardRow & { board_column: number }>> {
  if (phases.length === 0) return [];
  const rows = onlyActiveFilter(filters)
    ? await activeColumnsCards(`${dialect}_${phases.length}`).execute(db, teamId, limit, ...phases)
    : await boardColumnsQuery(db, dialect, teamId, filters, limit, phases).execute();
  for (const row of rows) row.board_column = Number(row.board_column);
  return rows;
}

/** Vehicles per phase (filters as given), counted from the phase index. */
export async function boardVehicleCounts(
  db: DbExecutor,
  dialect: DialectName,
  teamId: string,
  filters: VehicleFilters,
): Promise<Array<{ phase: string; count: number }>> {
  if (onlyActiveFilter(filters)) return (await boardTotalsByPhase(db, teamId, 'vehicles')).map((r) => ({ phase: r.phase, count: r.count }));
  const rows = await applyFilters(
    db
      .selectFrom('vehicles')
      .select((eb) => ['vehicles.phase', eb.fn.countAll<number>().as('count')])
      .groupBy('vehicles.phase'),
    dialect,
    teamId,
    filters,
  ).execute();
  return rows.map((r) => ({ phase: r.phase, count: Number(r.count) }));
}

/** How many vehicles are in stock (status ativo) and their mean entry time (ms since the epoch), from board_totals (entry times summed in seconds). */
export async function stockAge(db: DbExecutor, teamId: string): Promise<{ count: number; meanCreatedMs: number | null }> {
  const phases = await boardTotalsByPhase(db, teamId, 'vehicles');
  const count = phases.reduce((n, p) => n + p.count, 0);
  const seconds = phases.reduce((n, p) => n + p.total, 0);
  return { count, meanCreatedMs: count === 0 ? null : (seconds / count) * 1000 };
}

/**
 * PostgreSQL: the whole unfiltered vehicle board in ONE statement: the phases with their counts
 * (vehiclePhasesWithTotalsQuery) and, per phase with vehicles, a LATERAL page of its column (the
 * column's own query, `limit` rows of the phase index). A phase without cards comes as one row whose
 * card columns are null. The same statement for any number of phases (a UNION ALL per phase count
 * was planned again and again).
 */
const activeBoardPg = compiledQuery('vehicles_board_full_postgres', (db: DbExecutor, teamId: string, limit: number) =>
  db
    .selectFrom(vehiclePhasesWithTotalsQuery(db, teamId).as('p'))
    .leftJoinLateral(
      () =>
        // No phase given here: the column's phase is the outer row's, a reference rather than a value.
        boardCardQuery(db, 'postgres', teamId, undefined as unknown as string, ACTIVE, 0, limit)
          .where('vehicles.phase', '=', sql.ref<string>('p.name'))
          .where(sql<boolean>`coalesce(p.n, 0) <> 0`)
          .as('c'),
      (join) => join.onTrue(),
    )
    .select(['p.name as board_phase', 'p.label as board_label', 'p.n as board_n', 'p.total as board_total'])
    .selectAll('c')
    .orderBy('p.position')
    .orderBy('c.created_at')
    .orderBy('c.id'),
);

/** The unfiltered vehicle board: its phases with their counts, and the first `limit` cards of every phase with vehicles. */
export interface ActiveVehiclesBoard {
  phases: PhaseWithTotals[];
  cards: VehicleCardRow[];
}

/**
 * The unfiltered vehicle board (its own `ativo` filter only). PostgreSQL: one statement, one round
 * trip (activeBoardPg). SQLite: two statements, the phases with their counts, then every column with
 * vehicles in one UNION ALL (boardColumnsCards).
 */
export async function activeVehiclesBoard(db: DbExecutor, dialect: DialectName, teamId: string, limit: number): Promise<ActiveVehiclesBoard> {
  if (dialect === 'postgres') {
    const phases: PhaseWithTotals[] = [];
    const cards: VehicleCardRow[] = [];
    for (const row of await activeBoardPg.execute(db, teamId, limit)) {
      if (phases.at(-1)?.name !== row.board_phase)
        phases.push(withTotals({ name: row.board_phase, label: row.board_label, position: phases.length, n: row.board_n, total: row.board_total }));
      // The card's own fields are read by name (boards.service.ts toVehicleCard); the phase's columns ride along.
      if (row.id !== null) cards.push(row as unknown as VehicleCardRow);
    }
    return { phases, cards };
  }
  const phases = await listVehiclePhasesWithTotals(db, teamId);
  const read = phases.filter((p) => p.count !== 0).map((p) => p.name);
  const cards = await boardColumnsCards(db, dialect, teamId, read, ACTIVE, limit);
  return { phases, cards };
}
