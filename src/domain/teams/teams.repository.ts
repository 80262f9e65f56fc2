import type { DbExecutor } from '../../storage/executor.js';
import type { Phase } from './teams.types.js';
import type { Updateable } from 'kysely';
import type { NewTeamRow, TeamTable } from '../../storage/database.js';
import { defaultPhaseLabel } from '../phases/phase-names.js';
import { DEFAULT_VEHICLE_PHASES } from '../phases/phases.types.js';

/** A team with its deal pipeline and its vehicle board. */
export async function insertTeam(db: DbExecutor, team: NewTeamRow, phases: Phase[], vehiclePhases: readonly string[] = DEFAULT_VEHICLE_PHASES): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('teams').values(team).execute();
    await trx
      .insertInto('team_phases')
      .values(phases.map((p) => ({ ...p, label: defaultPhaseLabel(p.name), team_id: team.id })))
      .execute();
    await trx
      .insertInto('vehicle_phases')
      .values(vehiclePhases.map((name, index) => ({ team_id: team.id, name, label: defaultPhaseLabel(name), position: index + 1 })))
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

export const updateTeamTimeZone = (db: DbExecutor, teamId: string, timeZone: string) =>
  db.updateTable('teams').set({ time_zone: timeZone }).where('id', '=', teamId).execute();

/** The preview areas turned on for a team. */
export async function listPreviews(db: DbExecutor, teamId: string): Promise<string[]> {
  return (await db.selectFrom('team_previews').select('area').where('team_id', '=', teamId).orderBy('area').execute()).map((r) => r.area);
}

export async function enablePreviews(db: DbExecutor, teamId: string, areas: string[], at: string): Promise<void> {
  if (areas.length === 0) return;
  await db
    .insertInto('team_previews')
    .values(areas.map((area) => ({ team_id: teamId, area, enabled_at: at })))
    .onConflict((oc) => oc.columns(['team_id', 'area']).doNothing())
    .execute();
}

export async function disablePreviews(db: DbExecutor, teamId: string, areas: string[]): Promise<void> {
  if (areas.length === 0) return;
  await db.deleteFrom('team_previews').where('team_id', '=', teamId).where('area', 'in', areas).execute();
}

export async function updateTeam(db: DbExecutor, id: string, patch: Updateable<TeamTable>) {
  if (Object.keys(patch).length) await db.updateTable('teams').set(patch).where('id', '=', id).execute();
  return findTeam(db, id);
}
