import type { DbExecutor, Trx } from '../../storage/executor.js';
import type { Board, BoardPhase } from './phases.types.js';

export const listDealPhases = (db: DbExecutor, teamId: string): Promise<BoardPhase[]> =>
  db.selectFrom('team_phases').select(['name', 'position', 'probability']).where('team_id', '=', teamId).orderBy('position').execute();

export const listVehiclePhases = (db: DbExecutor, teamId: string): Promise<BoardPhase[]> =>
  db.selectFrom('vehicle_phases').select(['name', 'position']).where('team_id', '=', teamId).orderBy('position').execute();

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
      .values(phases.map((p) => ({ team_id: teamId, name: p.name, position: p.position, probability: p.probability ?? 0 })))
      .onConflict((oc) =>
        oc.columns(['team_id', 'name']).doUpdateSet((eb) => ({ position: eb.ref('excluded.position'), probability: eb.ref('excluded.probability') })),
      )
      .execute();
    return;
  }
  await trx
    .insertInto('vehicle_phases')
    .values(phases.map((p) => ({ team_id: teamId, name: p.name, position: p.position })))
    .onConflict((oc) => oc.columns(['team_id', 'name']).doUpdateSet((eb) => ({ position: eb.ref('excluded.position') })))
    .execute();
}

/** Locks the team row until the transaction ends (PostgreSQL), so two replacements of a board run one after the other. */
export const lockTeam = (trx: Trx, teamId: string) => trx.selectFrom('teams').select('id').where('id', '=', teamId).forUpdate().executeTakeFirst();
