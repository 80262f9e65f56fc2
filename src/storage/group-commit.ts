import type SqliteDatabase from 'better-sqlite3';
import { SelectQueryNode, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, type SqliteDatabase as SqliteHandle } from 'kysely';

/** At most this many transactions share one COMMIT (issue 15): bounds how long a plain read waits for a batch. */
export const GROUP_COMMIT_MAX_UNITS = 32;

/** Taken at load: a test's fake timers must not hold a batch's COMMIT back forever. */
const realSetImmediate = globalThis.setImmediate;

/** The savepoint each transaction of a batch runs in. Units never overlap, so one name serves them all. */
const UNIT = 'autosales_unit';

export interface GroupCommitStats {
  /** Real COMMITs (and ROLLBACKs of a whole batch) so far. */
  batches: number;
  /** Transactions (`kysely.transaction()`) committed inside those batches. */
  units: number;
  /** The largest number of transactions one COMMIT carried. */
  largestBatch: number;
}

interface PendingUnit {
  resolve(): void;
  reject(error: unknown): void;
}

interface Batch {
  /** Transactions released into the batch, answered at its COMMIT. */
  pending: PendingUnit[];
  /** Transactions begun in it (including ones rolled back to their savepoint): what the cap counts. */
  begun: number;
  /** Set when SQLite rolled the whole transaction back under a unit (SQLITE_FULL, IOERR…). */
  aborted?: unknown;
}

/**
 * One holder of the connection, as Kysely sees it (one per `acquireConnection`). `detached`: the
 * holder was a transaction whose unit was released into the batch; the connection went on to the
 * next holder while this one waits for the batch's COMMIT.
 */
class Lease implements DatabaseConnection {
  held = false;
  detached = false;
  /** Only a lease whose first action was BEGIN gives the connection away at its commit (a plain `connection()` scope never does). */
  transactionOnly: boolean | undefined;
  /** The batch this lease's open transaction runs in. */
  unit: Batch | undefined;
  constructor(private readonly driver: GroupCommitDriver) {}
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute<R>(this, query);
  }
  streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    return this.driver.stream<R>(this, query);
  }
}

/**
 * Group commit on SQLite's single connection (issue 15): transactions that come in together share
 * one `BEGIN IMMEDIATE … COMMIT`, each inside its own SAVEPOINT, so the pages every write touches
 * (index leaves, the FTS segment, counters, the outbox) go to the WAL once per batch instead of once
 * per request.
 *
 * - A transaction's commit is the RELEASE of its savepoint; its `commitTransaction` resolves only
 *   after the batch's real COMMIT, so nothing is answered before it is durable. Meanwhile the
 *   connection goes to the next waiter.
 * - A transaction that fails is rolled back to its savepoint: its own error propagates, the batch
 *   goes on. If SQLite rolled back the whole transaction, or the COMMIT fails, every transaction of
 *   the batch gets the error (none of them had been answered).
 * - A plain statement (outside any transaction) never runs inside an open batch: it would read rows
 *   that may still roll back, or its own write would be answered before its commit. It waits for the
 *   batch's COMMIT, which comes as soon as no transaction is waiting, when the batch holds
 *   {@link GROUP_COMMIT_MAX_UNITS} transactions, or (nobody waiting at all) after the current turn
 *   of the event loop, so that requests read from other sockets in the same turn can join.
 */
export class GroupCommitDriver implements Driver {
  readonly #raw: SqliteDatabase.Database;
  readonly #handle: SqliteHandle;
  readonly #maxUnits: number;
  #holder: Lease | undefined;
  /** Leases waiting for the connection, in arrival order. */
  readonly #waiters: Array<() => void> = [];
  /** Plain statements waiting for the open batch's COMMIT; served before any new waiter. */
  readonly #afterCommit: Array<() => void> = [];
  #batch: Batch | undefined;
  #commitScheduled = false;
  #closed = false;
  readonly #stats: GroupCommitStats = { batches: 0, units: 0, largestBatch: 0 };

  constructor(raw: SqliteDatabase.Database, handle: SqliteHandle, maxUnits = GROUP_COMMIT_MAX_UNITS) {
    this.#raw = raw;
    this.#handle = handle;
    this.#maxUnits = maxUnits;
  }

  stats(): GroupCommitStats {
    return { ...this.#stats };
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const lease = new Lease(this);
    await this.#take(lease);
    return lease;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    await this.#hold(lease);
    lease.transactionOnly ??= true;
    this.#noticeAbort();
    if (!this.#batch) {
      this.#run('begin immediate');
      this.#batch = { pending: [], begun: 0 };
    }
    this.#run(`savepoint ${UNIT}`);
    this.#batch.begun++;
    lease.unit = this.#batch;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    const batch = lease.unit;
    this.#noticeAbort();
    if (!batch || batch !== this.#batch) throw lost(batch);
    try {
      this.#run(`release ${UNIT}`);
    } catch (error) {
      this.#checkAborted(error);
      throw error;
    }
    lease.unit = undefined;
    const committed = new Promise<void>((resolve, reject) => batch.pending.push({ resolve, reject }));
    if (lease.transactionOnly) {
      // Answered at the batch's COMMIT; the connection goes on to the next waiter now.
      lease.detached = true;
      this.#leave(lease);
    } else {
      // A `connection()` scope keeps the connection: its transaction cannot wait for others.
      this.#commitBatch();
    }
    await committed;
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    // The executor turns a failing statement into a rejection.
    return new Promise((resolve) => {
      const lease = connection as Lease;
      const batch = lease.unit;
      lease.unit = undefined;
      // After a failed COMMIT, or when SQLite already rolled the whole batch back, there is nothing left to undo.
      if (batch && batch === this.#batch && this.#raw.inTransaction) {
        try {
          this.#run(`rollback to ${UNIT}`);
          this.#run(`release ${UNIT}`);
        } catch (error) {
          this.#checkAborted(error);
        }
      }
      this.#noticeAbort();
      resolve();
    });
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    if (lease.held) this.#leave(lease);
    return Promise.resolve();
  }

  async destroy(): Promise<void> {
    // Waits for every holder, and commits what is still open, before closing the file.
    const lease = new Lease(this);
    await this.#take(lease);
    if (this.#batch) this.#commitBatch();
    this.#handle.close();
    // Whatever still waits fails on the closed handle instead of waiting for ever.
    this.#closed = true;
    for (const wake of [...this.#afterCommit.splice(0), ...this.#waiters.splice(0)]) wake();
  }

  async execute<R>(lease: Lease, query: CompiledQuery): Promise<QueryResult<R>> {
    // The common case (the holder, in its transaction or with no batch open) runs without a wait.
    if (!lease.held || (!lease.unit && this.#batch)) await this.#readyForStatement(lease);
    lease.transactionOnly ??= false;
    this.#noticeAbort();
    if (lease.unit && lease.unit !== this.#batch) throw lost(lease.unit);
    const statement = this.#handle.prepare(query.sql);
    const parameters = query.parameters as unknown[];
    try {
      if (statement.reader) return { rows: statement.all(parameters) as R[] };
      const { changes, lastInsertRowid } = statement.run(parameters);
      return {
        numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
        insertId: lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
        rows: [],
      };
    } catch (error) {
      this.#checkAborted(error);
      throw error;
    }
  }

  async *stream<R>(lease: Lease, query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error('Sqlite driver only supports streaming of select queries');
    await this.#readyForStatement(lease);
    if (lease.unit && lease.unit !== this.#batch) throw lost(lease.unit);
    const statement = this.#handle.prepare(query.sql);
    for (const row of statement.iterate(query.parameters)) yield { rows: [row as R] };
  }

  /** Holds the connection, and outside a transaction waits until no batch is open. */
  async #readyForStatement(lease: Lease): Promise<void> {
    await this.#hold(lease);
    lease.transactionOnly ??= false;
    if (lease.unit || !this.#batch) return;
    // A plain statement: give the connection up until the batch has committed.
    lease.held = false;
    this.#holder = undefined;
    const granted = new Promise<void>((resolve) => this.#afterCommit.push(resolve));
    this.#next();
    await granted;
    this.#grant(lease);
  }

  /** A lease that gave the connection away (detached at its commit) and acts again queues for it like a new one. */
  async #hold(lease: Lease): Promise<void> {
    if (lease.held) return;
    lease.detached = false;
    lease.transactionOnly = false;
    await this.#take(lease);
  }

  async #take(lease: Lease): Promise<void> {
    if (this.#closed) throw new Error('The database connection is not open');
    if (!this.#holder && this.#waiters.length === 0 && this.#afterCommit.length === 0) {
      this.#grant(lease);
      return;
    }
    await new Promise<void>((resolve) => this.#waiters.push(resolve));
    this.#grant(lease);
  }

  #grant(lease: Lease): void {
    this.#holder = lease;
    lease.held = true;
  }

  #leave(lease: Lease): void {
    lease.held = false;
    if (this.#holder === lease) this.#holder = undefined;
    this.#next();
  }

  /** Hands the free connection on: to the next transaction while the batch may grow, else commits first. */
  #next(): void {
    if (this.#holder) return;
    const batch = this.#batch;
    if (batch) {
      if (batch.begun < this.#maxUnits && this.#waiters.length > 0) {
        // Reserved synchronously, so nothing else slips in before the waiter runs.
        this.#holder = RESERVED;
        this.#waiters.shift()!();
        return;
      }
      if (batch.begun < this.#maxUnits && this.#afterCommit.length === 0) {
        this.#scheduleCommit();
        return;
      }
      this.#commitBatch();
    }
    const wake = this.#afterCommit.shift() ?? this.#waiters.shift();
    if (wake) {
      this.#holder = RESERVED;
      wake();
    }
  }

  #scheduleCommit(): void {
    if (this.#commitScheduled) return;
    this.#commitScheduled = true;
    // After the I/O callbacks of this turn: requests read from other sockets meanwhile join the batch.
    realSetImmediate(() => {
      this.#commitScheduled = false;
      if (this.#holder || !this.#batch) return;
      this.#commitBatch();
      this.#next();
    });
  }

  /** The real COMMIT: answers every transaction of the batch (or fails them all together). */
  #commitBatch(): void {
    const batch = this.#batch;
    if (!batch) return;
    this.#batch = undefined;
    this.#stats.batches++;
    let failure: unknown = batch.aborted;
    if (failure === undefined) {
      try {
        this.#run('commit');
      } catch (error) {
        failure = error;
        // A COMMIT refused (a deferred foreign key, for example) leaves the transaction open.
        try {
          if (this.#raw.inTransaction) this.#run('rollback');
        } catch {
          // Nothing more to undo: SQLite ended the transaction itself.
        }
      }
    }
    if (failure !== undefined) {
      for (const unit of batch.pending) unit.reject(failure);
      return;
    }
    this.#stats.units += batch.pending.length;
    this.#stats.largestBatch = Math.max(this.#stats.largestBatch, batch.pending.length);
    for (const unit of batch.pending) unit.resolve();
  }

  /**
   * A batch whose transaction SQLite ended under it (an error it did not report to this driver, or a
   * stray ROLLBACK) is failed as a whole before anything else runs: otherwise the next SAVEPOINT
   * would start a transaction of its own and its RELEASE would commit it alone, ahead of the batch.
   */
  #noticeAbort(): void {
    const batch = this.#batch;
    if (!batch || this.#raw.inTransaction) return;
    batch.aborted ??= new Error('A transação SQLite terminou antes do commit do lote');
    this.#commitBatch();
  }

  /** A statement error after which SQLite has no transaction left: the whole batch is gone. */
  #checkAborted(error: unknown): void {
    const batch = this.#batch;
    if (!batch || this.#raw.inTransaction) return;
    batch.aborted = error;
    this.#commitBatch();
  }

  #run(text: string): void {
    this.#handle.prepare(text).run([]);
  }
}

/** The error of a transaction whose batch SQLite rolled back under it. */
function lost(batch: Batch | undefined): unknown {
  return batch?.aborted ?? new Error('A transação SQLite foi desfeita antes do commit');
}

/** Marks the connection as handed over while the waiter it was given to has not started yet. */
const RESERVED = new Lease(undefined as unknown as GroupCommitDriver);
