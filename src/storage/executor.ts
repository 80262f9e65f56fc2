import type { Kysely, Transaction } from 'kysely';
import type { Database } from './database.js';

/** What repository functions run on: the database, or a transaction of it. */
export type DbExecutor = Kysely<Database>;

/**
 * A transaction. Functions that lock rows (`FOR UPDATE`) or must share the caller's atomic unit (the
 * event outbox, the Idempotency-Key answer) take this type: a plain DbExecutor does not compile there.
 */
export type Trx = Transaction<Database>;
