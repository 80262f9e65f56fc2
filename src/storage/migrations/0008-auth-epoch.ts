import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/** The PostgreSQL channel a revocation (or any change to what a key may do) is announced on. */
export const AUTH_CHANGES_CHANNEL = 'autosales_auth';

/**
 * auth_epoch (issue 15): one row whose counter goes up, in the writing transaction, whenever
 * something a cached authentication depends on changes: a key revoked, deleted or re-scoped, a
 * team's plan changed or a team deleted. Creating a key changes nothing cached (an unknown key is
 * never cached as valid), and `last_used_at` is not watched. On PostgreSQL the same triggers NOTIFY
 * `autosales_auth`, delivered to every listening server process at commit.
 *
 * Triggers, not the services, keep it: whoever writes (the API, the CLI, the panel, a script in
 * another process) moves the counter.
 */
export function authEpoch(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('auth_epoch')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('n', 'bigint', (c) => c.notNull())
        .execute();
      await sql`insert into auth_epoch (id, n) values (1, 1)`.execute(db);
      if (dialect === 'postgres') {
        await sql`create function auth_epoch_bump() returns trigger language plpgsql as $$
          begin
            update auth_epoch set n = n + 1 where id = 1;
            perform pg_notify(${sql.lit(AUTH_CHANGES_CHANNEL)}, '');
            return null;
          end
        $$`.execute(db);
        await sql`create trigger api_keys_auth_epoch after update of revoked_at, scopes, key_hash, team_id or delete on api_keys
          for each statement execute function auth_epoch_bump()`.execute(db);
        await sql`create trigger teams_auth_epoch after update of plan or delete on teams
          for each statement execute function auth_epoch_bump()`.execute(db);
        return;
      }
      const bump = sql`update auth_epoch set n = n + 1 where id = 1;`;
      await sql`create trigger api_keys_auth_epoch_update after update of revoked_at, scopes, key_hash, team_id on api_keys begin ${bump} end`.execute(db);
      await sql`create trigger api_keys_auth_epoch_delete after delete on api_keys begin ${bump} end`.execute(db);
      await sql`create trigger teams_auth_epoch_update after update of plan on teams begin ${bump} end`.execute(db);
      await sql`create trigger teams_auth_epoch_delete after delete on teams begin ${bump} end`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'postgres') {
        await sql`drop trigger if exists api_keys_auth_epoch on api_keys`.execute(db);
        await sql`drop trigger if exists teams_auth_epoch on teams`.execute(db);
        await sql`drop function if exists auth_epoch_bump()`.execute(db);
      } else {
        for (const name of ['api_keys_auth_epoch_update', 'api_keys_auth_epoch_delete', 'teams_auth_epoch_update', 'teams_auth_epoch_delete']) {
          await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
        }
      }
      await db.schema.dropTable('auth_epoch').execute();
    },
  };
}
