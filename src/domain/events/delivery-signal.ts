/**
 * "Deliveries were queued": lets a delivery worker claim them at once instead of at its next poll.
 *
 * - PostgreSQL: a NOTIFY on {@link DELIVERIES_CHANNEL}, issued (events.repository.ts) inside the transaction that queued
 *   them. PostgreSQL delivers it when (and only if) that transaction commits, to every session
 *   LISTENing: a worker in this process or in another one (src/worker/delivery-listener.ts).
 * - SQLite: an in-process signal. Only a worker sharing this process (and database handle) can be
 *   woken; a separate `autosales worker` on SQLite finds the deliveries at its next poll.
 *
 * The signal is only a hint: the worker's claim decides what is due, and polling stays the fallback,
 * so a lost signal costs at most one poll interval and a spurious one costs one claim query.
 */
export const DELIVERIES_CHANNEL = 'autosales_deliveries';

type Listener = () => void;
const listeners = new Set<Listener>();

/** Subscribes to in-process (SQLite) signals; returns the unsubscribe function. */
export function onDeliveriesQueued(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * SQLite: wakes this process's workers. Call inside the transaction that queued deliveries, after
 * inserting them. The signal goes out before the commit, and that is still safe: the worker's claim
 * is a statement outside any transaction, and on SQLite's single connection such a statement waits
 * until the writing transaction has committed or rolled back (Kysely's driver holds the connection
 * until then; with group commit, storage/group-commit.ts holds plain statements until the batch's
 * COMMIT), so the claim sees the rows (or, after a rollback, finds nothing). The callers' `execute()` offers no after-commit
 * hook (Kysely has none), which is why PostgreSQL, with a pool of connections, relies on NOTIFY's own
 * at-commit delivery instead.
 */
export function signalInProcess(): void {
  for (const listener of [...listeners]) {
    try {
      listener();
    } catch {
      // A listener's failure must never fail the caller's transaction.
    }
  }
}
