import SqliteDatabase from 'better-sqlite3';

/**
 * SQLite reads that must only ever see committed state (issue 15): a read-only connection of its own
 * on the same file, in the same process. Each statement runs in autocommit, so it reads the latest
 * COMMIT of any process in one snapshot, and never a group-commit batch (group-commit.ts) or any other
 * transaction still open on the serving connection, whose changes could still roll back. It is never
 * blocked by them either: WAL readers do not wait for the writer.
 *
 * Used for the auth_epoch counter (auth-changes.ts), for GET by id, whose one statement returns
 * the record and that counter (domain/shared/auth-epoch-sql.ts), and for the lists' status-only
 * pages, whose one statement returns the page, its exact total and that counter (list-sql.ts). Statements are prepared once and run
 * with better-sqlite3's synchronous `.get()`, outside Kysely's driver (its `executeQuery` path was 17%
 * of a GET by id's busy time). Only repositories give it SQL (storage/compiled-query.ts,
 * `takeFirstCommitted`).
 */
export interface CommittedReader {
  /** The first row of a SELECT, or undefined. Throws what SQLite throws (a missing table, say). */
  get<O>(sql: string, parameters: readonly unknown[]): O | undefined;
  /** Every row of a SELECT (a list's page: a few dozen rows at most), read to the end in one snapshot. */
  all<O>(sql: string, parameters: readonly unknown[]): O[];
}

/** Distinct statements kept prepared: a handful of by-id reads, the lists' pages and the counter; a bound only against misuse. */
const MAX_STATEMENTS = 64;

/**
 * Only `get` and `all` reach the connection: better-sqlite3 resets a statement after `.get()` and
 * `.all()` (which steps it to the end), so no read transaction ever stays open on it (an unfinished
 * `.iterate()` would pin one old snapshot for every later read, revocations included).
 */
export interface SqliteReadConnection extends CommittedReader {
  close(): void;
}

/**
 * Opened lazily (the serving connection has created the file and its WAL by then). Same busy
 * timeout as the serving connection, a smaller page cache (storage/db.ts, READER_PRAGMAS).
 */
export function sqliteReadConnection(path: string, pragmas: readonly string[] = []): SqliteReadConnection {
  let database: SqliteDatabase.Database | undefined;
  let closed = false;
  const statements = new Map<string, SqliteDatabase.Statement>();
  const connection = (): SqliteDatabase.Database => {
    if (database?.open) return database;
    if (closed) throw new TypeError('The database connection is not open');
    statements.clear();
    const opened = new SqliteDatabase(path, { readonly: true, fileMustExist: true });
    for (const pragma of pragmas) opened.pragma(pragma);
    database = opened;
    return opened;
  };
  const prepared = (text: string): SqliteDatabase.Statement => {
    let statement = statements.get(text);
    if (!statement) {
      statement = connection().prepare(text);
      if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value!);
      statements.set(text, statement);
    }
    return statement;
  };
  return {
    get: <O>(text: string, parameters: readonly unknown[]) => prepared(text).get(parameters) as O | undefined,
    all: <O>(text: string, parameters: readonly unknown[]) => prepared(text).all(parameters) as O[],
    close() {
      closed = true;
      statements.clear();
      database?.close();
      database = undefined;
    },
  };
}
