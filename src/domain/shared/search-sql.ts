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

/** The rows a listed search shows (the description's listed rule, reads/resource.ts), as record_counts counts them. */
export interface ListedStatus {
  equals: boolean;
  status: string;
}

/**
 * A listed search is read by walking the sort's index checking each row's text (no list of hits) when
 * its hits are this dense: hits² > DENSE_FACTOR × (offset + limit) × listed rows, i.e. the walk's rows
 * ((offset + limit) × listed rows / hits) are fewer than a fifth of the hits. Reading a row and its text
 * costs about five times what putting one hit in the materialized list does (measured at 100,000 and
 * 1,000,000 records).
 */
const DENSE_FACTOR = 5;

/**
 * PostgreSQL: walk the sort's index when the walk's rows ((offset + limit) × listed rows / hits) are
 * fewer than the hits. Each hit the trigram index gives is fetched and re-checked in the heap, as a
 * walked row is, and then joined and sorted.
 */
const PG_DENSE_FACTOR = 1;

/** `status` is that of a listed row (in the table or in record_counts). */
function listedStatus(listed: ListedStatus): RawBuilder<boolean> {
  return sql<boolean>`status ${sql.raw(listed.equals ? '=' : '!=')} ${listed.status}`;
}

/** The listed rows of the team, as record_counts counts them, as a scalar subquery. */
function listedRowsCount(table: SearchedTable, teamId: string, listed: ListedStatus): RawBuilder<number> {
  return sql<number>`(select coalesce(sum(n), 0) from record_counts where team_id = ${teamId} and resource = ${table} and ${listedStatus(listed)})`;
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
 * Which way a listed search reads its page, decided inside its statement from the counts it reads
 * there (the search's hits, the team's listed rows), so the choice depends on the data alone, never on
 * earlier requests: `dense` (hits > the hits drive and hits² > factor × (offset + limit) × listed rows):
 * walk the sort's index checking each row's text; `few` (hits ≤ the hits drive): read the hits and sort
 * them; else walk the sort's index checking each row against the list of hits. Each branch's LIMIT is 0
 * unless it is the one: both databases then skip it before reading a row (and a list of hits no running
 * branch reads is never built).
 */
function branchLimits(page: { offset: number; limit: number }, hitsDriveLimit: number, factor: number) {
  const hits = sql`(select n from hit_count)`;
  const dense = sql`${hits} > ${sql.lit(hitsDriveLimit)} and ${hits} * ${hits} > ${sql.lit(factor * (page.offset + page.limit))} * (select n from listed_rows)`;
  const few = sql`${hits} <= ${sql.lit(hitsDriveLimit)}`;
  const when = (condition: RawBuilder<unknown>) => sql<number>`case when ${condition} then ${sql.lit(page.limit)} else 0 end`;
  return { dense: when(dense), notDense: when(sql`not (${dense})`), few: when(few), neither: when(sql`not (${few}) and not (${dense})`) };
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

/** PostgreSQL, the same total: the listed rows whose text holds a phrase (the trigram index). */
async function pgCountListedSearchHits(db: DbExecutor, table: SearchedTable, listed: ListedStatus, folded: string[], teamId: string): Promise<number> {
  const { rows } = await sql<{ total: number | string }>`select count(*) as total from ${sql.table(table)}
    where team_id = ${teamId} and ${listedStatus(listed)} and ${containsCondition(table, folded)}`.execute(db);
  return Number(rows[0]?.total ?? 0);
}

/**
 * A search of the listed rows with no other filter, before the deep pages: the page and its exact
 * total in ONE statement, its way of reading chosen inside it by the counts it reads first
 * (branchLimits).
 * - SQLite: the hits counted from the FTS index (`hit_count`, no row read); the list of hits
 *   (`search_hits`) is built only by the branches that read it. Building and indexing the list of
 *   65,000 hits of a common surname at 1,000,000 clients cost as much as the count (issue 15), which
 *   the dense walk spares (`instr(search_text, q) > 0`, exactly the phrase's rows: both are the folded
 *   text). LIMIT and OFFSET are constants in the SQL: bound, they make SQLite (3.53) prepare the
 *   statement again at every run.
 * - PostgreSQL, in created_at order (an index of the team's rows in that order on every table): the
 *   hits' ids from the (team_id, search_text) trigram index, counted; a dense search walks the date
 *   index checking `strpos(search_text, q) > 0`, which the trigram index cannot serve. Left to itself
 *   the planner read every hit, joined them and sorted them: its estimate of a trigram match is far too
 *   low for a common word in a large team (85 rows for 9,385 `blindado` hits at 1,000,000 deals: 70 ms
 *   for a page a walk of 2,100 rows reads in about 2).
 * A page past the end has no row to carry the total: it is counted then.
 */
export async function listedSearchPage<TB extends keyof Database, R>(
  db: DbExecutor,
  dialect: DialectName,
  table: SearchedTable,
  listed: ListedStatus,
  queries: string[],
  teamId: string,
  page: { offset: number; limit: number },
  hitsDriveLimit: number,
  pageQuery: (fromHits: boolean, searched: RawBuilder<boolean>) => SelectQueryBuilder<Database, TB, R>,
): Promise<{ rows: R[]; total: number }> {
  const folded = [...new Set(queries.map(foldText))];
  const sqlite = dialect === 'sqlite';
  const listedRows = sql`listed_rows as materialized (select ${listedRowsCount(table, teamId, listed)} as n)`;
  const paged = (query: SelectQueryBuilder<Database, TB, R>, limit: RawBuilder<number>) =>
    sql`select p.*, (select n from hit_count) as list_total from (${query.limit(limit).offset(sql.lit(page.offset))}) p`;
  const hits = sql<boolean>`${sql.ref(`${table}.${sqlite ? 'rowid' : 'id'}`)} in (select r from search_hits)`;
  const limits = branchLimits(page, hitsDriveLimit, sqlite ? DENSE_FACTOR : PG_DENSE_FACTOR);
  const walk = paged(pageQuery(false, rowTextContains(table, folded, sqlite ? 'instr' : 'strpos')), limits.dense);
  let statement;
  if (sqlite) {
    const fts = sql.table(`${table}_fts`);
    const match = ftsMatch(table, folded, teamId, 'listed');
    statement = sql`with hit_count as materialized (select count(*) as n from ${fts} where ${match}),
        search_hits as materialized (select rowid as r from ${fts} where ${match}), ${listedRows}
      ${walk}
      union all
      ${paged(pageQuery(false, hits), limits.neither)}
      union all
      ${paged(pageQuery(true, hits), limits.few)}`;
  } else {
    statement = sql`with search_hits as materialized (select id as r from ${sql.table(table)}
          where team_id = ${teamId} and ${listedStatus(listed)} and ${containsCondition(table, folded)}),
        hit_count as materialized (select count(*) as n from search_hits), ${listedRows}
      ${walk}
      union all
      ${paged(pageQuery(false, hits), limits.notDense)}`;
  }
  const { rows } = await statement.execute(db);
  const answered = rows as Array<R & { list_total: number | string }>;
  if (answered.length === 0) {
    const total = sqlite ? await countListedSearchHits(db, table, folded, teamId) : await pgCountListedSearchHits(db, table, listed, folded, teamId);
    return { rows: [], total };
  }
  return { rows: answered.map(({ list_total: _, ...row }) => row as unknown as R), total: Number(answered[0]!.list_total) };
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
