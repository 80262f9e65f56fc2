import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * SQLite WAL checkpoints off the request path (issue 15).
 *
 * In WAL mode a COMMIT appends pages to the `-wal` file; a checkpoint copies them back into the
 * database file (and fsyncs both) so the WAL can start over. By default SQLite runs that checkpoint
 * itself, inside the COMMIT that takes the WAL past 1,000 pages: on our single serving connection
 * that is on the event loop, in the middle of answering requests (21% of a POST /deals' busy time
 * with group commit, bench notes 2026-11-24).
 *
 * With background checkpoints:
 * - a worker thread with a connection of its own runs `PRAGMA wal_checkpoint(PASSIVE)` every
 *   {@link CHECKPOINT_INTERVAL_MS} (at once again while it is behind). PASSIVE never waits for and never
 *   blocks the writer or the readers; a checkpoint with nothing new to copy returns at once;
 * - the serving connection keeps SQLite's automatic checkpoint only as a safety net, at
 *   {@link SAFETY_NET_PAGES} pages instead of 1,000: it bounds the WAL even if the worker falls behind
 *   (a slow disk, or a long reader pinning old pages), and then only copies what the worker has not.
 *
 * Durability is unchanged: a transaction is durable once its COMMIT has written it to the WAL
 * (synchronous=NORMAL: a killed process loses nothing committed, an OS crash may lose the last
 * commits), whoever later copies it into the database file. The WAL starts over from its beginning
 * at the first write after a checkpoint that copied everything, so its file stays the size of the
 * writes of about one interval.
 */

/** How often the worker checkpoints (milliseconds). */
export const CHECKPOINT_INTERVAL_MS = 100;
/** The serving connection's `wal_autocheckpoint` with background checkpoints: a bound, not the path taken. */
export const SAFETY_NET_PAGES = 10_000;
/** Immediate re-runs while a checkpoint finds it could not copy everything (new commits meanwhile). */
const CATCH_UP_RUNS = 8;

/** What `PRAGMA wal_checkpoint` answers: frames in the WAL, and how many of them are in the database file. */
export interface CheckpointResult {
  /** 1 when the checkpoint could not run (another connection was checkpointing). */
  busy: number;
  log: number;
  checkpointed: number;
}

export interface BackgroundCheckpointer {
  /** Runs a PASSIVE checkpoint on the worker's connection now (tests, shutdown), whatever the interval. */
  checkpointNow(): Promise<CheckpointResult>;
  close(): Promise<void>;
}

export interface CheckpointerOptions {
  /** Milliseconds between checkpoints; tests pass a large value and trigger with `checkpointNow()`. */
  intervalMs?: number;
  /** Called once if the worker stops (it could not open the file, it crashed): the caller restores inline checkpoints. */
  onFailure?(error: unknown): void;
}

// The worker's code: plain CommonJS, evaluated (no file of its own to locate from src/ or dist/).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
let timer;
let closed = false;
function checkpoint() {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    return { busy: Number(row.busy), log: Number(row.log), checkpointed: Number(row.checkpointed) };
  } catch (error) {
    // SQLITE_BUSY or SQLITE_LOCKED (another connection checkpointing, a lock held): the next tick tries
    // again. Anything else (an I/O error, a corrupt or replaced file) stops the worker: the main thread
    // hears it ('error') and gives the checkpoints back to the serving connection.
    const code = String((error && error.code) || '');
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return { busy: 1, log: -1, checkpointed: -1 };
    throw error;
  }
}
function tick() {
  timer = undefined;
  if (closed) return;
  let result = checkpoint();
  for (let i = 0; i < ${CATCH_UP_RUNS} && !result.busy && result.checkpointed < result.log; i++) result = checkpoint();
  timer = setTimeout(tick, workerData.intervalMs);
}
parentPort.on('message', (message) => {
  if (message.type === 'now') {
    parentPort.postMessage({ id: message.id, result: checkpoint() });
  } else if (message.type === 'close') {
    closed = true;
    if (timer) clearTimeout(timer);
    db.close();
    parentPort.postMessage({ id: message.id, closed: true });
    parentPort.close();
  }
});
timer = setTimeout(tick, workerData.intervalMs);
`;

/** Starts the worker for the SQLite file at `path` (already in WAL mode, so the worker's connection is too). */
export function startBackgroundCheckpointer(path: string, options: CheckpointerOptions = {}): BackgroundCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    // The source is CommonJS, whatever the parent was started with (`node --input-type=module -e …`).
    execArgv: process.execArgv.filter((arg) => !arg.startsWith('--input-type')),
    workerData: { path, driver, intervalMs: options.intervalMs ?? CHECKPOINT_INTERVAL_MS },
  });
  let nextId = 0;
  let failure: Error | undefined;
  let closing: Promise<void> | undefined;
  const waiting = new Map<number, { resolve: (value: { result?: CheckpointResult }) => void; reject: (error: Error) => void }>();
  // The worker keeps the process alive only while an answer is awaited (a checkpoint asked for, the
  // close): never on its own, so a script or a failed start that does not close the database still
  // exits. Listening for messages refs a worker again, so it is unref'ed after its listeners.
  const settled = () => {
    if (waiting.size === 0) worker.unref();
  };
  worker.on('message', (message: { id: number; result?: CheckpointResult }) => {
    waiting.get(message.id)?.resolve(message);
    waiting.delete(message.id);
    settled();
  });
  const fail = (error: Error) => {
    if (failure === undefined && !closing) options.onFailure?.(error);
    failure ??= error;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on('error', fail);
  worker.on('exit', () => fail(new Error('The checkpoint worker has stopped')));
  worker.unref();
  const ask = (type: 'now' | 'close') =>
    new Promise<{ result?: CheckpointResult }>((resolve, reject) => {
      if (failure !== undefined) return reject(failure);
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ type, id });
    });
  return {
    async checkpointNow() {
      const { result } = await ask('now');
      return result!;
    },
    close() {
      closing ??= ask('close').then(
        () => worker.terminate().then(() => undefined),
        // Already stopped (it failed): nothing left to close.
        () => undefined,
      );
      return closing;
    },
  };
}
