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
