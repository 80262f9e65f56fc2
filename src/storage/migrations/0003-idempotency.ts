import type { Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect.js';

/** First responses of POSTs sent with an Idempotency-Key, per team and key, kept 24 hours. */
export function idempotency(dialect: DialectName) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('team_id', t.uuid, (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('response_body', 'text')
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['team_id', 'key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').columns(['created_at']).execute();
    },
  };
}
