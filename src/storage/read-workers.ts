import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { Kysely, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';
import { SqliteDialectWith } from './sqlite-dialect.js';

/**
 * SQLite reads on worker threads (issue 15).
 *
 * better-sqlite3 runs every statement synchronously on the thread that calls it. On the serving
 * connection a search of a large team (10 ms and more at 1,000,000 records) holds the event loop: the
 * process uses one core however many it has, and every other request waits behind it, a GET by id
 * included. Read workers are a small pool of worker threads, each with a read-only connection of its own
 * on the same file, that run such reads instead: they use the other cores, in parallel with each other
 * and with the event loop.
 *
 * - Only reads: a statement that is not a SELECT is refused (a TypeError, a programming error).
 * - Each statement runs in autocommit on its worker's connection, so it reads the latest COMMIT, as
 *   the committed reader does (committed-reader.ts): never an open group-commit batch, and everything a
 *   201 answered (it was answered after its COMMIT). WAL readers neither wait for the writer nor block it.
 * - Should a worker fail (it stopped, or its read failed: a busy file, say), the read runs on the
 *   serving connection instead, where a real fault fails as before.
 * - Workers start on first use and keep the process alive only while a read is awaited.
 *
 * Which reads go here is the repositories' choice (Db#reads): the ones that can be long (searches,
 * filtered lists, deep pages, the panel's boards). Short reads (by id, a status-only first page) stay on
 * the event loop's committed reader: a trip to a worker and back costs more than they do.
 */

/** Statements each worker keeps prepared (least recently used dropped first). */
const WORKER_STATEMENTS = 200;

export interface ReadWorkersOptions {
  /** How many worker threads (at least 1). */
  size: number;
  /** Pragmas of each worker's connection (busy timeout, page cache). */
  pragmas?: readonly string[];
}

/** What the read workers have done so far (tests, bench). */
export interface ReadWorkerStats {
  /** Reads the workers answered. */
  reads: number;
  /** Reads they could not answer (a stopped worker, a failed read): each ran on the serving connection instead. */
  failed: number;
}

export interface ReadWorkers {
  readonly size: number;
  stats(): ReadWorkerStats;
  /** Every row of a SELECT, read on the least busy worker. Rejects with what SQLite threw there, or when the worker stopped. */
  all<O>(sql: string, parameters: readonly unknown[]): Promise<O[]>;
  close(): Promise<void>;
}

/** A statement the workers refuse: it is not a read (the caller's mistake, never retried elsewhere). */
export class NotAReadError extends TypeError {}

// The worker's code: plain CommonJS, evaluated (no file of its own to locate from src/ or dist/).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
let db;
const statements = new Map();
function prepared(text) {
  let statement = statements.get(text);
  if (statement) {
    statements.delete(text);
  } else {
    if (!db) {
      db = new Database(workerData.path, { readonly: true, fileMustExist: true });
      for (const pragma of workerData.pragmas) db.pragma(pragma);
    }
    statement = db.prepare(text);
    if (statements.size >= ${WORKER_STATEMENTS}) statements.delete(statements.keys().next().value);
  }
  statements.set(text, statement);
  return statement;
}
parentPort.on('message', (message) => {
  if (message.type === 'close') {
    statements.clear();
    if (db) db.close();
    parentPort.postMessage({ id: message.id, rows: [] });
    parentPort.close();
    return;
  }
  try {
    const statement = prepared(message.sql);
    if (!statement.reader) {
      parentPort.postMessage({ id: message.id, error: { message: 'Read workers run reads only', notARead: true } });
      return;
    }
    parentPort.postMessage({ id: message.id, rows: statement.all(message.parameters) });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: { message: String((error && error.message) || error), code: error && error.code } });
  }
});
`;

interface Pending {
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  waiting: Map<number, Pending>;
  failed: boolean;
}

interface Answer {
  id: number;
  rows?: unknown[];
  error?: { message: string; code?: string; notARead?: boolean };
}

/** A pool of `size` read workers on the SQLite file at `path` (in WAL mode, created by the serving connection). */
export function startReadWorkers(path: string, { size, pragmas = [] }: ReadWorkersOptions): ReadWorkers {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const slots: Array<Slot | undefined> = Array.from({ length: Math.max(1, size) }, () => undefined);
  let nextId = 0;
  let closed = false;
  const counts: ReadWorkerStats = { reads: 0, failed: 0 };

  function spawn(): Slot {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      // The source is CommonJS, whatever the parent was started with (`node --input-type=module -e …`).
      execArgv: process.execArgv.filter((arg) => !arg.startsWith('--input-type')),
      workerData: { path, driver, pragmas: [...pragmas] },
    });
    const slot: Slot = { worker, waiting: new Map(), failed: false };
    worker.on('message', ({ id, rows, error }: Answer) => {
      const pending = slot.waiting.get(id);
      slot.waiting.delete(id);
      // Referenced only while a read is awaited (listening for messages refs a worker again).
      if (slot.waiting.size === 0) worker.unref();
      if (!pending) return;
      if (!error) {
        counts.reads++;
        return pending.resolve(rows ?? []);
      }
      if (error.notARead) return pending.reject(new NotAReadError(error.message));
      counts.failed++;
      pending.reject(Object.assign(new Error(error.message), error.code ? { code: error.code } : {}));
    });
    const fail = (error: Error) => {
      slot.failed = true;
      counts.failed += slot.waiting.size;
      for (const { reject } of slot.waiting.values()) reject(error);
      slot.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('A read worker has stopped')));
    worker.unref();
    return slot;
  }

  /** The worker with the fewest reads in flight; a stopped one is replaced. */
  function leastBusy(): Slot {
    let best: Slot | undefined;
    for (let i = 0; i < slots.length; i++) {
      let slot = slots[i];
      if (!slot || slot.failed) slots[i] = slot = spawn();
      if (!best || slot.waiting.size < best.waiting.size) best = slot;
    }
    return best!;
  }

  function send<O>(slot: Slot, message: object): Promise<O[]> {
    const id = nextId++;
    return new Promise<O[]>((resolve, reject) => {
      slot.waiting.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
      slot.worker.ref();
      slot.worker.postMessage({ ...message, id });
    });
  }

  return {
    size: slots.length,
    stats: () => ({ ...counts }),
    all<O>(sql: string, parameters: readonly unknown[]): Promise<O[]> {
      if (closed) return Promise.reject(new Error('The read workers are closed'));
      return send<O>(leastBusy(), { sql, parameters });
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all(
        slots.map(async (slot) => {
          if (!slot || slot.failed) return;
          await send(slot, { type: 'close' }).catch(() => undefined);
          await slot.worker.terminate();
        }),
      );
    },
  };
}

/**
 * A Kysely whose statements run on the read workers; a read they cannot answer runs on `fallback`
 * (the serving connection). Single statements only: a transaction on it is a programming error.
 */
export function readWorkersKysely<DB>(workers: ReadWorkers, fallback: Kysely<DB>): Kysely<DB> {
  return new Kysely<DB>({ dialect: new SqliteDialectWith(new ReadWorkersDriver(workers, fallback as Kysely<unknown>)) });
}

class ReadWorkersConnection implements DatabaseConnection {
  constructor(
    private readonly workers: ReadWorkers,
    private readonly fallback: Kysely<unknown>,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return { rows: await this.workers.all<R>(query.sql, query.parameters) };
    } catch (error) {
      if (error instanceof NotAReadError) throw error;
      return this.fallback.executeQuery<R>(query);
    }
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new TypeError('Read workers do not stream');
  }
}

const NO_TRANSACTION = 'Read workers run single statements, never a transaction';

class ReadWorkersDriver implements Driver {
  readonly #connection: ReadWorkersConnection;
  constructor(workers: ReadWorkers, fallback: Kysely<unknown>) {
    this.#connection = new ReadWorkersConnection(workers, fallback);
  }
  async init(): Promise<void> {}
  acquireConnection(): Promise<DatabaseConnection> {
    return Promise.resolve(this.#connection);
  }
  beginTransaction(): Promise<void> {
    return Promise.reject(new TypeError(NO_TRANSACTION));
  }
  commitTransaction(): Promise<void> {
    return Promise.reject(new TypeError(NO_TRANSACTION));
  }
  rollbackTransaction(): Promise<void> {
    return Promise.reject(new TypeError(NO_TRANSACTION));
  }
  async releaseConnection(): Promise<void> {}
  // The pool is closed by its owner (storage/db.ts), not by this Kysely.
  async destroy(): Promise<void> {}
}
