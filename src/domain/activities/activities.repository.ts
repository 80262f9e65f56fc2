import { sql, type SelectQueryBuilder } from 'kysely';
import type { DbExecutor, Trx } from '../../storage/executor.js';
import type { ActivityRow, ActivityUpdate, Database, NewActivityRow } from '../../storage/database.js';
import type { DialectName } from '../../storage/dialect.js';
import type { Page, Sort } from '../shared/list-query.js';
import { sortOrder } from '../shared/list-sql.js';
import { containsPattern } from '../shared/text-search.js';
import type { ActivitySortField } from './activities.types.js';

export interface ActivityFilters {
  status?: string;
  /** Only open activities whose due time is before this instant (the overdue list). */
  overdueAt?: string;
  type?: string;
  priority?: string;
  deal_id?: string;
  client_id?: string;
  vehicle_id?: string;
  responsible_id?: string;
  dueFrom?: string;
  dueBefore?: string;
  search?: string;
}

export const findActivity = (db: DbExecutor, teamId: string, id: string): Promise<ActivityRow | undefined> =>
  db.selectFrom('activities').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();

/** The same, row-locked until the transaction ends (PostgreSQL). */
export const findActivityForUpdate = (trx: Trx, teamId: string, id: string): Promise<ActivityRow | undefined> =>
  trx.selectFrom('activities').selectAll().where('team_id', '=', teamId).where('id', '=', id).forUpdate().executeTakeFirst();

/** By id alone (the scheduler, which reads the team from its own row). */
export const findActivityById = (db: DbExecutor, id: string): Promise<ActivityRow | undefined> =>
  db.selectFrom('activities').selectAll().where('id', '=', id).executeTakeFirst();

export const insertActivity = (db: DbExecutor, row: NewActivityRow) => db.insertInto('activities').values(row).execute();

export const updateActivity = (db: DbExecutor, teamId: string, id: string, patch: ActivityUpdate) =>
  db.updateTable('activities').set(patch).where('team_id', '=', teamId).where('id', '=', id).execute();

function applyFilters<O>(query: SelectQueryBuilder<Database, 'activities', O>, teamId: string, f: ActivityFilters) {
  let q = query.where('team_id', '=', teamId);
  // Cancelled activities are soft-deleted: listed only when asked for by status.
  if (f.status !== undefined) q = q.where('status', '=', f.status as never);
  else q = q.where('status', '!=', 'cancelled');
  if (f.overdueAt !== undefined) q = q.where('status', 'in', ['pending', 'in_progress']).where('due_at', '<', f.overdueAt);
  if (f.type !== undefined) q = q.where('type', '=', f.type as never);
  if (f.priority !== undefined) q = q.where('priority', '=', f.priority as never);
  if (f.deal_id !== undefined) q = q.where('deal_id', '=', f.deal_id);
  if (f.client_id !== undefined) q = q.where('client_id', '=', f.client_id);
  if (f.vehicle_id !== undefined) q = q.where('vehicle_id', '=', f.vehicle_id);
  if (f.responsible_id !== undefined) q = q.where('responsible_id', '=', f.responsible_id);
  if (f.dueFrom !== undefined) q = q.where('due_at', '>=', f.dueFrom);
  if (f.dueBefore !== undefined) q = q.where('due_at', '<', f.dueBefore);
  if (f.search !== undefined) q = q.where(sql<boolean>`search_text like ${containsPattern(f.search)} escape '\\'`);
  return q;
}

const SORT_COLUMNS = {
  due_at: 'due_at',
  created_at: 'created_at',
  updated_at: 'updated_at',
  title: 'title_key',
  priority: 'priority_rank',
  status: 'status',
  type: 'type',
} as const;

export async function listActivities(
  db: DbExecutor,
  dialect: DialectName,
  teamId: string,
  filters: ActivityFilters,
  sort: Sort<ActivitySortField>,
  page: Page,
) {
  const [rows, count] = await Promise.all([
    applyFilters(db.selectFrom('activities').selectAll(), teamId, filters)
      .orderBy(SORT_COLUMNS[sort.field], sortOrder(dialect, sort, sort.field === 'due_at'))
      .orderBy('id', sort.direction)
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    applyFilters(
      db.selectFrom('activities').select((eb) => eb.fn.countAll<number>().as('total')),
      teamId,
      filters,
    ).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

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
