import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { createSqliteTeamSearch } from './team-search/sqlite-team-search.js';
import { extensionSchema } from './team-search/pg-extension.js';

/** The searched tables (search= on deals, clients and vehicles). */
const TABLES = ['deals', 'clients', 'vehicles'] as const;

/**
 * Searches restricted to one team inside the index (issue 15), so a search no longer looks up the
 * row of every hit of every team to check its team and status:
 * - SQLite: each `<table>_fts` becomes a contentless FTS5 table that also indexes two one-token
 *   columns, the team's token (`team_scope`) and, for the rows a default list shows, the same token
 *   again (`listed_scope`). `search_scopes` gives every team its token. A default-list search is
 *   then answered, count included, by the FTS index alone (see team-search/sqlite-team-search.ts).
 * - PostgreSQL: the pg_trgm GIN index on search_text is replaced by one on (team_id, search_text)
 *   (btree_gin), so the bitmap holds only the team's hits instead of being ANDed with the team's
 *   100,000-entry bitmap and checked row by row. Without btree_gin (no privilege) the old index stays.
 */
export function teamSearch(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'sqlite') {
        await createSqliteTeamSearch(db, TABLES);
        return;
      }
      const trgm = await extensionSchema(db, 'pg_trgm');
      if (!trgm || !(await extensionSchema(db, 'btree_gin'))) return;
      for (const table of TABLES) {
        await sql`drop index if exists ${sql.id(`${table}_search_trgm_idx`)}`.execute(db);
        await sql`create index ${sql.id(`${table}_team_search_idx`)} on ${sql.table(table)}
          using gin (team_id, search_text ${sql.id(trgm)}.gin_trgm_ops)`.execute(db);
      }
    },
  };
}
