import type { Trx } from '../../storage/executor.js';

/** Options of a service write that creates a record. */
export interface WriteOptions<T> {
  /**
   * Runs inside the write's transaction, after the record and its events, with the write's result:
   * what it stores commits with the record or not at all (the route stores its Idempotency-Key
   * answer there). A failure rolls the whole write back.
   */
  inTransaction?: (trx: Trx, result: T) => Promise<void>;
}
