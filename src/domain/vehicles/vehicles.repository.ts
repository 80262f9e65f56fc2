import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { compiledQuery, compiledQueryFamily } from '../../storage/compiled-query.js';
import type { Database, NewVehicleRow, VehicleRow, VehicleUpdate } from '../../storage/database.js';
import type { DialectName } from '../../storage/dialect.js';
import type { DbExecutor, Trx } from '../../storage/executor.js';
import { locksRows } from '../../storage/dialect.js';
import { boardTotalsByPhase, onlyActiveFilter, teamColumn } from '../shared/list-sql.js';
import { searchCondition } from '../shared/search-sql.js';
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

/** The same, row-locked until the transaction ends (PostgreSQL). */
export const findVehicleForUpdate = (trx: Trx, teamId: string, id: string): Promise<VehicleRow | undefined> =>
  trx.selectFrom('vehicles').selectAll().where('team_id', '=', teamId).where('id', '=', id).forUpdate().executeTakeFirst();

/** The row a write changes: row-locked until the transaction ends where transactions run at once (PostgreSQL). */
export const findVehicleForChange = (trx: Trx, teamId: string, id: string) =>
  locksRows(trx) ? findVehicleForUpdate(trx, teamId, id) : findVehicle(trx, teamId, id);

export const insertVehicle = (db: DbExecutor, row: NewVehicleRow) => db.insertInto('vehicles').values(row).execute();

export const updateVehicle = (db: DbExecutor, teamId: string, id: string, patch: VehicleUpdate) =>
  db.updateTable('vehicles').set(patch).where('team_id', '=', teamId).where('id', '=', id).execute();

type VehiclesQuery<O> = SelectQueryBuilder<Database, 'vehicles', O>;

function applyFilters<O>(
  query: VehiclesQuery<O>,
  dialect: DialectName,
  teamId: string,
  f: VehicleFilters,
  fromSearchIndex = false,
  /** A listed search's own condition (listedSearchPage), in place of the search's. */
  listedSearch: RawBuilder<boolean> | null = null,
) {
  const range = (column: 'price_cents' | 'model_year' | 'mileage') => sql.ref(`vehicles.${column}`);
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
