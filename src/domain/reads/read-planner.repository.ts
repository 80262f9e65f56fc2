import { sql, type RawBuilder } from 'kysely';
import type { CommittedReader } from '../../storage/committed-reader.js';
import { compiledQuery, perShape } from '../../storage/compiled-query.js';
import type { DialectName } from '../../storage/dialect.js';
import type { DbExecutor } from '../../storage/executor.js';
import { authEpochColumn, authEpochTable, splitAuthEpoch } from '../shared/auth-epoch-sql.js';
import {
  countByStatus,
  literalFirstPageLimit,
  pageAndTotal,
  pageAndTotalOfFew,
  searchHitsDriveLimit,
  searchHitsDrivePage,
  statusListRead,
  statusTotalColumn,
  type ListRead,
} from '../shared/list-sql.js';
import { countListedSearchHits, listedSearchPage } from '../shared/search-sql.js';
import { sqliteIndexServes } from '../shared/text-search.js';
import { namesFew, searchQueries } from './exact-search.repository.js';
import {
  boardOrdered,
  filtered,
  fromResource,
  listsListed,
  onlySearch,
  onlyStatus,
  ordered,
  phaseOrderedPage,
  rangeFiltered,
  selectView,
  statusCondition,
  type ReadQuery,
} from './read-query.repository.js';
import { countInRange, onlyCountedRange } from './range-counts.repository.js';
import type { ListQuery, ResourceDescription } from './resource.js';
import { confirmationPending, takeConfirmation } from './read-confirmation.js';
import { storeCondition, type Scope } from './scope.js';

/**
 * THE read planner: every list, search and read by id of a resource goes through here, from its
 * description (resource.ts) and the caller's scope (scope.ts), which every path applies. It owns every
 * choice about how to read: which statement (compiled once per shape, or built), which connection (the
 * read workers for long reads, the committed reader for the short status-only pages and reads by id
 * on SQLite), which way a search reads its page, where a total comes from. The choices depend on the
 * request and on the data (counts read by the request itself), never on earlier requests.
 *
 * The paths of a list, in order:
 * 1. status only (the default list, or one status), before DEEP_PAGE_OFFSET: one compiled statement
 *    per shape, the page with its exact total from the per-status counters and the auth_epoch counter
 *    of the same snapshot (list-sql.ts, statusListRead);
 * 2. a search of the listed rows and nothing else (deals, clients, vehicles): page and total in one
 *    statement, which reads the search's hits and the listed rows counted first and chooses from them
 *    how to read the page (search-sql.ts, listedSearchPage); on PostgreSQL in date order;
 * 3. anything else: the page (from DEEP_PAGE_OFFSET on, its ids first, then their rows) and its exact
 *    total, from the counters when only the status is filtered, from the FTS index alone for a listed
 *    search on SQLite, else counted.
 */

/** Where the planner reads: the database's dialect, the serving connection, the read workers and (SQLite) the committed reader. */
export interface Readers {
  dialect: DialectName;
  kysely: DbExecutor;
  /** Long reads (searches, filtered and deep pages, boards): the read workers on SQLite, else the database. */
  reads: DbExecutor;
  committedReader?: CommittedReader;
}

/**
 * The planner's paths, by name (the reference test, read-planner-reference.test.ts, forces each one
 * and checks it answers what a plain query does).
 */
export type ReadPath =
  | 'status-page'
  | 'status-first-page'
  | 'exact'
  | 'listed-search'
  | 'range-few'
  | 'range-many'
  | 'page'
  | 'deep-page'
  | 'board-order'
  | 'page-from-search-index'
  | 'deep-page-from-search-index'
  | 'board-order-from-search-index';

/** From this offset on, a page's ids are found first and then their rows (cheaper than skipping whole rows). */
const DEEP_PAGE_OFFSET = 100;

type Row = Record<string, unknown>;

function statusPageQuery(
  db: DbExecutor,
  d: ResourceDescription,
  dialect: DialectName,
  sort: ListQuery['sort'],
  equals: boolean,
  teamId: string,
  status: string,
) {
  return ordered(
    selectView<Row>(fromResource(db, d), d)
      .select((eb) => [statusTotalColumn(eb, teamId, d.table as 'deals', equals, status), authEpochColumn()])
      .where(sql.ref(`${d.table}.team_id`), '=', teamId)
      .where(sql.ref(`${d.table}.${d.listed.column}`), equals ? '=' : '!=', status),
    d,
    dialect,
    sort,
  );
}

/** A status-only page: one statement per shape, compiled once (its building and compiling was a fifth of a list's time in Node). */
const statusPage = perShape(
  (d: ResourceDescription, dialect: DialectName, sort: ListQuery['sort'], equals: boolean) => `${d.table} ${dialect} ${sort.field} ${sort.direction} ${equals}`,
  (d: ResourceDescription, dialect: DialectName, sort: ListQuery['sort'], equals: boolean) =>
    compiledQuery(
      `${d.table}_page_${sort.field}_${sort.direction}_${equals ? 'eq' : 'ne'}`,
      (db: DbExecutor, teamId: string, status: string, limit: number, offset: number) =>
        statusPageQuery(db, d, dialect, sort, equals, teamId, status).limit(limit).offset(offset),
    ),
);

/** The same, first page, its limit a constant (list-sql.ts, `literalFirstPageLimit`). */
const firstStatusPage = perShape(
  (d: ResourceDescription, dialect: DialectName, sort: ListQuery['sort'], equals: boolean, limit: number) =>
    `${d.table} ${dialect} ${sort.field} ${sort.direction} ${equals} ${limit}`,
  (d: ResourceDescription, dialect: DialectName, sort: ListQuery['sort'], equals: boolean, limit: number) =>
    compiledQuery(`${d.table}_first_page_${sort.field}_${sort.direction}_${equals ? 'eq' : 'ne'}_${limit}`, (db: DbExecutor, teamId: string, status: string) =>
      statusPageQuery(db, d, dialect, sort, equals, teamId, status).limit(sql.lit(limit)),
    ),
);

/**
 * A list's page and its exact total, in the scope. When the request's authentication waits for its
 * read (read-confirmation.ts), it is settled with the auth_epoch counter the page returned (the
 * status-only pages read it in their own statement; other paths leave it to a full check) before the
 * page is answered.
 */
export async function readList<R>(readers: Readers, d: ResourceDescription, scope: Scope, q: ListQuery): Promise<ListRead<R>> {
  const read = await planList<R>(readers, d, scope, q);
  await takeConfirmation()?.(read.authEpoch);
  return read;
}

async function planList<R>(readers: Readers, d: ResourceDescription, scope: Scope, q: ListQuery): Promise<ListRead<R>> {
  const { dialect, committedReader: committed } = readers;
  const db = readers.reads;
  const { sort, page } = q;
  const shallow = page.offset < DEEP_PAGE_OFFSET;
  // The board order of vehicle phases is read through a join of its own (phaseOrderedPage): no compiled page, no listed search.
  const byBoard = boardOrdered(d, sort.field);
  // A store-bound scope reads through `filtered` (its store condition) on every path: the team-wide
  // counters (per status, price buckets, the listed search's counts) do not hold a store's totals.
  const teamWide = storeCondition(scope, d.table) === null;
  if (teamWide && shallow && !byBoard && onlyStatus(q) && d.listed.counted) {
    const { equals, status } = statusCondition(d, q.status);
    const first = literalFirstPageLimit(page);
    const rows =
      first === null
        ? await statusPage(d, dialect, sort, equals).executeCommitted(committed, db, scope.teamId, status, page.limit, page.offset)
        : await firstStatusPage(d, dialect, sort, equals, first).executeCommitted(committed, db, scope.teamId, status);
    const read = await statusListRead(
      rows as Array<Row & { list_total: number; auth_epoch: number }>,
      db,
      committed,
      scope.teamId,
      d.table as 'deals',
      equals,
      status,
    );
    return { ...(read as unknown as ListRead<R>), path: first === null ? 'status-page' : 'status-first-page' };
  }
  const queries = (search: string) => searchQueries(d, search);
  const view = () => selectView<Row>(fromResource(db, d), d);
  const where = <O>(query: ReadQuery<O>, fromSearchIndex: boolean, rangeIndex = true, searched: RawBuilder<boolean> | null = null) =>
    filtered(query, d, scope, q, { dialect, fromSearchIndex, searched, sortField: sort.field, rangeIndex });
  const pageRows = (fromSearchIndex: boolean, rangeIndex = true): Promise<Row[]> => {
    if (byBoard) return phaseOrderedPage(db, d, scope, sort, page, (query) => where(query, fromSearchIndex, rangeIndex)).execute() as Promise<Row[]>;
    if (shallow)
      return ordered(where(view(), fromSearchIndex, rangeIndex), d, dialect, sort)
        .limit(page.limit)
        .offset(page.offset)
        .execute();
    // A deep page: its ids first (for the default list an index-only walk past the offset), then their rows.
    const ids = ordered(where(fromResource(db, d).select(sql.ref<string>(`${d.table}.id`).as('id')), fromSearchIndex, rangeIndex), d, dialect, sort)
      .limit(page.limit)
      .offset(page.offset);
    return ordered(view().where(sql.ref(`${d.table}.id`), 'in', ids), d, dialect, sort).execute();
  };
  const total = (fromSearchIndex: boolean): Promise<number> => {
    if (teamWide && onlyStatus(q) && d.listed.counted) {
      const { equals, status } = statusCondition(d, q.status);
      return countByStatus(db, scope.teamId, d.table as 'deals', equals ? { equals: status } : { notEquals: status });
    }
    if (teamWide && onlyCountedRange(d, q)) return countInRange(db, d, scope.teamId, q);
    if (teamWide && fromSearchIndex && listsListed(d, q.status) && onlySearch(q))
      return countListedSearchHits(db, d.table as 'deals', queries(q.search!), scope.teamId);
    return where(
      fromResource(db, d).select((eb) => eb.fn.countAll<number>().as('total')),
      fromSearchIndex,
    )
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.total));
  };
  const done = ({ rows, total }: { rows: unknown[]; total: number }, path: ReadPath): ListRead<R> => ({ rows: rows as R[], total, authEpoch: null, path });

  if (q.search !== undefined && shallow && !byBoard && namesFew(d, dialect, q.search)) {
    // A search that names one record (a full CPF or CNPJ, a whole plate): one statement reads the matches
    // and counts them (list-sql.ts), instead of a page and a count that each search the index.
    const window = ({ offset, limit }: ListQuery['page'], literal: boolean) =>
      ordered(where(view(), false), d, dialect, sort)
        .limit(literal ? sql.lit(limit) : limit)
        .offset(literal ? sql.lit(offset) : offset)
        .execute();
    return done(await pageAndTotalOfFew(page, window, () => total(false)), 'exact');
  }
  /** A listed search's page query, in its own condition (search-sql.ts). */
  const listedSearch = (fromHits: boolean, searched: RawBuilder<boolean>) => ordered(where(view(), fromHits, true, searched), d, dialect, sort);
  // A search of the listed rows and nothing else, on a resource whose listed rows record_counts counts
  // (its statement weighs the hits against them): page and total in one statement (search-sql.ts). On
  // PostgreSQL in date order only (the one sort with an index on every table, which a dense search walks).
  const listedSearchOnly =
    teamWide && q.search !== undefined && d.search !== undefined && d.listed.counted && listsListed(d, q.status) && onlySearch(q) && shallow && !byBoard;
  const listedSearchServed =
    dialect === 'sqlite' ? d.search?.sqliteIndex !== undefined && q.search !== undefined && sqliteIndexServes(queries(q.search)) : sort.field === 'created_at';
  if (listedSearchOnly && listedSearchServed) {
    const listed = statusCondition(d, undefined);
    return done(
      await listedSearchPage(db, dialect, d.table as 'deals', listed, queries(q.search!), scope.teamId, page, searchHitsDriveLimit(page), listedSearch),
      'listed-search',
    );
  }
  const searchDrives = dialect === 'sqlite' && q.search !== undefined && d.search?.sqliteIndex !== undefined && sqliteIndexServes(queries(q.search));
  if (dialect === 'sqlite' && !searchDrives && rangeFiltered(d, q)) {
    // SQLite has no statistics to weigh a range against the sort: the exact total (from the range's
    // index alone) decides. Few matches for the page wanted: read them from the range's index and sort
    // them; many: walk the sort's index and stop once the page is full (the search rule, list-sql.ts).
    const count = await total(false);
    const fromRange = searchHitsDrivePage(count, page);
    const rows = count === 0 || page.offset >= count ? [] : await pageRows(false, fromRange);
    return done({ rows, total: count }, fromRange ? 'range-few' : 'range-many');
  }
  const kind: ReadPath = byBoard ? 'board-order' : shallow ? 'page' : 'deep-page';
  return done(await pageAndTotal(searchDrives, page, pageRows, total), searchDrives ? `${kind}-from-search-index` : kind);
}

/** A record by id, in the scope: the answer's columns (and its client's name). */
const byId = perShape(
  (d: ResourceDescription) => d.table,
  (d: ResourceDescription) =>
    compiledQuery(`${d.table}_by_id`, (db: DbExecutor, teamId: string, id: string) =>
      selectView<Row>(fromResource(db, d), d)
        .where(sql.ref(`${d.table}.team_id`), '=', teamId)
        .where(sql.ref(`${d.table}.id`), '=', id),
    ),
);

/** The same in a store-bound scope: the store's condition (scope.ts, `storeCondition`) in the statement. */
const byIdInStore = perShape(
  (d: ResourceDescription, column: string) => `${d.table} ${column}`,
  (d: ResourceDescription, column: string) =>
    compiledQuery(`${d.table}_by_id_in_store_${column}`, (db: DbExecutor, teamId: string, id: string, storeId: string) =>
      selectView<Row>(fromResource(db, d), d)
        .where(sql.ref(`${d.table}.team_id`), '=', teamId)
        .where(sql.ref(`${d.table}.id`), '=', id)
        .where(sql.ref(`${d.table}.${column}`), '=', storeId),
    ),
);

/**
 * The same, with the auth_epoch counter of its snapshot: from the counter's one-row table, the
 * record left-joined, so the statement always returns one row (the counter) and confirms a cached
 * authentication in the read's own round trip.
 */
function byIdWithAuthEpochQuery(db: DbExecutor, d: ResourceDescription, teamId: string, id: string, store: { column: string; value: string } | null) {
  const t = d.table;
  let q = (db.selectFrom(authEpochTable()) as unknown as ReadQuery<object>).leftJoin(t, (join) => {
    const inTeam = join.on(sql.ref(`${t}.team_id`), '=', teamId).on(sql.ref(`${t}.id`), '=', id);
    return store === null ? inTeam : inTeam.on(sql.ref(`${t}.${store.column}`), '=', store.value);
  }) as unknown as ReadQuery<object>;
  if (d.clientName) {
    q = q.leftJoin('clients', (join) =>
      join.on(sql.ref('clients.id'), '=', sql.ref(`${t}.client_id`)).on(sql.ref('clients.team_id'), '=', sql.ref(`${t}.team_id`)),
    );
  }
  return selectView<Row>(q, d).select(sql.ref<number | string | null>('e.n').as('auth_epoch'));
}

const byIdWithAuthEpoch = perShape(
  (d: ResourceDescription) => d.table,
  (d: ResourceDescription) =>
    compiledQuery(`${d.table}_by_id_auth_epoch`, (db: DbExecutor, teamId: string, id: string) => byIdWithAuthEpochQuery(db, d, teamId, id, null)),
);

/** The same in a store-bound scope. */
const byIdWithAuthEpochInStore = perShape(
  (d: ResourceDescription, column: string) => `${d.table} ${column}`,
  (d: ResourceDescription, column: string) =>
    compiledQuery(`${d.table}_by_id_auth_epoch_in_store_${column}`, (db: DbExecutor, teamId: string, id: string, storeId: string) =>
      byIdWithAuthEpochQuery(db, d, teamId, id, { column, value: storeId }),
    ),
);

/**
 * A record by id in the scope (undefined when there is none). When the request's authentication
 * waits for its read (read-confirmation.ts), or when asked, the same statement reads the auth_epoch
 * counter, and a pending authentication is settled with it before the record (or its absence, a 404)
 * is answered.
 */
export async function readById<R>(
  readers: Readers,
  d: ResourceDescription,
  scope: Scope,
  id: string,
  withAuthEpoch: boolean,
): Promise<{ row: R | undefined; authEpoch: number | null }> {
  const store = storeCondition(scope, d.table);
  if (!withAuthEpoch && !confirmationPending()) {
    const row =
      store === null
        ? await byId(d).executeTakeFirst(readers.kysely, scope.teamId, id)
        : await byIdInStore(d, store.column).executeTakeFirst(readers.kysely, scope.teamId, id, store.value);
    return { row: row as R | undefined, authEpoch: null };
  }
  const found =
    store === null
      ? await byIdWithAuthEpoch(d).takeFirstCommitted(readers.committedReader, readers.kysely, scope.teamId, id)
      : await byIdWithAuthEpochInStore(d, store.column).takeFirstCommitted(readers.committedReader, readers.kysely, scope.teamId, id, store.value);
  const read = splitAuthEpoch<R>(found as { auth_epoch: number | string | null; id: string | null } | undefined);
  await takeConfirmation()?.(read.authEpoch);
  return read;
}

/** The planner over one database's readers: what services are given (app/services.ts) to read any resource. */
export function createReadPlanner(readers: Readers) {
  return {
    list: <R>(d: ResourceDescription, scope: Scope, q: ListQuery) => readList<R>(readers, d, scope, q),
    byId: <R>(d: ResourceDescription, scope: Scope, id: string, withAuthEpoch = false) => readById<R>(readers, d, scope, id, withAuthEpoch),
  };
}

export type ReadPlanner = ReturnType<typeof createReadPlanner>;
