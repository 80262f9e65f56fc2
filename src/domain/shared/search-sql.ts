import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from '../../storage/dialect.js';
import { containsPattern, foldText, sqliteIndexServes } from './text-search.js';

/**
 * `search_text` of `table` contains one of the `queries` (folded). PostgreSQL's planner serves the
 * LIKE from the pg_trgm GIN index itself. On SQLite the FTS5 trigram table answers a quoted phrase,
 * which matches exactly the rows whose text contains it (consecutive trigrams), with no re-check of
 * the text; queries shorter than a trigram scan the team's rows with LIKE.
 */
export function searchCondition(dialect: DialectName, table: 'deals' | 'clients' | 'vehicles', queries: string[]): RawBuilder<boolean> {
  const folded = [...new Set(queries.map(foldText))];
  if (dialect !== 'sqlite' || !sqliteIndexServes(folded)) {
    const likes = folded.map((q) => sql`${sql.ref(`${table}.search_text`)} like ${containsPattern(q)} escape '\\'`);
    return sql<boolean>`(${sql.join(likes, sql` or `)})`;
  }
  const fts = sql.table(`${table}_fts`);
  const phrases = folded.map((q) => `"${q.replace(/"/g, '""')}"`).join(' OR ');
  return sql<boolean>`${sql.ref(`${table}.rowid`)} in (select rowid from ${fts} where ${fts} match ${phrases})`;
}
