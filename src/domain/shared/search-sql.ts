import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../storage/database.js';
import type { DbExecutor } from '../../storage/executor.js';
import type { DialectName } from '../../storage/dialect.js';
import { containsPattern, foldText, sqliteIndexServes } from './text-search.js';

type SearchedTable = 'deals' | 'clients' | 'vehicles';

/**
 * Which of the team's rows a SQLite search takes from the index: `listed`, the rows the default list
 * shows (the index knows them: migration 0010), or `team`, all of them (a status filter then checks
 * each hit's row).
 */
export type SearchScope = 'listed' | 'team';

/**
 * `search_text` of `table` contains one of the `queries` (folded). PostgreSQL's planner serves the
 * LIKE from the (team_id, search_text) trigram GIN index itself. On SQLite the FTS5 trigram table
 * answers a quoted phrase, which matches exactly the rows whose text contains it (consecutive
 * trigrams), with no re-check of the text, and only the team's rows (`scope`); queries shorter than a
 * trigram scan the team's rows with LIKE.
 */
export function searchCondition(dialect: DialectName, table: SearchedTable, queries: string[], teamId: string, scope: SearchScope): RawBuilder<boolean> {
  const folded = [...new Set(queries.map(foldText))];
  if (dialect !== 'sqlite' || !sqliteIndexServes(folded)) return containsCondition(table, folded);
  return sql<boolean>`${sql.ref(`${table}.rowid`)} in (select rowid from ${sql.table(`${table}_fts`)} where ${ftsMatch(table, folded, teamId, scope)})`;
}

/** `search_text` of `table` contains one of the `queries` (folded), checked with LIKE: what every search answers. */
export function containsCondition(table: string, queries: string[]): RawBuilder<boolean> {
  const folded = [...new Set(queries.map(foldText))];
  const likes = folded.map((q) => sql`${sql.ref(`${table}.search_text`)} like ${containsPattern(q)} escape '\\'`);
  return sql<boolean>`(${sql.join(likes, sql` or `)})`;
}

/**
 * SQLite, a search the index serves with no filter but the default status: the exact total from the
 * FTS index alone, without reading a row.
 */
export async function countListedSearchHits(db: DbExecutor, table: SearchedTable, queries: string[], teamId: string): Promise<number> {
  const folded = [...new Set(queries.map(foldText))];
  const { rows } = await sql<{ total: number }>`select count(*) as total from ${sql.table(`${table}_fts`)}
    where ${ftsMatch(table, folded, teamId, 'listed')}`.execute(db);
  return Number(rows[0]?.total ?? 0);
}

/** The rows a listed search shows, as record_counts counts them (the default list's status rule per table). */
const LISTED_ROWS: Record<SearchedTable, { equals: boolean; status: string }> = {
  deals: { equals: false, status: 'arquivado' },
  clients: { equals: true, status: 'active' },
  vehicles: { equals: false, status: 'arquivado' },
};

/**
 * A listed search is read by walking the sort's index checking each row's text (no list of hits) when
 * its hits are this dense: hits² > DENSE_FACTOR × (offset + limit) × listed rows, i.e. the walk's rows
 * ((offset + limit) × listed rows / hits) are fewer than a fifth of the hits. Reading a row and its text
 * costs about five times what putting one hit in the materialized list does (measured at 100,000 and
 * 1,000,000 records).
 */
const DENSE_FACTOR = 5;

/** Searches whose last counts this process remembers (only to choose how the next page is read). */
const LAST_COUNTS_MAX = 2_000;

/**
 * The hits and listed rows last counted for a search (table, team and folded phrases). Never an answer:
 * every page counts its total again. It only tells listedSearchPage which statement to run, and either
 * one answers exactly; a stale entry can only cost time, once.
 */
const lastCounts = new Map<string, { hits: number; listed: number }>();

const countsKey = (table: SearchedTable, teamId: string, folded: string[]) => `${table} ${teamId} ${folded.join('\u0001')}`;

/** Whether the search was last counted dense for this page: hits² > factor × (offset + limit) × listed rows, and more hits than the hits drive. */
function lastCountedDense(key: string, page: { offset: number; limit: number }, hitsDriveLimit: number, factor: number): boolean {
  const last = lastCounts.get(key);
  return last !== undefined && last.hits > hitsDriveLimit && last.hits ** 2 > factor * (page.offset + page.limit) * last.listed;
}

function rememberCounts(key: string, hits: number, listed: number): void {
  lastCounts.delete(key);
  if (lastCounts.size >= LAST_COUNTS_MAX) lastCounts.delete(lastCounts.keys().next().value!);
  lastCounts.set(key, { hits, listed });
}

/** `status` is that of a listed row of the table (LISTED_ROWS), in the table or in record_counts. */
function listedStatus(table: SearchedTable): RawBuilder<boolean> {
  const { equals, status } = LISTED_ROWS[table];
  return sql<boolean>`status ${sql.raw(equals ? '=' : '!=')} ${status}`;
}

/** The listed rows of the team, as record_counts counts them, as a scalar subquery. */
function listedRowsCount(table: SearchedTable, teamId: string): RawBuilder<number> {
  return sql<number>`(select coalesce(sum(n), 0) from record_counts where team_id = ${teamId} and resource = ${table} and ${listedStatus(table)})`;
}

/**
 * `search_text` holds one of the folded phrases, checked on each row with `fn` (SQLite `instr`,
 * PostgreSQL `strpos`): exactly the LIKE's rows (both sides are the folded text), and no index serves it,
 * so the sort's index is walked.
 */
function rowTextContains(table: SearchedTable, folded: string[], fn: 'instr' | 'strpos'): RawBuilder<boolean> {
  const text = sql.ref(`${table}.search_text`);
  return sql<boolean>`(${sql.join(
    folded.map((q) => sql`${sql.raw(fn)}(${text}, ${q}) > 0`),
    sql` or `,
  )})`;
}

/**
 * PostgreSQL: walk the sort's index when the walk's rows ((offset + limit) × listed rows / hits) are
 * fewer than the hits. Each hit the trigram index gives is fetched and re-checked in the heap, as a
 * walked row is, and then joined and sorted.
 */
const PG_DENSE_FACTOR = 1;

/**
 * PostgreSQL, a search of the listed rows with no other filter, in created_at order (an index of the
 * team's rows in that order on every table), before the deep pages: the page and its exact count run
 * together, as for any list, and the count brings the team's listed rows beside it. When this process
 * last counted the same search dense for the page wanted (PG_DENSE_FACTOR), the page is read by walking
 * the sort's index with each row checked by `strpos(search_text, q) > 0`, which the trigram index cannot
 * serve: exactly the LIKE's rows (both sides are the folded text), and the planner can only walk.
 * Left to itself it read the trigram index's hits, joined every one and sorted them: its estimate of a
 * trigram match is far too low for a common word in a large team (85 rows for 9,385 `blindado` hits
 * at 1,000,000 deals: 70 ms for a page a walk of 2,100 rows reads in about 2).
 */
export async function pgListedSearchPage<TB extends keyof Database, R>(
  db: DbExecutor,
  table: SearchedTable,
  queries: string[],
  teamId: string,
  page: { offset: number; limit: number },
  hitsDriveLimit: number,
  pageQuery: (searched: RawBuilder<boolean>) => SelectQueryBuilder<Database, TB, R>,
): Promise<{ rows: R[]; total: number }> {
  const folded = [...new Set(queries.map(foldText))];
  const key = countsKey(table, teamId, folded);
  const indexed = searchCondition('postgres', table, folded, teamId, 'listed');
  const searched = lastCountedDense(key, page, hitsDriveLimit, PG_DENSE_FACTOR) ? rowTextContains(table, folded, 'strpos') : indexed;
  const count = sql<{ hits: number | string; listed: number | string }>`select count(*) as hits, ${listedRowsCount(table, teamId)} as listed
    from ${sql.table(table)} where team_id = ${teamId} and ${listedStatus(table)} and ${indexed}`;
  const [rows, counted] = await Promise.all([pageQuery(searched).limit(page.limit).offset(page.offset).execute(), count.execute(db)]);
  const hits = Number(counted.rows[0]!.hits);
  rememberCounts(key, hits, Number(counted.rows[0]!.listed));
  return { rows, total: hits };
}

/**
 * SQLite, a search of the listed rows with no other filter (the total is the index's count alone): the
 * page and its exact total in ONE statement, of one of two shapes.
 * - Usually (`listed_hits`): the FTS hits are read once into a materialized list, counted from it, and
 *   the page read one of two ways, as a UNION ALL of two branches of which only one returns rows (a
 *   branch's LIMIT is 0 when it is not the one: SQLite then skips it before reading a row): from the
 *   hits, sorted, when they are few for the page wanted (searchHitsDrivePage's rule); else walking the
 *   sort's index, each entry checked against the list, stopping once the page is full.
 * - When this process last counted the same search dense (DENSE_FACTOR) for the page wanted: the count
 *   alone from the FTS index (one row) and a walk of the sort's index with each row checked for the text
 *   itself (`instr(search_text, q) > 0`, exactly the phrase's rows: both are the folded text). Building
 *   and indexing the list of 65,000 hits of a common surname at 1,000,000 clients cost as much as the
 *   count (issue 15: 37 → 24.5 ms of CPU).
 * Both statements return the listed rows' count too, so each page updates the choice for the next.
 * LIMIT and OFFSET are constants in the SQL: bound, they make SQLite (3.53) prepare the statement again
 * at every run. A page past the end has no row to carry the total: it is counted then as before.
 */
export async function listedSearchPage<TB extends keyof Database, R>(
  db: DbExecutor,
  table: SearchedTable,
  queries: string[],
  teamId: string,
  page: { offset: number; limit: number },
  hitsDriveLimit: number,
  pageQuery: (fromHits: boolean, searched: RawBuilder<boolean>) => SelectQueryBuilder<Database, TB, R>,
): Promise<{ rows: Array<R & { list_total: number }>; total: number }> {
  const folded = [...new Set(queries.map(foldText))];
  const match = ftsMatch(table, folded, teamId, 'listed');
  const fts = sql.table(`${table}_fts`);
  const listed = sql`listed_rows as materialized (select ${listedRowsCount(table, teamId)} as n)`;
  const paged = (query: SelectQueryBuilder<Database, TB, R>, limit: RawBuilder<number> | number) =>
    sql`select p.*, (select n from hit_count) as list_total, (select n from listed_rows) as listed_total from (${query
      .limit(typeof limit === 'number' ? sql.lit(limit) : limit)
      .offset(sql.lit(page.offset))}) p`;
  const key = countsKey(table, teamId, folded);
  let statement;
  if (lastCountedDense(key, page, hitsDriveLimit, DENSE_FACTOR)) {
    statement = sql`with hit_count as materialized (select count(*) as n from ${fts} where ${match}), ${listed}
      ${paged(pageQuery(false, rowTextContains(table, folded, 'instr')), page.limit)}`;
  } else {
    const hits = sql<boolean>`${sql.ref(`${table}.rowid`)} in (select r from search_hits)`;
    const few = sql`(select n from hit_count) <= ${sql.lit(hitsDriveLimit)}`;
    const limitWhen = (when: RawBuilder<unknown>) => sql<number>`case when ${when} then ${sql.lit(page.limit)} else 0 end`;
    statement = sql`with search_hits as materialized (select rowid as r from ${fts} where ${match}),
        hit_count as materialized (select count(*) as n from search_hits), ${listed}
      ${paged(pageQuery(false, hits), limitWhen(sql`not ${few}`))}
      union all
      ${paged(pageQuery(true, hits), limitWhen(few))}`;
  }
  const { rows } = await statement.execute(db);
  const answered = rows as Array<R & { list_total: number; listed_total: number }>;
  if (answered.length === 0) return { rows: [], total: await countListedSearchHits(db, table, queries, teamId) };
  rememberCounts(key, Number(answered[0]!.list_total), Number(answered[0]!.listed_total));
  return { rows: answered.map(({ listed_total: _, ...row }) => row as unknown as R & { list_total: number }), total: Number(answered[0]!.list_total) };
}

/** The phrases in search_text, ANDed by FTS5 with the team's token in the scope's column (one doclist). */
function ftsMatch(table: SearchedTable, folded: string[], teamId: string, scope: SearchScope): RawBuilder<boolean> {
  const column = (name: string) => sql.ref(`${table}_fts.${name}`);
  const phrases = folded.map((q) => `"${q.replace(/"/g, '""')}"`).join(' OR ');
  return sql<boolean>`${column('search_text')} match ${phrases}
    and ${column(`${scope}_scope`)} match (select token from search_scopes where team_id = ${teamId})`;
}

/** One way to the candidates of an exact search: a condition, and the index that serves it (named: SQLite has no statistics to prefer it by). */
export interface KeyedLookup {
  where: RawBuilder<boolean>;
  index: string;
}

/**
 * SQLite, a search by a full key (a CPF or CNPJ; storage/exact-search.ts): the same rows as
 * searchCondition, found from equality indexes. `keyed` selects the team's rows whose own key can hold
 * the query; the rows flagged by `flagged` (a partial index's predicate, repeated verbatim) are the
 * only others that can match. Every candidate is then checked for the query's text, so the answer is
 * exactly the LIKE's.
 */
export function exactSearchCondition(table: 'clients', queries: string[], teamId: string, keyed: KeyedLookup[], flagged: KeyedLookup): RawBuilder<boolean> {
  const folded = [...new Set(queries.map(foldText))];
  const selects = [...keyed, flagged].map(
    ({ where, index }) => sql`select rowid from ${sql.table(table)} indexed by ${sql.id(index)} where team_id = ${teamId} and ${where}`,
  );
  const contains = folded.map((q) => containsCheck(table, q));
  return sql<boolean>`${sql.ref(`${table}.rowid`)} in (${sql.join(selects, sql` union all `)}) and (${sql.join(contains, sql` or `)})`;
}

/**
 * `search_text` contains `q` (folded), as the LIKE of searchCondition. A query of digits and tax-number
 * punctuation is checked with instr(), which answers the same (no case, no wildcard to tell apart): a
 * LIKE with a bound pattern makes SQLite prepare the statement again at every run (it weighs its LIKE
 * optimization against the value), about 0.7 ms for this statement.
 */
function containsCheck(table: 'clients', q: string): RawBuilder<boolean> {
  const text = sql.ref(`${table}.search_text`);
  if (/^[0-9./-]+$/.test(q)) return sql<boolean>`instr(${text}, ${q}) > 0`;
  return sql<boolean>`${text} like ${containsPattern(q)} escape '\\'`;
}
