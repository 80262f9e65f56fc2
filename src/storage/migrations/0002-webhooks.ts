import type { Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect.js';

/** Transactional outbox (events), webhook configuration, one delivery per (event, webhook), and the attempt log. */
export function webhooks(dialect: DialectName) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', t.uuid, (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('object', 'text', (c) => c.notNull())
        .addColumn('previous_attributes', 'text')
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('events_team_created_idx').on('events').columns(['team_id', 'created_at', 'id']).execute();

      await db.schema
        .createTable('webhooks')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('team_id', t.uuid, (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('disabled_reason', 'text')
        .addColumn('disabled_at', t.timestamp)
        .addColumn('last_success_at', t.timestamp)
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhooks_team_idx').on('webhooks').columns(['team_id', 'status']).execute();

      await db.schema
        .createTable('deliveries')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('team_id', t.uuid, (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('webhook_id', t.uuid, (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', t.timestamp)
        .addColumn('lease_until', t.timestamp)
        .addColumn('lease_token', 'text')
        .addColumn('body', 'text')
        .addColumn('first_attempt_at', t.timestamp)
        .addColumn('last_attempt_at', t.timestamp)
        .addColumn('completed_at', t.timestamp)
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addUniqueConstraint('deliveries_webhook_event_uq', ['webhook_id', 'event_id'])
        .execute();
      // The worker's claim query: due pending deliveries, oldest first.
      await db.schema.createIndex('deliveries_due_idx').on('deliveries').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('deliveries_event_idx').on('deliveries').columns(['event_id']).execute();

      await db.schema
        .createTable('delivery_attempts')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('delivery_id', t.uuid, (c) => c.notNull().references('deliveries.id').onDelete('cascade'))
        .addColumn('webhook_id', t.uuid, (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('attempted_at', t.timestamp, (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('error_class', 'text')
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('response_body', 'text')
        .addColumn('next_attempt_at', t.timestamp)
        .execute();
      await db.schema.createIndex('delivery_attempts_webhook_idx').on('delivery_attempts').columns(['webhook_id', 'attempted_at', 'id']).execute();
    },
  };
}
