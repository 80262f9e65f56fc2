import type { DbExecutor } from '../../storage/executor.js';

export const findDealRef = (db: DbExecutor, teamId: string, id: string) =>
  db.selectFrom('deals').select('id').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();

/**
 * A vehicle of the team. PENDING the vehicles table (migration 0005, vehicles branch): until it is
 * merged every well-formed id is accepted; the merge replaces this body with the lookup.
 */
export const findVehicleRef = (_db: DbExecutor, _teamId: string, id: string): Promise<{ id: string } | undefined> => Promise.resolve({ id });
