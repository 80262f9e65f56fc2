import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  sql,
  type PostgresCursor,
  type PostgresPool,
  type PostgresQueryResult,
  type SqliteDatabase as SqliteHandle,
} from 'kysely';
import pg from 'pg';
import { preparedStatementName } from './compiled-query.js';
import { GroupCommitDriver, type GroupCommitStats } from './group-commit.js';
import { SqliteDialectWith } from './sqlite-dialect.js';
import { SAFETY_NET_PAGES, startBackgroundCheckpointer, type BackgroundCheckpointer, type CheckpointResult } from './checkpointer.js';
import { postgresAuthChanges, sqliteAuthChanges, type AuthChanges } from './auth-changes.js';
import { sqliteReadConnection, type CommittedReader } from './committed-reader.js';
import { readWorkersKysely, startReadWorkers, type ReadWorkers, type ReadWorkerStats } from './read-workers.js';
import type { Database } from './database.js';
import type { DialectName } from './dialect.js';

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  /** Checks that the database answers (used by GET /ready). */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Whether a cached authentication is still good, without a round trip (storage/auth-changes.ts). */
  authChanges: AuthChanges;
  /**
   * SQLite on a file: a read-only connection of its own that only sees committed state, for reads
   * that return the auth_epoch counter with their record (GET by id; storage/committed-reader.ts).
   * Absent on PostgreSQL (every statement there already reads a committed snapshot) and `:memory:`.
   */
  committedReader?: CommittedReader;
  /**
   * Where reads that can be long run (searches, filtered lists, deep pages, the panel's boards): on
   * SQLite with read workers, worker threads with read-only connections of their own (storage/read-workers.ts),
   * so such a read uses another core and never holds the event loop; otherwise `kysely` itself.
   * Single statements of committed state only: never a transaction, never a write.
   */
  reads: Kysely<Database>;
  /** PostgreSQL pool usage, for metrics (SQLite has one connection and no pool: absent). */
  poolStats?(): PoolStats;
  /** SQLite with group commit: how many COMMITs carried how many transactions (tests, bench). */
  groupCommitStats?(): GroupCommitStats;
  /** SQLite with read workers: how many reads they answered, and how many fell back to the serving connection (tests, bench). */
  readWorkerStats?(): ReadWorkerStats;
  /** SQLite with background checkpoints: a PASSIVE checkpoint now, on the checkpoint worker's connection (tests). */
  checkpoint?(): Promise<CheckpointResult>;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export interface DbOptions {
  poolMax?: number;
  /**
   * SQLite: concurrent transactions share one COMMIT (storage/group-commit.ts). Default on;
   * false (SQLITE_GROUP_COMMIT=off) gives Kysely's own driver, one BEGIN … COMMIT per transaction.
   */
  groupCommit?: boolean;
  /**
   * SQLite file: 'background' (SQLITE_BACKGROUND_CHECKPOINTS, `serve`'s default) checkpoints the WAL from a worker
   * thread with its own connection, off the request path (storage/checkpointer.ts); 'inline' (the
   * default here: CLI commands, scripts) keeps SQLite's automatic checkpoint inside the COMMIT that
   * takes the WAL past 1,000 pages.
   */
  checkpoints?: 'background' | 'inline';
  /** Background checkpoints: milliseconds between them (tests trigger them with `checkpoint()` instead). */
  checkpointIntervalMs?: number;
  /** Background checkpoints: the serving connection's safety-net `wal_autocheckpoint` in pages (tests make it small). */
  safetyNetPages?: number;
  /**
   * SQLite file: how many read workers run `reads` (SQLITE_READ_WORKERS; `serve` and the test
   * databases). 0, the default here (CLI commands, scripts): `reads` is the serving connection.
   */
  readWorkers?: number;
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

/** How many prepared SQLite statements stay cached (least recently used dropped first). */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * The handle Kysely's SQLite driver sees, with `prepare` memoized by SQL text: the driver prepares
 * every statement on every call, which was 14% of a GET /deals/:id (issue 6). A schema change needs no
 * invalidation: SQLite re-prepares a cached statement by itself when the schema it was compiled
 * against changed.
 */
export function withStatementCache(database: SqliteDatabase.Database, capacity = STATEMENT_CACHE_SIZE): SqliteHandle {
  // A Map iterates in insertion order: re-inserting on each hit keeps the least recently used first.
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    prepare(text) {
      const cached = cache.get(text);
      // A statement still being iterated (a stream) cannot run again until it finishes: this caller gets its own.
      if (cached?.busy) return database.prepare(text);
      const statement = cached ?? database.prepare(text);
      cache.delete(text);
      cache.set(text, statement);
      if (cache.size > capacity) cache.delete(cache.keys().next().value!);
      return statement;
    },
    close() {
      cache.clear();
      database.close();
    },
  };
}

/**
 * The pool Kysely's PostgreSQL driver sees: the SQL of compiled queries (storage/compiled-query.ts) goes
 * out as a named prepared statement, so each connection parses it once instead of on every call
 * (planning was 0.30 ms of a 0.35 ms deal lookup, issue 6). Every other statement is unchanged.
 *
 * A statement outside a transaction runs on a connection of `generic` when it is a compiled query's,
 * of `pool` otherwise (the connection is taken at its first statement, which a transaction's BEGIN
 * is). `generic`'s connections plan prepared statements once for all values
 * (`plan_cache_mode = force_generic_plan`): PostgreSQL otherwise plans a named statement again at
 * every run whenever a plan for the values at hand looks cheaper than the general one, which for our
 * paged reads (a bound LIMIT, a large team) is always. Measured on the 100,000-deal team (issue 15):
 * the deals board's statement 0.97 → 0.39 ms of database time, the default list's 0.39 → 0.09 ms.
 * Compiled queries are written for index-order walks whose plan does not depend on the values; the
 * queries built per request (searches, filters) keep plans made for their values on `pool`, where a
 * LIKE's pattern or a range's bounds do choose the plan.
 */
export function withNamedStatements(pool: pg.Pool, generic: pg.Pool = pool): PostgresPool {
  // Per pg client, the names of statements its server-side session can no longer run (see below).
  const staleNames = new WeakMap<pg.PoolClient, Set<string>>();
  const run = (client: pg.PoolClient, text: string, values: ReadonlyArray<unknown>): Promise<unknown> => {
    const name = preparedStatementName(text);
    let stale = staleNames.get(client);
    if (!name || stale?.has(name)) return client.query(text, [...values]);
    return client.query({ name, text, values: [...values] }).catch((error: unknown) => {
      // A migration by another process changed a table under this connection's prepared statement
      // ("cached plan must not change result type"): this connection sends that SQL unnamed from now on.
      if ((error as { code?: string }).code !== '0A000') throw error;
      if (!stale) staleNames.set(client, (stale = new Set()));
      stale.add(name);
      // Inside a transaction the retry cannot run (the transaction is aborted): the original error is the one to report.
      return client.query(text, [...values]).catch(() => Promise.reject(error));
    });
  };
  return {
    // Kysely keeps its connection state per object returned here: one per use, which is cheap.
    // eslint-disable-next-line @typescript-eslint/require-await
    async connect() {
      let client: pg.PoolClient | undefined;
      let taken: Promise<pg.PoolClient> | undefined;
      const clientFor = (text: string) => (taken ??= (preparedStatementName(text) ? generic : pool).connect().then((c) => (client = c)));
      function query<R>(text: string, values: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
      function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
      function query(text: string | PostgresCursor<unknown>, values: ReadonlyArray<unknown> = []): unknown {
        // No cursor is configured for Kysely (nothing here streams); one would need its connection first.
        if (typeof text !== 'string') throw new TypeError('Cursors are not supported');
        return client ? run(client, text, values) : clientFor(text).then((c) => run(c, text, values));
      }
      return {
        query,
        release: () => {
          if (client) client.release();
          // Released while being taken (Kysely releases only after its statements finish): given back once taken.
          else
            void taken?.then(
              (c) => c.release(),
              () => undefined,
            );
        },
      };
    },
    end: async () => {
      await Promise.all(generic === pool ? [pool.end()] : [pool.end(), generic.end()]);
    },
  };
}

/** A PostgreSQL pool whose connections plan prepared statements once for all values (withNamedStatements). */
function genericPlanPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => undefined);
  // Queued before the connection's first statement. Nor parallel plans or JIT compilation: a plan made
  // for all values estimates a bound LIMIT as a tenth of an average team, and at 1,000,000 deals that
  // estimate passed the JIT threshold (7 ms of compiling for a 0.05 ms page) and made a page of 20
  // rows gather parallel workers (5–7 ms). A server without these settings (before PostgreSQL 12) plans as usual.
  pool.on(
    'connect',
    (client) =>
      void client
        .query(
          "select set_config('plan_cache_mode', 'force_generic_plan', false), set_config('max_parallel_workers_per_gather', '0', false), set_config('jit', 'off', false)",
        )
        .catch(() => undefined),
  );
  return pool;
}

// int8 (counts, money in cents) as JS numbers: every value we store is far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

const PG_UTC_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/;
const parseTimestamptzAsDate = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date;

/**
 * timestamptz as the canonical ISO string SQLite stores (`2026-11-25T12:00:00.000Z`, what
 * Date#toISOString writes) when the server writes it in UTC (TimeZone UTC, PostgreSQL's default in
 * Debian's packages and in containers), else a Date as pg parses it. Rows typed `Date | string` (Timestamp,
 * storage/database.ts) are read the same way on both databases, and the answers need no Date made and
 * formatted back per value (issue 15: ~7% of the panel's deals board in Node on PostgreSQL). Sub-millisecond
 * digits are cut, as the Date was.
 */
export function parsePgTimestamptz(text: string): string | Date {
  const utc = PG_UTC_TIMESTAMP.exec(text);
  if (!utc) return parseTimestamptzAsDate(text);
  return `${utc[1]}T${utc[2]}.${(utc[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
}
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, parsePgTimestamptz);

/**
 * Pragmas of the serving connection. Its page cache: 64 MiB when it runs the searches and deep pages
 * itself (they revisit many pages of large teams: a 5,000-hit search count went from 17.6 to 7.7 ms at
 * 100,000 clients, issue 6); 16 MiB when read workers run those, which leaves it writes and short reads
 * (issue 15: the same POST /deals throughput, about 50 MB less RSS after a write load).
 */
const servingPragmas = (readWorkers: boolean) => ['busy_timeout = 5000', `cache_size = ${readWorkers ? -16384 : -65536}`];

/**
 * Pragmas of the read-only connection (committed-reader.ts), which serves GET by id and the
 * auth_epoch counter: point reads by primary key, whose interior pages stay cached in a small cache
 * and whose leaf pages the OS page cache gives back in microseconds. With the serving connection's
 * 64 MiB it kept a second copy of every record read by id: 8 MiB took 40 MB off the server's RSS
 * after a by-id load over every team, at the same CPU per request (bench notes 2026-11-25, session 4).
 */
export const READER_PRAGMAS = ['busy_timeout = 5000', 'cache_size = -8192'] as const;

/**
 * Pragmas of each read worker's connection (read-workers.ts). 16 MiB each: the searches at 1,000,000
 * records ran as fast as with 32 MiB, and the process keeps under its memory budget with two workers.
 */
export const READ_WORKER_PRAGMAS = ['busy_timeout = 5000', 'cache_size = -16384'] as const;

export function createDb(url: string, options: DbOptions = {}): Db {
  const target = parseDatabaseUrl(url);
  if (target.dialect === 'sqlite') {
    if (target.path !== ':memory:') mkdirSync(dirname(target.path), { recursive: true });
    const database = new SqliteDatabase(target.path);
    database.pragma('journal_mode = WAL');
    // NORMAL in WAL mode keeps every committed transaction across a killed process (only an OS crash can lose the last ones).
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
    const withReadWorkers = target.path !== ':memory:' && (options.readWorkers ?? 0) > 0;
    for (const pragma of servingPragmas(withReadWorkers)) database.pragma(pragma);
    // Group commit runs each transaction in a SAVEPOINT: every page it changes that the batch had
    // already touched is copied to a sub-journal first, which spilled to a temporary file past 64 KiB
    // (a create touches ~20 index leaves on a large team). In memory it costs no file I/O (issue 15:
    // about −35% server CPU per POST /deals on the 100,000-deal team). Only this connection's
    // temporary data; the WAL and durability are unchanged.
    database.pragma('temp_store = MEMORY');
    let checkpointer: BackgroundCheckpointer | undefined;
    if (options.checkpoints === 'background' && target.path !== ':memory:') {
      // SQLite's own checkpoint stays as a safety net only, far above what the worker lets the WAL reach.
      database.pragma(`wal_autocheckpoint = ${options.safetyNetPages ?? SAFETY_NET_PAGES}`);
      checkpointer = startBackgroundCheckpointer(target.path, {
        intervalMs: options.checkpointIntervalMs,
        // A worker that stopped (it could not open the file, it crashed): back to SQLite's checkpoints in the COMMIT.
        onFailure: () => {
          try {
            if (database.open) database.pragma('wal_autocheckpoint = 1000');
          } catch {
            // Only a closing or broken connection refuses it: nothing is left to checkpoint for.
          }
        },
      });
    }
    const handle = withStatementCache(database);
    const driver = options.groupCommit === false ? undefined : new GroupCommitDriver(database, handle);
    const kysely = new Kysely<Database>({ dialect: driver ? new SqliteDialectWith(driver) : new SqliteDialect({ database: handle }) });
    const reader = target.path === ':memory:' ? undefined : sqliteReadConnection(target.path, READER_PRAGMAS);
    const authChanges = sqliteAuthChanges(database, reader);
    const workers: ReadWorkers | undefined = withReadWorkers
      ? startReadWorkers(target.path, { size: options.readWorkers!, pragmas: READ_WORKER_PRAGMAS })
      : undefined;
    return {
      kysely,
      reads: workers ? readWorkersKysely(workers, kysely) : kysely,
      dialect: 'sqlite',
      authChanges,
      ...(reader ? { committedReader: reader } : {}),
      ...(driver ? { groupCommitStats: () => driver.stats() } : {}),
      ...(checkpointer ? { checkpoint: () => checkpointer.checkpointNow() } : {}),
      ...(workers ? { readWorkerStats: () => workers.stats() } : {}),
      ping: async () => {
        await sql`select 1`.execute(kysely);
      },
      close: async () => {
        await authChanges.close();
        reader?.close();
        await workers?.close();
        // Before the serving connection: the last connection to close checkpoints the whole WAL and removes it.
        await checkpointer?.close();
        await kysely.destroy();
      },
    };
  }
  // DATABASE_POOL_MAX connections in all, shared by the two pools of withNamedStatements (one each at least).
  const max = options.poolMax ?? 10;
  const genericMax = Math.max(1, Math.ceil(max / 2));
  const pool = new pg.Pool({ connectionString: target.url, max: Math.max(1, max - genericMax) });
  // An idle client losing its connection must not take the process down; the next query reconnects.
  pool.on('error', () => undefined);
  const generic = genericPlanPool(target.url, genericMax);
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool: withNamedStatements(pool, generic) }) });
  const authChanges = postgresAuthChanges({ url: target.url });
  return {
    kysely,
    reads: kysely,
    dialect: 'postgres',
    authChanges,
    ping: async () => {
      await sql`select 1`.execute(kysely);
    },
    close: async () => {
      await authChanges.close();
      await kysely.destroy();
    },
    // Both pools (withNamedStatements) as one.
    poolStats: () => ({
      total: pool.totalCount + generic.totalCount,
      idle: pool.idleCount + generic.idleCount,
      waiting: pool.waitingCount + generic.waitingCount,
      max: (pool.options.max ?? 10) + (generic.options.max ?? 10),
    }),
  };
}
