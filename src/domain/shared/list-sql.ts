import type { DbExecutor } from '../../storage/executor.js';
import { sql, type ExpressionBuilder, type OrderByItemBuilder, type OrderByModifiersCallbackExpression, type RawBuilder } from 'kysely';
import type { Database } from '../../storage/database.js';
import type { DialectName } from '../../storage/dialect.js';
import type { Page, Sort } from './list-query.js';
import { compiledQuery, perShape } from '../../storage/compiled-query.js';
import type { CommittedReader } from '../../storage/committed-reader.js';
import { authEpochTable } from './auth-epoch-sql.js';

/**
 * The order of a list: nulls last in both directions, on both databases. The NULLS LAST clause is
 * written only where it is not already the database's default (SQLite: ascending; PostgreSQL:
 * descending), and never for NOT NULL columns, so the planner can read the (team_id, column, id)
 * indexes in order instead of sorting the team's rows.
 */
export function sortOrder(dialect: DialectName, sort: Sort<string>, nullable: boolean): OrderByModifiersCallbackExpression {
  const needsClause = nullable && (dialect === 'sqlite' ? sort.direction === 'asc' : sort.direction === 'desc');
  return (ob: OrderByItemBuilder) => {
    const directed = sort.direction === 'desc' ? ob.desc() : ob.asc();
    return needsClause ? directed.nullsLast() : directed;
  };
}

/** Only the status is filtered (or nothing): the total comes from the per-status counters. */
export const onlyStatusFilter = (filters: object): boolean => Object.entries(filters).every(([key, value]) => key === 'status' || value === undefined);

/** Only the search and the status are filtered: a SQLite search's total may come from its index alone (search-sql.ts). */
export const onlySearchFilter = (filters: object): boolean =>
  Object.entries(filters).every(([key, value]) => key === 'status' || key === 'search' || value === undefined);

/** A status condition that the per-status counters can answer. */
export type StatusCondition = { equals: string } | { notEquals: string };

/** Exact number of a team's records in (or not in) a status, from record_counts: no scan of the table. */
export async function countByStatus(db: DbExecutor, teamId: string, resource: 'deals' | 'clients' | 'vehicles', status: StatusCondition): Promise<number> {
  const row = await db
    .selectFrom('record_counts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('total'))
    .where('team_id', '=', teamId)
    .where('resource', '=', resource)
    .where('status', 'equals' in status ? '=' : '!=', 'equals' in status ? status.equals : status.notEquals)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * The exact total of a status-only list as a column of its page statement (`list_total`): an
 * uncorrelated subquery of record_counts, which both databases run once per statement. Page and total
 * then take one statement, one round trip on PostgreSQL, and come from the same snapshot. A page past
 * the end has no row to carry it: the caller counts with {@link countByStatus} then.
 */
export function statusTotalColumn<DB extends Database, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  teamId: string,
  resource: 'deals' | 'clients' | 'vehicles',
  equals: boolean,
  status: string,
) {
  const e = eb as unknown as ExpressionBuilder<Database, never>;
  return e
    .selectFrom('record_counts')
    .select((c) => c.fn.coalesce(c.fn.sum<number>('record_counts.n'), c.lit(0)).as('n'))
    .where('record_counts.team_id', '=', teamId)
    .where('record_counts.resource', '=', resource)
    .where('record_counts.status', equals ? '=' : '!=', status)
    .as('list_total');
}

/**
 * The limit to write as a constant into a status-only list's first page statement (both databases), else null. SQLite
 * (3.53) prepares a statement with a bound LIMIT or OFFSET again at every run (the same finding as the
 * CPF search's, pageAndTotalOfFew): 335 against 163 µs for the default deals page at 100,000 deals.
 * PostgreSQL plans these statements once for all values (storage/db.ts, withNamedStatements): with a
 * bound LIMIT that plan assumes a tenth of the team's rows are wanted, with the constant it knows the
 * page is 20 rows and walks the sort's index whatever the team's size. One shape per limit (at most
 * MAX_LIMIT); later pages keep them bound.
 */
export const literalFirstPageLimit = (page: Page): number | null => (page.offset === 0 ? page.limit : null);

/** A list's page with its exact total, and the auth_epoch counter read in the same snapshot (null: not read with it). */
export interface ListRead<R> {
  rows: R[];
  total: number;
  authEpoch: number | null;
  /** Which of the planner's paths read it (read-planner.repository.ts, ReadPath): for its reference test, never for an answer. */
  path?: string;
}

/** An empty status-only page's total and the auth_epoch counter, in one statement (one snapshot), compiled once per shape. */
const statusTotalWithAuthEpoch = perShape(
  (resource: 'deals' | 'clients' | 'vehicles', equals: boolean) => `${resource} ${equals}`,
  (resource: 'deals' | 'clients' | 'vehicles', equals: boolean) =>
    compiledQuery(`${resource}_status_total_${equals ? 'eq' : 'ne'}`, (db: DbExecutor, teamId: string, status: string) =>
      db.selectFrom(authEpochTable()).select((eb) => [statusTotalColumn(eb, teamId, resource, equals, status), 'e.n as auth_epoch']),
    ),
);

/**
 * The answer of a status-only page statement whose every row carries `list_total`
 * (`statusTotalColumn`) and `auth_epoch` (auth-epoch-sql.ts, `authEpochColumn`): one statement, one
 * snapshot. A page past the end has no row to carry them: one more statement reads both then (on the
 * committed reader when given, as the page was).
 */
export async function statusListRead<R extends { list_total: number | string | null; auth_epoch: number | string | null }>(
  rows: R[],
  db: DbExecutor,
  committed: CommittedReader | undefined,
  teamId: string,
  resource: 'deals' | 'clients' | 'vehicles',
  equals: boolean,
  status: string,
): Promise<ListRead<R>> {
  const carrier = rows[0] ?? (await statusTotalWithAuthEpoch(resource, equals).takeFirstCommitted(committed, db, teamId, status));
  // No row at all: a database without auth_epoch's row (migration 0008). The total is counted alone; the key is checked in full.
  if (!carrier) return { rows, total: await countByStatus(db, teamId, resource, equals ? { equals: status } : { notEquals: status }), authEpoch: null };
  return { rows, total: Number(carrier.list_total), authEpoch: carrier.auth_epoch === null ? null : Number(carrier.auth_epoch) };
}

/**
 * The team column of a list query. `fromSearchIndex` (SQLite, a search the FTS5 index answers): a
 * unary `+` keeps SQLite's planner off the team indexes, so the rows are found from the index's hits
 * (a few rowid lookups) instead of by walking every row of the team. Worth it for a count, and for a
 * page when the search has few hits; a page of a common word is found faster by walking the date index.
 */
export function teamColumn(table: 'deals' | 'clients' | 'vehicles', fromSearchIndex: boolean): RawBuilder<string> {
  return fromSearchIndex ? sql<string>`+${sql.ref(`${table}.team_id`)}` : sql<string>`${sql.ref(`${table}.team_id`)}`;
}

/**
 * Whether a SQLite search page is read from the FTS5 hits. Walking the date index stops once the
 * page is full, after about (offset + limit) × team size / hits entries; reading the hits costs about
 * one lookup per hit. Measured at 100,000 deals: 969 hits, page 1: walk 2.4 ms, hits 4.3 ms; 1 hit:
 * walk 11.6 ms (the whole team), hits 1.0 ms. So the hits drive when they are few for the page wanted.
 */
export const searchHitsDrivePage = (hits: number, page: Page): boolean => hits <= searchHitsDriveLimit(page);

/** The most hits for which a page is read from them (searchHitsDrivePage). */
export const searchHitsDriveLimit = (page: Page): number => 5 * (page.offset + page.limit);

/**
 * A page and its exact total. When the search index drives (SQLite), the count runs first and tells
 * the page query which way to go; otherwise (the database runs one statement at a time anyway on
 * SQLite; PostgreSQL runs both at once) the two run together.
 */
export async function pageAndTotal<R>(
  searchDrives: boolean,
  page: Page,
  rows: (fromSearchIndex: boolean) => Promise<R[]>,
  total: (fromSearchIndex: boolean) => Promise<number>,
): Promise<{ rows: R[]; total: number }> {
  if (searchDrives) {
    const count = await total(true);
    return { rows: count === 0 || page.offset >= count ? [] : await rows(searchHitsDrivePage(count, page)), total: count };
  }
  const [found, count] = await Promise.all([rows(false), total(false)]);
  return { rows: found, total: count };
}

/** Rows read in one statement when the matches are expected to be few (pageAndTotalOfFew). */
export const FEW_ROWS = 50;

/**
 * A page and its exact total when the matches are expected to be few (an exact search by key): one
 * statement reads the matches in order from the first, FEW_ROWS and one more at most. Fewer than that
 * are all of them: the total is their number and the page a slice of them. Otherwise the page and the
 * count are read as usual.
 */
export async function pageAndTotalOfFew<R>(
  page: Page,
  rows: (window: Page, literalLimit: boolean) => Promise<R[]>,
  total: () => Promise<number>,
): Promise<{ rows: R[]; total: number }> {
  const cap = FEW_ROWS + 1;
  // The first read's LIMIT and OFFSET are constants, written into the SQL: bound, they make SQLite
  // (3.53) prepare the statement again at every run (measured: 1.7 ms against 0.1 ms for the CPF search).
  const first = await rows({ ...page, offset: 0, limit: cap }, true);
  if (first.length < cap) return { rows: first.slice(page.offset, page.offset + page.limit), total: first.length };
  const [found, count] = await Promise.all([rows(page, false), total()]);
  return { rows: found, total: count };
}

/** Per phase of a team's board: `ativo` records and their summed value (board_totals, migration 0009); phases now empty are left out. */
export async function boardTotalsByPhase(
  db: DbExecutor,
  teamId: string,
  board: 'deals' | 'vehicles',
): Promise<Array<{ phase: string; count: number; total: number }>> {
  const rows = await db
    .selectFrom('board_totals')
    .select((eb) => ['phase', eb.fn.sum<number>('n').as('count'), eb.fn.sum<number>('total').as('total')])
    .where('team_id', '=', teamId)
    .where('board', '=', board)
    .groupBy('phase')
    .execute();
  return rows.map((r) => ({ phase: r.phase, count: Number(r.count), total: Number(r.total) })).filter((r) => r.count !== 0);
}

/** The board's own filter only (`ativo`, nothing else): its totals come from board_totals. */
export const onlyActiveFilter = (filters: { status?: string }): boolean => filters.status === 'ativo' && onlyStatusFilter(filters);
