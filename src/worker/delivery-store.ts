import type { Kysely } from 'kysely';
import type { Database, DeliveryRow } from '../storage/database.js';
import type { DialectName } from '../storage/dialect.js';

type DbLike = Kysely<Database>;

/**
 * Takes a lease on up to `limit` due deliveries of enabled webhooks. On PostgreSQL the candidate
 * rows are locked with SKIP LOCKED, so concurrent workers claim disjoint sets; on SQLite the single
 * UPDATE statement is atomic. A lease outlives the HTTP timeout, so no attempt is sent twice at once;
 * a worker that dies leaves its lease to expire and the attempt is made again.
 */
export async function claimDue(
  db: DbLike,
  dialect: DialectName,
  args: { now: string; leaseUntil: string; token: string; limit: number },
): Promise<DeliveryRow[]> {
  let due = db
    .selectFrom('deliveries')
    .innerJoin('webhooks', 'webhooks.id', 'deliveries.webhook_id')
    .select('deliveries.id')
    .where('deliveries.status', '=', 'pending')
    .where('deliveries.next_attempt_at', '<=', args.now)
    .where((eb) => eb.or([eb('deliveries.lease_until', 'is', null), eb('deliveries.lease_until', '<', args.now)]))
    .where('webhooks.status', '=', 'enabled')
    .orderBy('deliveries.next_attempt_at')
    .limit(args.limit);
  if (dialect === 'postgres') due = due.forUpdate('deliveries').skipLocked();
  return db
    .updateTable('deliveries')
    .set({ lease_until: args.leaseUntil, lease_token: args.token })
    .where('id', 'in', due)
    .returningAll()
    .execute();
}

/** Fixes the body at the first attempt; later attempts reuse it byte for byte. */
export async function fixBody(db: DbLike, id: string, token: string, body: string): Promise<string> {
  await db.updateTable('deliveries').set({ body }).where('id', '=', id).where('lease_token', '=', token).where('body', 'is', null).execute();
  const row = await db.selectFrom('deliveries').select('body').where('id', '=', id).executeTakeFirst();
  return row?.body ?? body;
}

/** The delivery, if this worker still holds its lease (locked on PostgreSQL for the rest of the transaction). */
export async function heldDelivery(db: DbLike, dialect: DialectName, id: string, token: string) {
  let query = db.selectFrom('deliveries').selectAll().where('id', '=', id).where('lease_token', '=', token);
  if (dialect === 'postgres') query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function pendingStats(db: DbLike, now: string): Promise<{ due: number; oldestDueAt: string | null }> {
  const row = await db
    .selectFrom('deliveries')
    .select((eb) => [eb.fn.countAll<number>().as('due'), eb.fn.min('next_attempt_at').as('oldest')])
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .executeTakeFirstOrThrow();
  const oldest = row.oldest as Date | string | null;
  return { due: Number(row.due), oldestDueAt: oldest === null ? null : new Date(oldest).toISOString() };
}
