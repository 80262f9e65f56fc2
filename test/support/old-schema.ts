import { sql } from 'kysely';
import { newId } from '../../src/domain/shared/ids.js';
import { DEFAULT_PHASES } from '../../src/domain/teams/teams.service.js';
import { DEFAULT_VEHICLE_PHASES } from '../../src/domain/phases/phases.types.js';
import type { Db } from '../../src/storage/db.js';

/**
 * A team as the code of an older schema wrote it: only the columns of migration 0001 (and the vehicle
 * board from 0005 on). Today's teams service writes columns of later migrations (phase labels, …), so
 * upgrade tests seed their teams with this before migrating to the latest schema.
 */
export async function createTeamOnOldSchema(db: Db, input: { name: string; plan?: 'starter' | 'professional' | 'autoshopping' }) {
  const team = { id: newId(), name: input.name, plan: input.plan ?? 'starter', alert_email: null, created_at: new Date().toISOString() };
  const kysely = db.kysely;
  await kysely.insertInto('teams').values(team).execute();
  await kysely
    .insertInto('team_phases')
    .values(DEFAULT_PHASES.map((p) => ({ name: p.name, position: p.position, probability: p.probability, team_id: team.id })))
    .execute();
  const hasVehicleBoard = await sql`select 1 from vehicle_phases where 1 = 0`
    .execute(kysely)
    .then(() => true)
    .catch(() => false);
  if (hasVehicleBoard) {
    for (const [index, name] of DEFAULT_VEHICLE_PHASES.entries()) {
      await sql`insert into vehicle_phases (team_id, name, position) values (${team.id}, ${name}, ${index + 1})`.execute(kysely);
    }
  }
  return team;
}
