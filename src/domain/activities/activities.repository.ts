import type { DbExecutor, Trx } from '../../storage/executor.js';
import { locksRows } from '../../storage/dialect.js';
import type { ActivityRow, ActivityUpdate, NewActivityRow } from '../../storage/database.js';

export const findActivity = (db: DbExecutor, teamId: string, id: string): Promise<ActivityRow | undefined> =>
  db.selectFrom('activities').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();

/** The same, row-locked until the transaction ends (PostgreSQL). */
export const findActivityForUpdate = (trx: Trx, teamId: string, id: string): Promise<ActivityRow | undefined> =>
  trx.selectFrom('activities').selectAll().where('team_id', '=', teamId).where('id', '=', id).forUpdate().executeTakeFirst();

/** The row a write changes: row-locked until the transaction ends where transactions run at once (PostgreSQL). */
export const findActivityForChange = (trx: Trx, teamId: string, id: string) =>
  locksRows(trx) ? findActivityForUpdate(trx, teamId, id) : findActivity(trx, teamId, id);

/** By id alone (the scheduler, which reads the team from its own row). */
export const findActivityById = (db: DbExecutor, id: string): Promise<ActivityRow | undefined> =>
  db.selectFrom('activities').selectAll().where('id', '=', id).executeTakeFirst();

export const insertActivity = (db: DbExecutor, row: NewActivityRow) => db.insertInto('activities').values(row).execute();

export const updateActivity = (db: DbExecutor, teamId: string, id: string, patch: ActivityUpdate) =>
  db.updateTable('activities').set(patch).where('team_id', '=', teamId).where('id', '=', id).execute();

/** How many of the team's activities are open and past their due time (activities_team_status_due_idx). */
export async function countOverdueActivities(db: DbExecutor, teamId: string, now: string): Promise<number> {
  const row = await db
    .selectFrom('activities')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_id', '=', teamId)
    .where('status', 'in', ['pending', 'in_progress'])
    .where('due_at', '<', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
