import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { AUTH_CHANGES_CHANNEL } from './migrations/0008-auth-epoch.js';
import type { SqliteReadConnection } from './committed-reader.js';

const AUTH_EPOCH_SQL = 'select n from auth_epoch where id = 1';

/**
 * What an in-process cache of authentications (domain/teams/auth-cache.ts) asks the database layer
 * (issue 15): "has anything a cached authentication depends on changed since you gave me this
 * token?", answered without a round trip to the database.
 *
 * `current()` returns a token, equal to an earlier one only if no revocation (or scope, plan, key or
 * team deletion change) has been committed since, by this process or any other; or null when that
 * cannot be known right now, and then nothing may be served from the cache (fail closed: every
 * request goes to the database, as without a cache).
 */
export interface AuthChanges {
  current(): number | null;
  /** How long a cached authentication may be used at most, whatever `current()` says. */
  readonly maxAgeMs: number;
  /**
   * True when an unchanged token proves that nothing changed (SQLite: the counter itself, read on
   * the connection). False when it is only a hint (PostgreSQL: a notification may still be on its
   * way): a cached authentication must then be confirmed by a read of the counter made after the
   * request arrived.
   */
  readonly exact: boolean;
  close(): Promise<void>;
}

/** The LISTEN connection's application_name (tests cut it with pg_terminate_backend). */
export const AUTH_LISTENER_APPLICATION_NAME = 'autosales-auth-listener';

/** Entries older than this go back to the database on SQLite: keeps `last_used_at`-style bookkeeping on the lookup path fresh. */
export const SQLITE_MAX_AGE_MS = 30_000;
/** PostgreSQL's safety expiry: bounds a notification lost while the LISTEN connection still looked alive. */
export const POSTGRES_MAX_AGE_MS = 5_000;

/**
 * SQLite: the counter of `auth_epoch` (migration 0008), moved by triggers in the writing
 * transaction. A committed change by any process is visible to the next read, so a revocation fails
 * on the very next request.
 *
 * It is read on a read-only connection of its own (committed-reader.ts: same file, same process, a
 * one-row read, no round trip). That connection only ever sees committed state, so the counter never
 * goes back down, even while the serving connection has a transaction open: a group-commit batch
 * (group-commit.ts) whose uncommitted bump could still be rolled back, or a write awaiting between its
 * statements. It is never blocked by them either (WAL readers do not wait for the writer), so
 * requests arriving during a batch still use the cache instead of a key lookup that would have to
 * wait for the COMMIT. GET by id reads the counter in its own statement on that same connection
 * (domain/teams/api-keys.service.ts, `unconfirmed`).
 *
 * `:memory:` databases have no file a second connection could open (`reader` absent): there the
 * counter is read on the serving connection, and not at all while it has a transaction open (the
 * answer is then null).
 */
export function sqliteAuthChanges(database: SqliteDatabase.Database, reader: SqliteReadConnection | undefined): AuthChanges {
  let statement: SqliteDatabase.Statement | undefined;
  let on: SqliteDatabase.Database | undefined;
  return {
    maxAgeMs: SQLITE_MAX_AGE_MS,
    exact: true,
    current() {
      if (!database.open) return null;
      if (!reader && database.inTransaction) return null;
      try {
        const connection = reader ? reader.connection() : database;
        if (on !== connection) statement = undefined;
        statement ??= connection.prepare(AUTH_EPOCH_SQL).pluck();
        on = connection;
        const n = statement.get() as number | bigint | undefined;
        return n === undefined ? null : Number(n);
      } catch {
        // Not migrated yet (no table): no caching.
        statement = undefined;
        return null;
      }
    },
    close: () => {
      statement = undefined;
      on = undefined;
      return Promise.resolve();
    },
  };
}

export interface PostgresAuthChangesOptions {
  url: string;
  /** Told when the LISTEN connection drops (never with the URL: it may hold a password). */
  onDrop?: (error: Error | undefined) => void;
  retryMs?: number;
  maxRetryMs?: number;
}

/**
 * PostgreSQL: one dedicated connection LISTENing on `autosales_auth` (the triggers of migration
 * 0008 NOTIFY it at commit). The token is a generation number that goes up on every notification
 * and on every (re)connection. While the connection is not established (not yet, dropped, being
 * re-opened) the token is null: fail closed, every request is authenticated by the database.
 * Notifications missed while disconnected do not matter: the generation moves on reconnection, so
 * nothing cached before the drop is used again.
 *
 * Opened lazily, on the first `current()`: a CLI command that never authenticates opens nothing.
 */
export function postgresAuthChanges(options: PostgresAuthChangesOptions): AuthChanges {
  const firstRetryMs = options.retryMs ?? 250;
  const maxRetryMs = options.maxRetryMs ?? 10_000;
  let retryMs = firstRetryMs;
  let generation = 0;
  let listening = false;
  let started = false;
  let closed = false;
  let client: pg.Client | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let connecting: Promise<void> | undefined;

  function scheduleReconnect(): void {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connecting = connect();
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, maxRetryMs);
  }

  async function connect(): Promise<void> {
    if (closed) return;
    const current = new pg.Client({ connectionString: options.url, keepAlive: true, application_name: AUTH_LISTENER_APPLICATION_NAME });
    client = current;
    let dropped = false;
    const drop = (error?: Error): void => {
      if (dropped) return;
      dropped = true;
      if (client === current) {
        client = undefined;
        listening = false;
        generation++;
      }
      current.end().catch(() => undefined);
      if (closed) return;
      options.onDrop?.(error);
      scheduleReconnect();
    };
    current.on('notification', (message) => {
      if (message.channel === AUTH_CHANGES_CHANNEL) generation++;
    });
    current.on('error', (error: Error) => drop(error));
    current.on('end', () => drop());
    try {
      await current.connect();
      // The socket must not keep a process alive that has nothing else to do.
      (current as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
      await current.query(`LISTEN ${AUTH_CHANGES_CHANNEL}`);
    } catch (error) {
      drop(error as Error);
      return;
    }
    if (dropped || closed) {
      if (closed) await current.end().catch(() => undefined);
      return;
    }
    generation++;
    listening = true;
    retryMs = firstRetryMs;
  }

  return {
    maxAgeMs: POSTGRES_MAX_AGE_MS,
    exact: false,
    current() {
      if (!started && !closed) {
        started = true;
        connecting = connect();
      }
      return listening ? generation : null;
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(retryTimer);
      retryTimer = undefined;
      await connecting?.catch(() => undefined);
      const current = client;
      client = undefined;
      listening = false;
      await current?.end().catch(() => undefined);
    },
  };
}

/** No caching at all: every authentication reads the database (tools that wrap a Kysely of their own). */
export const uncachedAuthChanges: AuthChanges = { current: () => null, maxAgeMs: 0, exact: false, close: () => Promise.resolve() };
