import { sql, type Kysely } from 'kysely';

/**
 * The schema holding a PostgreSQL extension, creating it (in `public` when we may, else in the
 * current schema) if it is missing; null when it cannot be had (no privilege, not installed on the
 * server). Extensions are per database, so another migration running at the same time (another
 * schema of the same database) may create it first: the lookup after a failed CREATE finds it then.
 */
export async function extensionSchema(db: Kysely<unknown>, name: 'pg_trgm' | 'btree_gin'): Promise<string | null> {
  const installed = async () =>
    (
      await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
      where e.extname = ${name}`.execute(db)
    ).rows[0]?.schema ?? null;
  const found = await installed();
  if (found) return found;
  const { rows } = await sql<{ target: string }>`select coalesce(
      (select nspname from pg_namespace where nspname = 'public' and has_schema_privilege(oid, 'CREATE')),
      current_schema()) as target`.execute(db);
  // The migration runs in a transaction: a savepoint keeps a refused CREATE EXTENSION from aborting it.
  await sql`savepoint extension_setup`.execute(db);
  try {
    await sql`create extension if not exists ${sql.id(name)} with schema ${sql.id(rows[0]!.target)}`.execute(db);
    await sql`release savepoint extension_setup`.execute(db);
  } catch {
    await sql`rollback to savepoint extension_setup`.execute(db);
  }
  return installed();
}
