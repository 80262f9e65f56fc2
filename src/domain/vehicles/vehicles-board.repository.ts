import { sql, type SelectQueryBuilder } from 'kysely';
import { compiledQuery, compiledQueryFamily } from '../../storage/compiled-query.js';
import type { Database, VehicleRow } from '../../storage/database.js';
import { dialectOf, type DialectName } from '../../storage/dialect.js';
import type { DbExecutor } from '../../storage/executor.js';
import { listVehiclePhasesWithTotals, vehiclePhasesWithTotalsQuery, withTotals, type PhaseWithTotals } from '../phases/phases.repository.js';
import { filtered } from '../reads/read-query.repository.js';
import { teamScope, type Scope } from '../reads/scope.js';
import { boardTotalsByPhase, onlyActiveFilter } from '../shared/list-sql.js';
import type { VehicleFilters } from './vehicles.repository.js';
import { VEHICLES } from './vehicles.resource.js';

/**
 * The vehicle board (the panel's stock): its columns' cards and its counts, in the caller's scope,
 * with the read planner's conditions (`filtered`). The unfiltered board of a team-wide scope has
 * statements compiled once per shape; PostgreSQL reads a whole board in one statement.
 */

type VehiclesQuery<O> = SelectQueryBuilder<Database, 'vehicles', O>;

/**
 * A board's conditions: the read planner's (read-query.repository.ts, `filtered`), from the vehicles'
 * description and the caller's scope, so a board shows exactly the vehicles a list in the same scope would.
 */
function applyFilters<O>(query: VehiclesQuery<O>, dialect: DialectName, scope: Scope, f: VehicleFilters): VehiclesQuery<O> {
  const { status, search, ...filters } = f;
  return filtered(query, VEHICLES, scope, { filters, status, search }, { dialect });
}

/** The compiled board statements bind the team alone: a scope with more than its team (a store, a seller) is built each time. */
const teamOnly = (scope: Scope): boolean => Object.values(scope).filter((v) => v !== undefined).length === 1;

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
export const boardCardQuery = (db: DbExecutor, dialect: DialectName, scope: Scope, phase: string, filters: VehicleFilters, offset: number, limit: number) =>
  applyFilters(db.selectFrom('vehicles').select(CARD_COLUMNS), dialect, scope, { ...filters, phase })
    .orderBy('vehicles.created_at', 'asc')
    .orderBy('vehicles.id', 'asc')
    .limit(limit)
    .offset(offset);

/** The board's own filter only: its statements are built and compiled once (storage/compiled-query.ts). */
const ACTIVE: VehicleFilters = { status: 'ativo' };

const activeColumnCards = compiledQueryFamily(
  'vehicles_board_column',
  (dialect: DialectName) => (db: DbExecutor, teamId: string, phase: string, offset: number, limit: number) =>
    boardCardQuery(db, dialect, teamScope(teamId), phase, ACTIVE, offset, limit),
);

/** One page of one column of the vehicle board (its "carregar mais"): one statement. */
export function boardColumnCards(
  db: DbExecutor,
  scope: Scope,
  phase: string,
  filters: VehicleFilters,
  offset: number,
  limit: number,
): Promise<VehicleCardRow[]> {
  const dialect = dialectOf(db);
  return onlyActiveFilter(filters) && teamOnly(scope)
    ? activeColumnCards(dialect).execute(db, scope.teamId, phase, offset, limit)
    : boardCardQuery(db, dialect, scope, phase, filters, offset, limit).execute();
}

/**
 * The first `limit` cards of several columns of the vehicle board in ONE statement: per phase the
 * column's own query (boardCardQuery, stopped after `limit` rows of the phase index), joined by
 * UNION ALL. `board_column` is the phase's index in `phases`; rows come column by column, each in the
 * column's order (the outer ORDER BY sorts at most `limit` rows per column).
 */
function boardColumnsQuery(db: DbExecutor, dialect: DialectName, scope: Scope, filters: VehicleFilters, limit: number, phases: string[]) {
  const [first, ...rest] = phases.map((phase, i) =>
    db
      .selectFrom(boardCardQuery(db, dialect, scope, phase, filters, 0, limit).as('c'))
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
      boardColumnsQuery(db, key.split('_')[0] as DialectName, teamScope(teamId), ACTIVE, limit, names),
);

export async function boardColumnsCards(
  db: DbExecutor,
  scope: Scope,
  phases: string[],
  filters: VehicleFilters,
  limit: number,
): Promise<Array<VehicleCardRow & { board_column: number }>> {
  if (phases.length === 0) return [];
  const dialect = dialectOf(db);
  const rows =
    onlyActiveFilter(filters) && teamOnly(scope)
      ? await activeColumnsCards(`${dialect}_${phases.length}`).execute(db, scope.teamId, limit, ...phases)
      : await boardColumnsQuery(db, dialect, scope, filters, limit, phases).execute();
  for (const row of rows) row.board_column = Number(row.board_column);
  return rows;
}

/** Vehicles per phase (filters as given), counted from the phase index. */
export async function boardVehicleCounts(db: DbExecutor, scope: Scope, filters: VehicleFilters): Promise<Array<{ phase: string; count: number }>> {
  if (onlyActiveFilter(filters) && teamOnly(scope))
    return (await boardTotalsByPhase(db, scope.teamId, 'vehicles')).map((r) => ({ phase: r.phase, count: r.count }));
  const rows = await applyFilters(
    db
      .selectFrom('vehicles')
      .select((eb) => ['vehicles.phase', eb.fn.countAll<number>().as('count')])
      .groupBy('vehicles.phase'),
    dialectOf(db),
    scope,
    filters,
  ).execute();
  return rows.map((r) => ({ phase: r.phase, count: Number(r.count) }));
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
        boardCardQuery(db, 'postgres', teamScope(teamId), undefined as unknown as string, ACTIVE, 0, limit)
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
export async function activeVehiclesBoard(db: DbExecutor, scope: Scope, limit: number): Promise<ActiveVehiclesBoard> {
  const teamId = scope.teamId;
  if (dialectOf(db) === 'postgres') {
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
  const cards = await boardColumnsCards(db, scope, read, ACTIVE, limit);
  return { phases, cards };
}
