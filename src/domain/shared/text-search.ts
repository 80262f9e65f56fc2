import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from '../../storage/dialect.js';

/** Lower case without accents: `João` and `JOAO` both become `joao`, on SQLite and PostgreSQL alike. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The stored search column: folded parts joined by a separator no query can span. */
export function searchDocument(parts: Array<string | null | undefined>): string {
  return parts
    .filter((p): p is string => typeof p === 'string' && p.length > 0)
    .map(foldText)
    .join('\u0001');
}

/** A LIKE pattern matching the folded query anywhere; `%`, `_` and `\` in the query are literal. */
export function containsPattern(query: string): string {
  return `%${foldText(query).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** SQLite's FTS5 trigram index answers queries of three characters or more (a phrase of trigrams). */
export const sqliteIndexServes = (queries: string[]): boolean => queries.every((q) => [...foldText(q)].length >= 3);

/**
 * `search_text` of `table` contains one of the `queries` (folded). PostgreSQL's planner serves the
 * LIKE from the pg_trgm GIN index itself. On SQLite the FTS5 trigram table answers a quoted phrase,
 * which matches exactly the rows whose text contains it (consecutive trigrams), with no re-check of
 * the text; queries shorter than a trigram scan the team's rows with LIKE.
 */
export function searchCondition(dialect: DialectName, table: 'deals' | 'clients', queries: string[]): RawBuilder<boolean> {
  const folded = [...new Set(queries.map(foldText))];
  if (dialect !== 'sqlite' || !sqliteIndexServes(folded)) {
    const likes = folded.map((q) => sql`${sql.ref(`${table}.search_text`)} like ${containsPattern(q)} escape '\\'`);
    return sql<boolean>`(${sql.join(likes, sql` or `)})`;
  }
  const fts = sql.table(`${table}_fts`);
  const phrases = folded.map((q) => `"${q.replace(/"/g, '""')}"`).join(' OR ');
  return sql<boolean>`${sql.ref(`${table}.rowid`)} in (select rowid from ${fts} where ${fts} match ${phrases})`;
}
