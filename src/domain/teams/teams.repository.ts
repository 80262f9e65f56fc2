import type { DbExecutor } from '../../storage/executor.js';
import type { Phase } from './teams.types.js';
import type { Updateable } from 'kysely';
import type { NewTeamRow, TeamTable } from '../../storage/database.js';

export async function insertTeam(db: DbExecutor, team: NewTeamRow, phases: Phase[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('teams').values(team).execute();
    await trx
      .insertInto('team_phases')
      .values(phases.map((p) => ({ ...p, team_id: team.id })))
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

export async function updateTeam(db: DbExecutor, id: string, patch: Updateable<TeamTable>) {
  if (Object.keys(patch).length) await db.updateTable('teams').set(patch).where('id', '=', id).execute();
  return findTeam(db, id);
}
