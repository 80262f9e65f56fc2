import type { Kysely } from 'kysely';
import type { Database, NewTeamRow } from '../../storage/database.js';

export type DbLike = Kysely<Database>;

export interface PhaseRow {
  name: string;
  position: number;
  probability: number;
}

export async function insertTeam(db: DbLike, team: NewTeamRow, phases: PhaseRow[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('teams').values(team).execute();
    await trx
      .insertInto('team_phases')
      .values(phases.map((p) => ({ ...p, team_id: team.id })))
      .execute();
  });
}

export const findTeam = (db: DbLike, id: string) => db.selectFrom('teams').selectAll().where('id', '=', id).executeTakeFirst();

/** The oldest team with exactly this name (names are not unique). */
export const findOldestTeamByName = (db: DbLike, name: string) =>
  db.selectFrom('teams').selectAll().where('name', '=', name).orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();

export const listTeams = (db: DbLike) => db.selectFrom('teams').selectAll().orderBy('created_at').orderBy('id').execute();

export const listPhases = (db: DbLike, teamId: string): Promise<PhaseRow[]> =>
  db.selectFrom('team_phases').select(['name', 'position', 'probability']).where('team_id', '=', teamId).orderBy('position').execute();

export const findPhase = (db: DbLike, teamId: string, name: string) =>
  db
    .selectFrom('team_phases')
    .select(['name', 'position', 'probability'])
    .where('team_id', '=', teamId)
    .where('name', '=', name)
    .executeTakeFirst();
