import { PostgresAdapter, sql, type ColumnDataType, type Expression, type Kysely } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/**
 * The few places where SQLite and PostgreSQL differ. Everything else in the
 * migrations and repositories is portable SQL built by Kysely.
 */
export interface DialectTypes {
  uuid: ColumnDataType;
  timestamp: ColumnDataType;
  boolean: ColumnDataType;
  /** Text compared byte-wise, so sorts agree between the two databases. */
  sortKey: ColumnDataType | Expression<unknown>;
}

export function dialectTypes(dialect: DialectName): DialectTypes {
  if (dialect === 'postgres') {
    return { uuid: 'uuid', timestamp: 'timestamptz', boolean: 'boolean', sortKey: sql`text collate "C"` };
  }
  return { uuid: 'text', timestamp: 'text', boolean: 'integer', sortKey: 'text' };
}

/** Anything that runs statements: a Kysely of any schema, or one of its transactions. */
type Executing = Pick<Kysely<unknown>, 'getExecutor'>;

/**
 * The database an executor (the database, a transaction, the read workers) runs on. Repositories
 * choose their per-database statement with it (a row lock, a one-statement create), so no service
 * ever does. The adapter is shared, not built per call.
 */
export function dialectOf(executor: Executing): DialectName {
  return executor.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * Whether a transaction locks the rows it reads to change (`FOR UPDATE`): PostgreSQL runs
 * transactions at once, so a writer must; SQLite runs one write transaction at a time.
 */
export const locksRows = (executor: Executing): boolean => dialectOf(executor) === 'postgres';
