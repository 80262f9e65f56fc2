import type { DbExecutor } from '../../storage/executor.js';

export const findDealRef = (db: DbExecutor, teamId: string, id: string) =>
  db.selectFrom('deals').select('id').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();

/** A vehicle of the team (any status: an archived or sold vehicle keeps its history of records). */
export const findVehicleRef = (db: DbExecutor, teamId: string, id: string): Promise<{ id: string } | undefined> =>
  db.selectFrom('vehicles').select('id').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
