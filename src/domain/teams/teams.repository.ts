import type { DbExecutor } from '../../storage/executor.js';
import type { Phase } from './teams.types.js';
import type { NewTeamRow } from '../../storage/database.js';
import { DEFAULT_VEHICLE_PHASES } from '../phases/phases.types.js';

/** A team with its deal pipeline and its vehicle board. */
export async function insertTeam(db: DbExecutor, team: NewTeamRow, phases: Phase[], vehiclePhases: readonly string[] = DEFAULT_VEHICLE_PHASES): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('teams').values(team).execute();
    await trx
      .insertInto('team_phases')
      .values(phases.map((p) => ({ ...p, team_id: team.id })))
      .execute();
    await trx
      .insertInto('vehicle_phases')
      .values(vehiclePhases.map((name, index) => ({ team_id: team.id, name, position: index + 1 })))
      .execute();
  });
}

export const findTeam = (db: DbExecutor, id: string) => db.selectFrom('teams').selectAll().where('id', '=', id).executeTakeFirst();

/** The oldest team with exactly this name (names are not unique). */
export const findOldestTeamByName = (db: DbExecutor, name: string) =>
  db.selectFrom('teams').selectAll().where('name', '=', name).orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();

export const listTeams = (db: DbExecutor) => db.selectFrom('teams').selectAll().orderBy('created_at').orderBy('id').execute();

export const listPhases = (db: DbExecutor, teamId: string): Promise<Phase[]> =>
  db.selectFrom('team_phases').select(['name', 'position', 'probability']).where('team_id', '=', teamId).orderBy('position').execute();

export const findPhase = (db: DbExecutor, teamId: string, name: string) =>
  db.selectFrom('team_phases').select(['name', 'position', 'probability']).where('team_id', '=', teamId).where('name', '=', name).executeTakeFirst();
