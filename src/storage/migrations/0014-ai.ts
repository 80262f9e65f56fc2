import type { Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect.js';

/**
 * Issue 28: each team's win-probability model, and on every deal the probability and summary it is
 * served from (kept fresh in the row, so reading a deal costs what it did). `phase_changed_at`: when
 * the deal entered its phase (the summary's "há N dias" and a feature); null on deals written before
 * this migration until the first refresh derives it from their events.
 */
export function ai(dialect: DialectName) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('ai_models')
        .addColumn('team_id', t.uuid, (c) => c.primaryKey().references('teams.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('trained_at', t.timestamp)
        .addColumn('closed_deals', 'integer', (c) => c.notNull())
        .addColumn('training_rows', 'integer', (c) => c.notNull())
        .addColumn('training_ms', 'integer', (c) => c.notNull())
        .addColumn('used', 'text', (c) => c.notNull())
        .addColumn('model', 'text')
        .addColumn('metrics', 'text')
        .addColumn('lease_until', t.timestamp)
        .addColumn('lease_token', 'text')
        .execute();
      await db.schema.alterTable('deals').addColumn('ai_win_probability', 'integer').execute();
      await db.schema.alterTable('deals').addColumn('ai_summary', 'text').execute();
      await db.schema.alterTable('deals').addColumn('phase_changed_at', t.timestamp).execute();
    },
  };
}
