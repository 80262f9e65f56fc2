import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * Before a migration fills counters from a table and then adds the triggers that keep them: on
 * PostgreSQL, lock the table against writes until the migration commits (Kysely runs each migration
 * in one transaction there). The lock waits for writes already in flight (another server during a
 * rolling deploy), so the fill sees them committed; and no write lands between the fill and the
 * triggers, where it would be counted nowhere for ever. Reads go on. SQLite needs nothing: the
 * migration holds the database's only write lock from its first statement.
 */
export async function lockAgainstWrites(db: Kysely<unknown>, dialect: DialectName, table: string): Promise<void> {
  if (dialect === 'postgres') await sql`lock table ${sql.table(table)} in share row exclusive mode`.execute(db);
}
