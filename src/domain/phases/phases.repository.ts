import type { DbExecutor, Trx } from '../../storage/executor.js';
import { locksRows } from '../../storage/dialect.js';
import { compiledQuery } from '../../storage/compiled-query.js';
import { defaultPhaseLabel } from './phase-names.js';
import type { Board, BoardPhase } from './phases.types.js';

/** A phase row's label: the stored one, or (a row written without one, e.g. by a script) its default. */
const labelled = <P extends { name: string; label: string }>(row: P): P => (row.label ? row : { ...row, label: defaultPhaseLabel(row.name) });

export const listDealPhases = async (db: DbExecutor, teamId: string): Promise<BoardPhase[]> =>
  (await db.selectFrom('team_phases').select(['name', 'label', 'position', 'probability']).where('team_id', '=', teamId).orderBy('position').execute()).map(
    labelled,
  );

export const listVehiclePhases = async (db: DbExecutor, teamId: string): Promise<BoardPhase[]> =>
  (await db.selectFrom('vehicle_phases').select(['name', 'label', 'position']).where('team_id', '=', teamId).orderBy('position').execute()).map(labelled);

export const listBoardPhases = (db: DbExecutor, teamId: string, board: Board): Promise<BoardPhase[]> =>
  board === 'deals' ? listDealPhases(db, teamId) : listVehiclePhases(db, teamId);

export const findVehiclePhase = (db: DbExecutor, teamId: string, name: string) =>
  db.selectFrom('vehicle_phases').select(['name', 'position']).where('team_id', '=', teamId).where('name', '=', name).executeTakeFirst();

/** The first phase of the team's vehicle board (where new vehicles start unless told). */
export const firstVehiclePhase = (db: DbExecutor, teamId: string) =>
  db.selectFrom('vehicle_phases').select(['name', 'position']).where('team_id', '=', teamId).orderBy('position').limit(1).executeTakeFirst();

/** How many of the team's records (any status) are in each of `names` on `board`. */
export async function recordsInPhases(db: DbExecutor, teamId: string, board: Board, names: string[]): Promise<Array<{ phase: string; count: number }>> {
  if (names.length === 0) return [];
  const rows = await db
    .selectFrom(board)
    .select((eb) => ['phase', eb.fn.countAll<number>().as('count')])
    .where('team_id', '=', teamId)
    .where('phase', 'in', names)
    .groupBy('phase')
    .execute();
  return rows.map((r) => ({ phase: r.phase, count: Number(r.count) }));
}

/** Writes the board as given (inserts new phases, renumbers the kept ones) and deletes the phases left out. */
export async function writeBoard(trx: Trx, teamId: string, board: Board, phases: BoardPhase[], removed: string[]): Promise<void> {
  if (removed.length) {
    const table = board === 'deals' ? 'team_phases' : 'vehicle_phases';
    await trx.deleteFrom(table).where('team_id', '=', teamId).where('name', 'in', removed).execute();
  }
  if (board === 'deals') {
    await trx
      .insertInto('team_phases')
      .values(phases.map((p) => ({ team_id: teamId, name: p.name, label: p.label, position: p.position, probability: p.probability ?? 0 })))
      .onConflict((oc) =>
        oc
          .columns(['team_id', 'name'])
          .doUpdateSet((eb) => ({ label: eb.ref('excluded.label'), position: eb.ref('excluded.position'), probability: eb.ref('excluded.probability') })),
      )
      .execute();
    return;
  }
  await trx
    .insertInto('vehicle_phases')
    .values(phases.map((p) => ({ team_id: teamId, name: p.name, label: p.label, position: p.position })))
    .onConflict((oc) => oc.columns(['team_id', 'name']).doUpdateSet((eb) => ({ label: eb.ref('excluded.label'), position: eb.ref('excluded.position') })))
    .execute();
}

/** Two replacements of a board run one after the other: the team row locked until the transaction ends on PostgreSQL; SQLite runs one write transaction at a time. */
export async function lockTeam(trx: Trx, teamId: string): Promise<void> {
  if (locksRows(trx)) await trx.selectFrom('teams').select('id').where('id', '=', teamId).forUpdate().executeTakeFirst();
}

/** Per phase: the `ativo` records and their summed value (board_totals, migration 0009), possibly several rows per phase. */
const phaseTotals = (db: DbExecutor, teamId: string, board: Board) =>
  db
    .selectFrom('board_totals')
    .select((eb) => ['board_totals.phase', eb.fn.sum<number>('board_totals.n').as('n'), eb.fn.sum<number>('board_totals.total').as('total')])
    .where('board_totals.team_id', '=', teamId)
    .where('board_totals.board', '=', board)
    .groupBy('board_totals.phase');

/**
 * The deal pipeline's phases in order, each with its `ativo` deals and their summed value (null when
 * board_totals has no row for it): listDealPhases and boardTotalsByPhase in one statement. The
 * boards and the dashboard read this (deals.repository.ts also uses it as the outer query of the
 * PostgreSQL board).
 */
export const dealPhasesWithTotalsQuery = (db: DbExecutor, teamId: string) =>
  db
    .selectFrom('team_phases')
    .leftJoin(phaseTotals(db, teamId, 'deals').as('t'), 't.phase', 'team_phases.name')
    .select(['team_phases.name', 'team_phases.label', 'team_phases.position', 'team_phases.probability', 't.n', 't.total'])
    .where('team_phases.team_id', '=', teamId);

/** The vehicle board's phases with their `ativo` vehicles and summed creation seconds: listVehiclePhases and boardTotalsByPhase in one statement. */
export const vehiclePhasesWithTotalsQuery = (db: DbExecutor, teamId: string) =>
  db
    .selectFrom('vehicle_phases')
    .leftJoin(phaseTotals(db, teamId, 'vehicles').as('t'), 't.phase', 'vehicle_phases.name')
    .select(['vehicle_phases.name', 'vehicle_phases.label', 'vehicle_phases.position', 't.n', 't.total'])
    .where('vehicle_phases.team_id', '=', teamId);

/** A phase of a board with its `ativo` records (0 when none: such a column is not read) and their summed value. */
export interface PhaseWithTotals extends BoardPhase {
  count: number;
  total: number;
}

/**
 * As boardTotalsByPhase, a phase whose counters add up to 0 has a total of 0, whatever its summed
 * value (the board never reads or shows it).
 */
export const withTotals = <P extends BoardPhase>(row: P & { n: unknown; total: unknown }): PhaseWithTotals => {
  const count = Number(row.n ?? 0);
  const phase: PhaseWithTotals = {
    name: row.name,
    label: row.label || defaultPhaseLabel(row.name),
    position: row.position,
    count,
    total: count === 0 ? 0 : Number(row.total),
  };
  if ('probability' in row) phase.probability = row.probability;
  return phase;
};

const dealPhasesWithTotalsStatement = compiledQuery('deal_phases_with_totals', (db: DbExecutor, teamId: string) =>
  dealPhasesWithTotalsQuery(db, teamId).orderBy('team_phases.position'),
);
const vehiclePhasesWithTotalsStatement = compiledQuery('vehicle_phases_with_totals', (db: DbExecutor, teamId: string) =>
  vehiclePhasesWithTotalsQuery(db, teamId).orderBy('vehicle_phases.position'),
);

/** The deal pipeline's phases in order with their `ativo` totals: one statement, compiled once. */
export const listDealPhasesWithTotals = async (db: DbExecutor, teamId: string): Promise<PhaseWithTotals[]> =>
  (await dealPhasesWithTotalsStatement.execute(db, teamId)).map(withTotals);

/** The vehicle board's phases in order with their `ativo` counts: one statement, compiled once. */
export const listVehiclePhasesWithTotals = async (db: DbExecutor, teamId: string): Promise<PhaseWithTotals[]> =>
  (await vehiclePhasesWithTotalsStatement.execute(db, teamId)).map(withTotals);
