import type { Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect.js';

/**
 * The product panel's people: users of a team, their server-side sessions (only a hash of the
 * cookie's token is stored), one-time password links (hashed too), and what the panel's Settings
 * show beside the existing records: a webhook's description and an API key's last use.
 */
export function usersSessions(dialect: DialectName) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('users')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('team_id', t.uuid, (c) => c.notNull().references('teams.id').onDelete('cascade'))
        // Stored lower-cased and trimmed: one account per address whatever its spelling.
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        // scrypt, self-describing (`scrypt$N$r$p$salt$hash`); null until the user sets a password.
        .addColumn('password_hash', 'text')
        .addColumn('password_changed_at', t.timestamp)
        .addColumn('deactivated_at', t.timestamp)
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('users_team_idx').on('users').columns(['team_id', 'created_at']).execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        // SHA-256 of the cookie's 256-bit token, hex: a database leak gives no usable cookie.
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('last_seen_at', t.timestamp, (c) => c.notNull())
        // Absolute expiry; the idle one is last_seen_at + the idle timeout.
        .addColumn('expires_at', t.timestamp, (c) => c.notNull())
        // The session's CSRF secret (@fastify/csrf-protection derives and checks the tokens from it).
        .addColumn('csrf_secret', 'text', (c) => c.notNull())
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .execute();
      await db.schema.createIndex('sessions_user_idx').on('sessions').columns(['user_id']).execute();
      await db.schema.createIndex('sessions_expires_idx').on('sessions').columns(['expires_at']).execute();

      await db.schema
        .createTable('password_links')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('expires_at', t.timestamp, (c) => c.notNull())
        .addColumn('used_at', t.timestamp)
        .execute();
      await db.schema.createIndex('password_links_user_idx').on('password_links').columns(['user_id']).execute();

      // Test events sent from the panel ("send test event"): addressed to one webhook only, so that
      // a resend to every webhook or another webhook's recovery never sends them.
      await db.schema
        .createTable('webhook_test_events')
        .addColumn('event_id', 'text', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
        .addColumn('webhook_id', t.uuid, (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
        .execute();

      await db.schema.alterTable('webhooks').addColumn('description', 'text').execute();
      await db.schema.alterTable('api_keys').addColumn('last_used_at', t.timestamp).execute();
    },
  };
}
