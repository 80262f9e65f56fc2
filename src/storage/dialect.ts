import { sql, type ColumnDataType, type Expression } from 'kysely';

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
