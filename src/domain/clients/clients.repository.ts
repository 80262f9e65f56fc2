import type { DbExecutor, Trx } from '../../storage/executor.js';
import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { compiledQuery, perShape } from '../../storage/compiled-query.js';
import type { CommittedReader } from '../../storage/committed-reader.js';
import type { ClientRow, ClientUpdate, Database, NewClientRow } from '../../storage/database.js';
import { CLIENT_STATE_COLUMNS, type ClientStateRow } from './clients.mapper.js';
import type { Page, Sort } from '../shared/list-query.js';
import { normalizeTaxId } from '../shared/tax-id.js';
import type { DialectName } from '../../storage/dialect.js';
import {
  countByStatus,
  onlySearchFilter,
  onlyStatusFilter,
  pageAndTotal,
  pageAndTotalOfFew,
  searchHitsDriveLimit,
  sortOrder,
  literalFirstPageLimit,
  statusListRead,
  statusTotalColumn,
  teamColumn,
  type ListRead,
} from '../shared/list-sql.js';
import { countListedSearchHits, exactSearchCondition, listedSearchPage, pgListedSearchPage, searchCondition, type KeyedLookup } from '../shared/search-sql.js';
import { CLIENT_TAX_DIGITS_FLAG, CNPJ_WINDOW_ROWS, CNPJ_WINDOWS, cnpjWindow } from '../../storage/exact-search.js';
import { sqliteIndexServes } from '../shared/text-search.js';
import { authEpochColumn, authEpochTable, splitAuthEpoch } from '../shared/auth-epoch-sql.js';
import type { ClientSortField } from './clients.types.js';

const TAX_ID_QUERY = /^(?=.*\d)[\dA-Za-z]*[./-][\dA-Za-z./\s-]*$/;
/** A full CPF or CNPJ, bare or in its usual punctuation: searched by its exact path. */
const CPF_QUERY = /^(?:\d{11}|\d{3}\.\d{3}\.\d{3}-\d{2})$/;
const CNPJ_QUERY = /^(?:\d{14}|\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2})$/;

export interface ClientFilters {
  type?: string;
  status?: string;
  segment?: string;
  store_id?: string;
  search?: string;
}

const clientById = compiledQuery('client_by_id', (db: DbExecutor, teamId: string, id: string) =>
  db.selectFrom('clients').selectAll().where('team_id', '=', teamId).where('id', '=', id),
);

/** A client; no lock. GET /clients/:id's hot path: compiled once (storage/compiled-query.ts). */
export const findClient = (db: DbExecutor, teamId: string, id: string) => clientById.executeTakeFirst(db, teamId, id);

const clientByIdWithAuthEpoch = compiledQuery('client_by_id_auth_epoch', (db: DbExecutor, teamId: string, id: string) =>
  db
    .selectFrom(authEpochTable())
    .leftJoin('clients', (join) => join.on('clients.team_id', '=', teamId).on('clients.id', '=', id))
    // Only what the answer is made of: fewer values for the backend to write out and for pg to parse (issue 15).
    .select(CLIENT_STATE_COLUMNS.map((column) => `clients.${column}` as const))
    .select('e.n as auth_epoch'),
);

/**
 * The same read, with the auth_epoch counter of its snapshot: it confirms a cached authentication too.
 * PostgreSQL: one round trip. SQLite (`committed`): one synchronous read on the read-only connection, so
 * the record and the counter come from one committed snapshot, never from an open group-commit batch.
 */
export const findClientWithAuthEpoch = async (db: DbExecutor, teamId: string, id: string, committed?: CommittedReader) =>
  splitAuthEpoch<ClientStateRow>(await clientByIdWithAuthEpoch.takeFirstCommitted(committed, db, teamId, id));

/** The same, row-locked until the transaction ends (PostgreSQL). */
export const findClientForUpdate = (trx: Trx, teamId: string, id: string) =>
  trx.selectFrom('clients').selectAll().where('team_id', '=', teamId).where('id', '=', id).forUpdate().executeTakeFirst();

/** `{id, name}` of a client of the team: what a deal embeds, and how its client_id is checked. */
export const findClientRef = (db: DbExecutor, teamId: string, id: string): Promise<{ id: string; name: string } | undefined> =>
  db.selectFrom('clients').select(['id', 'name']).where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();

export const insertClient = (db: DbExecutor, row: NewClientRow) => db.insertInto('clients').values(row).execute();

export const updateClient = (db: DbExecutor, teamId: string, id: string, patch: ClientUpdate) =>
  db.updateTable('clients').set(patch).where('team_id', '=', teamId).where('id', '=', id).execute();

/** A full CPF or CNPJ, bare or punctuated: a search expected to match one client, a few at most. */
const fullTaxNumber = (search: string): boolean => CPF_QUERY.test(search) || CNPJ_QUERY.test(search);

/** The search queries: a punctuated tax number (`111.444.777-35`) also finds one stored without punctuation. */
const searchQueries = (search: string) => (TAX_ID_QUERY.test(search) ? [search, normalizeTaxId(search)] : [search]);

/**
 * A search for a full CPF or CNPJ on SQLite, from the tax-number indexes (migration 0012): the clients whose CPF
 * is it, or whose CNPJ is it or holds the CPF at one of its four offsets, and the few whose text holds
 * a tax number elsewhere; each checked with the LIKE. Exactly the rows of searchCondition. Null for any
 * other query.
 */
function exactTaxSearch(dialect: DialectName, teamId: string, search: string): RawBuilder<boolean> | null {
  // SQLite only (migration 0012): on PostgreSQL the team's trigram index measured faster (see there).
  if (dialect !== 'sqlite' || !fullTaxNumber(search)) return null;
  const cpf = CPF_QUERY.test(search);
  const key = normalizeTaxId(search);
  const keyed: KeyedLookup[] = cpf
    ? [
        { where: sql<boolean>`cpf_normalized = ${key}`, index: 'clients_team_cpf_uq' },
        ...CNPJ_WINDOWS.map((o) => ({
          where: sql<boolean>`${sql.raw(cnpjWindow(o))} = ${key} and ${sql.raw(CNPJ_WINDOW_ROWS)}`,
          index: `clients_team_cnpj_w${o}_idx`,
        })),
      ]
    : [{ where: sql<boolean>`cnpj_normalized = ${key}`, index: 'clients_team_cnpj_uq' }];
  const flagged = { where: sql<boolean>`${sql.raw(CLIENT_TAX_DIGITS_FLAG)}`, index: 'clients_team_tax_digits_idx' };
  return exactSearchCondition('clients', searchQueries(search), teamId, keyed, flagged);
}

function applyFilters<O>(
  query: SelectQueryBuilder<Database, 'clients', O>,
  dialect: DialectName,
  teamId: string,
  f: ClientFilters,
  fromSearchIndex = false,
  /** A listed search's own condition (listedSearchPage), in place of the search's. */
  listedSearch: RawBuilder<boolean> | null = null,
) {
  const exact = f.search === undefined ? null : exactTaxSearch(dialect, teamId, f.search);
  // An exact search drives from its few candidates (SQLite: kept off the team indexes, as for the FTS hits).
  let q = query.where(teamColumn('clients', fromSearchIndex || (exact !== null && dialect === 'sqlite')), '=', teamId);
  // Inactive clients are soft-deleted: listed only when asked for by status.
  const status = f.status ?? 'active';
  q = q.where('status', '=', status as 'active' | 'inactive');
  if (f.type !== undefined) q = q.where('type', '=', f.type as 'PF' | 'PJ');
  if (f.segment !== undefined) q = q.where('segment', '=', f.segment);
  if (f.store_id !== undefined) q = q.where('store_id', '=', f.store_id);
  // Active clients are the listed ones: the search index answers with exactly those of the team.
  if (f.search !== undefined && listedSearch) q = q.where(listedSearch);
  else if (f.search !== undefined)
    q = q.where(exact ?? searchCondition(dialect, 'clients', searchQueries(f.search), teamId, status === 'active' ? 'listed' : 'team'));
  return q;
}
const SORT_COLUMNS = {
  created_at: 'created_at',
  updated_at: 'updated_at',
  name: 'name_key',
  segment: 'segment',
  status: 'status',
  type: 'type',
} as const;

/**
 * The default list, or one status, in any sort: one statement per shape, compiled once, with the
 * exact total from the counters as a column (`statusTotalColumn`) and the auth_epoch counter of the
 * same snapshot: one round trip on PostgreSQL, one committed read on SQLite.
 */
function statusPageQuery(db: DbExecutor, dialect: DialectName, sort: Sort<ClientSortField>, teamId: string, status: string) {
  return db
    .selectFrom('clients')
    .selectAll('clients')
    .select((eb) => [statusTotalColumn(eb, teamId, 'clients', true, status), authEpochColumn()])
    .where('clients.team_id', '=', teamId)
    .where('clients.status', '=', status as 'active' | 'inactive')
    .orderBy(SORT_COLUMNS[sort.field], sortOrder(dialect, sort, sort.field === 'segment'))
    .orderBy('clients.id', sort.direction);
}

const statusPage = perShape(
  (dialect: DialectName, sort: Sort<ClientSortField>) => `${dialect} ${sort.field} ${sort.direction}`,
  (dialect: DialectName, sort: Sort<ClientSortField>) =>
    compiledQuery(`clients_page_${sort.field}_${sort.direction}`, (db: DbExecutor, teamId: string, status: string, limit: number, offset: number) =>
      statusPageQuery(db, dialect, sort, teamId, status).limit(limit).offset(offset),
    ),
);

/** The offsets below which a listed search's page is one statement (its constant OFFSET makes one statement text per page). */
const LISTED_SEARCH_OFFSETS = 100;

/** The same, first page, its limit a constant (`literalFirstPageLimit`). */
const firstStatusPage = perShape(
  (dialect: DialectName, sort: Sort<ClientSortField>, limit: number) => `${dialect} ${sort.field} ${sort.direction} ${limit}`,
  (dialect: DialectName, sort: Sort<ClientSortField>, limit: number) =>
    compiledQuery(`clients_first_page_${sort.field}_${sort.direction}_${limit}`, (db: DbExecutor, teamId: string, status: string) =>
      statusPageQuery(db, dialect, sort, teamId, status).limit(sql.lit(limit)),
    ),
);

export async function listClients(
  db: DbExecutor,
  dialect: DialectName,
  teamId: string,
  filters: ClientFilters,
  sort: Sort<ClientSortField>,
  page: Page,
  /** SQLite: the status-only page is read on the read-only connection (storage/committed-reader.ts), one committed snapshot. */
  committed?: CommittedReader,
): Promise<ListRead<ClientRow>> {
  if (onlyStatusFilter(filters)) {
    // Inactive clients are soft-deleted: listed only when asked for by status.
    const status = filters.status ?? 'active';
    const first = literalFirstPageLimit(page);
    const rows =
      first === null
        ? await statusPage(dialect, sort).executeCommitted(committed, db, teamId, status, page.limit, page.offset)
        : await firstStatusPage(dialect, sort, first).executeCommitted(committed, db, teamId, status);
    return statusListRead(rows, db, committed, teamId, 'clients', true, status);
  }
  return { ...(await filteredClients(db, dialect, teamId, filters, sort, page)), authEpoch: null };
}

async function filteredClients(db: DbExecutor, dialect: DialectName, teamId: string, filters: ClientFilters, sort: Sort<ClientSortField>, page: Page) {
  const order = sortOrder(dialect, sort, sort.field === 'segment');
  const pageRows = (fromSearchIndex: boolean, { offset, limit } = page, literalLimit = false) =>
    applyFilters(db.selectFrom('clients').selectAll(), dialect, teamId, filters, fromSearchIndex)
      // Ties broken by id so paging is stable.
      .orderBy(SORT_COLUMNS[sort.field], order)
      .orderBy('id', sort.direction)
      .limit(literalLimit ? sql.lit(limit) : limit)
      .offset(literalLimit ? sql.lit(offset) : offset)
      .execute();
  const total = (fromSearchIndex: boolean) =>
    onlyStatusFilter(filters)
      ? countByStatus(db, teamId, 'clients', { equals: filters.status ?? 'active' })
      : fromSearchIndex && (filters.status ?? 'active') === 'active' && onlySearchFilter(filters)
        ? countListedSearchHits(db, 'clients', searchQueries(filters.search!), teamId)
        : applyFilters(
            db.selectFrom('clients').select((eb) => eb.fn.countAll<number>().as('total')),
            dialect,
            teamId,
            filters,
            fromSearchIndex,
          )
            .executeTakeFirstOrThrow()
            .then((r) => Number(r.total));
  /** A listed search's page query, in its own condition (search-sql.ts). */
  const listedSearch = (fromHits: boolean, searched: RawBuilder<boolean>) =>
    applyFilters(db.selectFrom('clients').selectAll(), dialect, teamId, filters, fromHits, searched)
      .orderBy(SORT_COLUMNS[sort.field], order)
      .orderBy('id', sort.direction);
  // A full CPF or CNPJ names one client, a few at most: one statement reads the matches and counts them
  // (list-sql.ts), from the tax-number indexes on SQLite (exactTaxSearch), from the trigram index on PostgreSQL.
  if (filters.search !== undefined && fullTaxNumber(filters.search)) {
    return pageAndTotalOfFew(
      page,
      (window, literalLimit) => pageRows(false, window, literalLimit),
      () => total(false),
    );
  }
  if (
    dialect === 'sqlite' &&
    filters.search !== undefined &&
    page.offset < LISTED_SEARCH_OFFSETS &&
    (filters.status ?? 'active') === 'active' &&
    onlySearchFilter(filters)
  ) {
    const queries = searchQueries(filters.search);
    if (sqliteIndexServes(queries)) {
      // Page and total in one statement, the index's hits read once (search-sql.ts).
      const { rows, total } = await listedSearchPage(db, 'clients', queries, teamId, page, searchHitsDriveLimit(page), listedSearch);
      return { rows: rows as ClientRow[], total };
    }
  }
  if (
    dialect === 'postgres' &&
    filters.search !== undefined &&
    page.offset < LISTED_SEARCH_OFFSETS &&
    sort.field === 'created_at' &&
    (filters.status ?? 'active') === 'active' &&
    onlySearchFilter(filters)
  ) {
    // The page walks the date index when the search was last counted dense (search-sql.ts).
    const queries = searchQueries(filters.search);
    return pgListedSearchPage(db, 'clients', queries, teamId, page, searchHitsDriveLimit(page), (searched) => listedSearch(false, searched));
  }
  const searchDrives = dialect === 'sqlite' && filters.search !== undefined && sqliteIndexServes(searchQueries(filters.search));
  return pageAndTotal(searchDrives, page, pageRows, total);
}
