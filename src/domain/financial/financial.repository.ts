import { sql } from 'kysely';
import type { DbExecutor, Trx } from '../../storage/executor.js';
import { locksRows } from '../../storage/dialect.js';
import type { FinancialRow, FinancialUpdate, NewFinancialRow } from '../../storage/database.js';

export const findFinancial = (db: DbExecutor, teamId: string, id: string): Promise<FinancialRow | undefined> =>
  db.selectFrom('financial_records').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();

export const findFinancialForUpdate = (trx: Trx, teamId: string, id: string): Promise<FinancialRow | undefined> =>
  trx.selectFrom('financial_records').selectAll().where('team_id', '=', teamId).where('id', '=', id).forUpdate().executeTakeFirst();

/** The row a write changes: row-locked until the transaction ends where transactions run at once (PostgreSQL). */
export const findFinancialForChange = (trx: Trx, teamId: string, id: string) =>
  locksRows(trx) ? findFinancialForUpdate(trx, teamId, id) : findFinancial(trx, teamId, id);

export const findFinancialById = (db: DbExecutor, id: string): Promise<FinancialRow | undefined> =>
  db.selectFrom('financial_records').selectAll().where('id', '=', id).executeTakeFirst();

export const insertFinancial = (db: DbExecutor, row: NewFinancialRow) => db.insertInto('financial_records').values(row).execute();

export const updateFinancial = (db: DbExecutor, teamId: string, id: string, patch: FinancialUpdate) =>
  db.updateTable('financial_records').set(patch).where('team_id', '=', teamId).where('id', '=', id).execute();

/** A team's pending records (re-armed when the team's time zone changes). */
export const pendingOfTeam = (db: DbExecutor, teamId: string) =>
  db.selectFrom('financial_records').select(['id', 'due_date', 'status']).where('team_id', '=', teamId).where('status', '=', 'pending').execute();

export const teamTimeZone = async (db: DbExecutor, teamId: string): Promise<string> =>
  (await db.selectFrom('teams').select('time_zone').where('id', '=', teamId).executeTakeFirstOrThrow()).time_zone;

export interface SummaryGroup {
  type: 'revenue' | 'expense' | 'cost';
  category: string;
  status: 'pending' | 'paid' | 'cancelled';
  overdue: number;
  month: string;
  n: number;
  cents: number;
}

/** Counts and integer-cent sums of a period's records (due dates inclusive), by type, category, status, overdue and month. */
export async function summaryGroups(db: DbExecutor, teamId: string, from: string, to: string, now: string): Promise<SummaryGroup[]> {
  const overdue = sql<number>`case when status = 'pending' and overdue_at <= ${now} then 1 else 0 end`;
  const month = sql<string>`substr(due_date, 1, 7)`;
  const rows = await db
    .selectFrom('financial_records')
    .select(['type', 'category', 'status'])
    .select(overdue.as('overdue'))
    .select(month.as('month'))
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('amount_cents').as('cents')])
    .where('team_id', '=', teamId)
    .where('due_date', '>=', from)
    .where('due_date', '<=', to)
    // By position: PostgreSQL does not match a parameterized select expression to the same one in GROUP BY.
    .groupBy([sql`1`, sql`2`, sql`3`, sql`4`, sql`5`])
    .execute();
  // PostgreSQL's sum of a bigint is a numeric (text to the driver): every figure here is a whole number of cents below 2^53.
  return rows.map((r) => ({ ...r, overdue: Number(r.overdue), n: Number(r.n), cents: Number(r.cents) }));
}

/** Per vehicle linked in the period: integer-cent sums of its sale revenue and of its costs (records not cancelled). */
export async function vehicleSums(db: DbExecutor, teamId: string, from: string, to: string, saleCategory: string) {
  const rows = await db
    .selectFrom('financial_records')
    .select('vehicle_id')
    .select(sql<number>`sum(case when type = 'revenue' and category = ${saleCategory} then amount_cents else 0 end)`.as('sale_cents'))
    .select(sql<number>`sum(case when type = 'cost' then amount_cents else 0 end)`.as('cost_cents'))
    .where('team_id', '=', teamId)
    .where('vehicle_id', 'is not', null)
    .where('status', '!=', 'cancelled')
    .where('due_date', '>=', from)
    .where('due_date', '<=', to)
    .groupBy('vehicle_id')
    .orderBy('vehicle_id')
    .execute();
  return rows.map((r) => ({ vehicle_id: r.vehicle_id!, sale_cents: Number(r.sale_cents), cost_cents: Number(r.cost_cents) }));
}

/** Purchase prices (cents, null when not recorded), titles and plates of the team's vehicles among `ids`. */
export async function vehiclesOfSummary(
  db: DbExecutor,
  teamId: string,
  ids: string[],
): Promise<Map<string, { purchase_cents: number | null; title: string; plate: string | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('vehicles')
    .select(['id', 'purchase_price_cents', 'title', 'plate'])
    .where('team_id', '=', teamId)
    .where('id', 'in', ids)
    .execute();
  return new Map(
    rows.map((r) => [r.id, { purchase_cents: r.purchase_price_cents === null ? null : Number(r.purchase_price_cents), title: r.title, plate: r.plate }]),
  );
}

/** The team's overdue receivables (pending revenue past its overdue time): count and cents, from financial_team_status_overdue_idx. */
export async function overdueReceivables(db: DbExecutor, teamId: string, now: string): Promise<{ count: number; amount_cents: number }> {
  const row = await db
    .selectFrom('financial_records')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.coalesce(eb.fn.sum<number>('amount_cents'), eb.lit(0)).as('amount_cents')])
    .where('team_id', '=', teamId)
    .where('status', '=', 'pending')
    .where('overdue_at', '<=', now)
    .where('type', '=', 'revenue')
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), amount_cents: Number(row.amount_cents) };
}
