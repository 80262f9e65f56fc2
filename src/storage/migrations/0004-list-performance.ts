import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { createCountTriggers } from './list-performance/record-counts.js';
import { createSearchIndexes } from './list-performance/search-indexes.js';

/** Deal indexes replaced: a status-led index cannot serve the default list (status != 'arquivado') in date order. */
const DROPPED_DEAL_INDEXES = [
  'deals_team_status_updated_idx',
  'deals_team_status_value_idx',
  'deals_team_status_close_idx',
  'deals_team_status_title_idx',
  'deals_team_status_probability_idx',
  'deals_team_status_priority_idx',
  'deals_team_phase_idx',
];

/**
 * Lists and searches that stay fast at 100,000+ records per team (issue 6):
 * - indexes led by (team_id, <sort column>) for the default and the common sorts, so a page is read in
 *   order and stops after `limit` rows; the status goes last in the date index so a default list page
 *   and its offset walk need no table access;
 * - exact totals of unfiltered lists from per-status counters kept by triggers (record_counts);
 * - text search through trigram indexes (FTS5 on SQLite, pg_trgm GIN on PostgreSQL).
 * On PostgreSQL the nullable sort column `value_cents` is indexed DESC NULLS LAST, the order of `sort=-value`.
 */
export function listPerformance(dialect: DialectName) {
  const valueDesc = dialect === 'postgres' ? sql`value_cents desc nulls last, id desc` : sql`value_cents, id`;
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const name of DROPPED_DEAL_INDEXES) await db.schema.dropIndex(name).execute();
      const indexes = [
        sql`create index deals_team_created_idx on deals (team_id, created_at, id, status)`,
        sql`create index deals_team_updated_idx on deals (team_id, updated_at, id)`,
        sql`create index deals_team_value_idx on deals (team_id, ${valueDesc})`,
        sql`create index deals_team_close_idx on deals (team_id, expected_close_date, id)`,
        // status last: the count of a phase filter (with or without a value range) reads the index alone.
        sql`create index deals_team_phase_value_idx on deals (team_id, phase, ${valueDesc}, status)`,
      ];
      for (const statement of indexes) await statement.execute(db);
      await createCountTriggers(db, dialect);
      await createSearchIndexes(db, dialect);
    },
  };
}
