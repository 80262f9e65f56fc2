import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './database.js';
import type { DialectName } from './dialect.js';

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  /** Checks that the database answers (used by GET /ready). */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL pool usage, for metrics (SQLite has one connection and no pool: absent). */
  poolStats?(): PoolStats;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export interface DbOptions {
  poolMax?: number;
}

export function parseDatabaseUrl(url: string): { dialect: 'sqlite'; path: string } | { dialect: 'postgres'; url: string } {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (!path) throw new Error("DATABASE_URL 'sqlite:' precisa de um caminho, por exemplo sqlite:./data/autosales.db ou sqlite::memory:");
    return { dialect: 'sqlite', path };
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return { dialect: 'postgres', url };
  throw new Error(`DATABASE_URL inválida: use sqlite:<caminho> ou postgres://… (recebido '${url.split(':')[0]}:…')`);
}

// int8 (counts, money in cents) as JS numbers: every value we store is far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function createDb(url: string, options: DbOptions = {}): Db {
  const target = parseDatabaseUrl(url);
  if (target.dialect === 'sqlite') {
    if (target.path !== ':memory:') mkdirSync(dirname(target.path), { recursive: true });
    const database = new SqliteDatabase(target.path);
    database.pragma('journal_mode = WAL');
    // NORMAL in WAL mode keeps every committed transaction across a killed process (only an OS crash can lose the last ones).
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
    database.pragma('busy_timeout = 5000');
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
    return {
      kysely,
      dialect: 'sqlite',
      ping: async () => {
        await sql`select 1`.execute(kysely);
      },
      close: () => kysely.destroy(),
    };
  }
  const pool = new pg.Pool({ connectionString: target.url, max: options.poolMax ?? 10 });
  // An idle client losing its connection must not take the process down; the next query reconnects.
  pool.on('error', () => undefined);
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    kysely,
    dialect: 'postgres',
    ping: async () => {
      await sql`select 1`.execute(kysely);
    },
    close: () => kysely.destroy(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 }),
  };
}
