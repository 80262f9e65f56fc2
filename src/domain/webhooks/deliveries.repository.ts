import type { DbExecutor } from '../../storage/executor.js';
import { sql } from 'kysely';
import type { DeliveryRow } from '../../storage/database.js';
import { newId } from '../shared/ids.js';
import type { AttemptRecord, DeliveryContext, QueueStats } from './deliveries.types.js';
import { dialectOf } from '../../storage/dialect.js';

/**
 * Takes a lease on up to `limit` due deliveries of enabled webhooks. On PostgreSQL the candidate
 * rows are locked with SKIP LOCKED, so concurrent workers claim disjoint sets; on SQLite the single
 * UPDATE statement is atomic. A lease outlives the HTTP timeout, so no attempt is sent twice at once;
 * a worker that dies leaves its lease to expire and the attempt is made again.
 */
export async function claimDue(db: DbExecutor, args: { now: string; leaseUntil: string; token: string; limit: number }): Promise<DeliveryRow[]> {
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
  if (dialectOf(db) === 'postgres') due = due.forUpdate('deliveries').skipLocked();
  return db.updateTable('deliveries').set({ lease_until: args.leaseUntil, lease_token: args.token }).where('id', 'in', due).returningAll().execute();
}

/**
 * Fixes the bodies of a claim's first attempts in one statement (before anything is sent); later
 * attempts reuse them byte for byte. Returns the bodies this claim stored; a delivery missing from
 * the result is not ours to fix (see `fixBody`).
 */
export async function fixBodies(db: DbExecutor, token: string, bodies: Array<{ id: string; body: string }>): Promise<Map<string, string>> {
  const stored = new Map<string, string>();
  if (bodies.length === 0) return stored;
  const rows = await db
    .updateTable('deliveries')
    .set({
      body: sql<string>`case id ${sql.join(
        bodies.map((b) => sql`when ${b.id} then ${b.body}`),
        sql` `,
      )} end`,
    })
    .where(
      'id',
      'in',
      bodies.map((b) => b.id),
    )
    .where('lease_token', '=', token)
    .where('body', 'is', null)
    .returning(['id', 'body'])
    .execute();
  for (const row of rows) if (row.body !== null) stored.set(row.id, row.body);
  return stored;
}

/** Fixes the body at the first attempt; later attempts reuse it byte for byte. */
export async function fixBody(db: DbExecutor, id: string, token: string, body: string): Promise<string> {
  const fixed = await db
    .updateTable('deliveries')
    .set({ body })
    .where('id', '=', id)
    .where('lease_token', '=', token)
    .where('body', 'is', null)
    .returning('body')
    .executeTakeFirst();
  if (fixed?.body) return fixed.body;
  // Not ours to fix (lease lost, or fixed already): whatever is stored wins.
  const row = await db.selectFrom('deliveries').select('body').where('id', '=', id).executeTakeFirst();
  return row?.body ?? body;
}

/** The event and the webhook of each claimed delivery, in one query for the whole claim. */
export async function deliveryContexts(db: DbExecutor, deliveryIds: string[]): Promise<Map<string, DeliveryContext>> {
  const contexts = new Map<string, DeliveryContext>();
  if (deliveryIds.length === 0) return contexts;
  const rows = await db
    .selectFrom('deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .select([
      'd.id as delivery_id',
      'e.id as event_id',
      'e.team_id as event_team_id',
      'e.type as event_type',
      'e.object as event_object',
      'e.previous_attributes as event_previous',
      'e.created_at as event_created_at',
      'w.id as hook_id',
      'w.team_id as hook_team_id',
      'w.url as hook_url',
      'w.secret as hook_secret',
    ])
    .where('d.id', 'in', deliveryIds)
    .execute();
  for (const row of rows) {
    contexts.set(row.delivery_id, {
      event: {
        id: row.event_id,
        team_id: row.event_team_id,
        type: row.event_type,
        object: row.event_object,
        previous_attributes: row.event_previous,
        created_at: row.event_created_at,
      },
      hook: { id: row.hook_id, team_id: row.hook_team_id, url: row.hook_url, secret: row.hook_secret },
    });
  }
  return contexts;
}

/**
 * Records an attempt atomically: closes the delivery (only while `token` still holds its lease),
 * appends the attempt log row, and on success stamps the webhook's last success; on a final failure
 * disables the webhook when nothing was delivered to it since this delivery's first attempt
 * ("six consecutive failed attempts", read per webhook). `disabled` is true only for the one
 * statement that flipped the webhook, so exactly one alert goes out.
 *
 * PostgreSQL: one statement (data-modifying CTEs), a single round trip and commit, where a
 * transaction would take six; each statement runs to completion whether or not the final SELECT
 * reads it. SQLite (in-process, no round trips): the same steps in a transaction.
 */
export async function recordAttempt(db: DbExecutor, r: AttemptRecord): Promise<{ recorded: boolean; disabled: boolean }> {
  const closed = {
    status: r.ok ? ('succeeded' as const) : r.finalFailure ? ('failed' as const) : ('pending' as const),
    attempts: r.attempt,
    next_attempt_at: r.nextAttemptAt,
    lease_until: null,
    lease_token: null,
    first_attempt_at: sql<string>`coalesce(first_attempt_at, ${r.attemptedAt})`,
    last_attempt_at: r.attemptedAt,
    completed_at: r.ok || r.finalFailure ? r.now : null,
  };
  const logged = {
    id: r.attemptId,
    delivery_id: r.deliveryId,
    webhook_id: r.webhookId,
    event_id: r.eventId,
    event_type: r.eventType,
    attempt: r.attempt,
    attempted_at: r.attemptedAt,
    status_code: r.statusCode,
    error_class: r.errorClass,
    duration_ms: r.durationMs,
    response_body: r.responseBody,
    next_attempt_at: r.nextAttemptAt,
  };
  const disabling = { status: 'disabled' as const, disabled_reason: r.disabledReason, disabled_at: r.now, updated_at: r.now };

  if (dialectOf(db) === 'postgres') {
    const base = db
      .with('closed', (qb) =>
        qb.updateTable('deliveries').set(closed).where('id', '=', r.deliveryId).where('lease_token', '=', r.token).returning(['id', 'first_attempt_at']),
      )
      .with('logged', (qb) =>
        qb
          .insertInto('delivery_attempts')
          .columns([
            'id',
            'delivery_id',
            'webhook_id',
            'event_id',
            'event_type',
            'attempt',
            'attempted_at',
            'status_code',
            'error_class',
            'duration_ms',
            'response_body',
            'next_attempt_at',
          ])
          // Parameter types come from the target columns; no row when the lease was lost.
          .expression((eb) =>
            eb
              .selectFrom('closed')
              .select((s) => [
                s.val(logged.id).as('id'),
                'closed.id as delivery_id',
                s.val(logged.webhook_id).as('webhook_id'),
                s.val(logged.event_id).as('event_id'),
                s.val(logged.event_type).as('event_type'),
                s.val(logged.attempt).as('attempt'),
                s.val(logged.attempted_at).as('attempted_at'),
                s.val(logged.status_code).as('status_code'),
                s.val(logged.error_class).as('error_class'),
                s.val(logged.duration_ms).as('duration_ms'),
                s.val(logged.response_body).as('response_body'),
                s.val(logged.next_attempt_at).as('next_attempt_at'),
              ]),
          ),
      );
    if (r.ok) {
      const row = await base
        .with('touched', (qb) =>
          qb
            .updateTable('webhooks')
            .set({ last_success_at: r.now })
            .where('id', '=', r.webhookId)
            .where((eb) => eb.exists(eb.selectFrom('closed').select('closed.id')))
            .returning('webhooks.id'),
        )
        .selectFrom('closed')
        .select('closed.id')
        .executeTakeFirst();
      return { recorded: row !== undefined, disabled: false };
    }
    if (r.finalFailure) {
      const row = await base
        .with('flipped', (qb) =>
          qb
            .updateTable('webhooks')
            .set(disabling)
            .where('id', '=', r.webhookId)
            .where('status', '=', 'enabled')
            .where((eb) =>
              eb.and([
                eb.exists(eb.selectFrom('closed').select('closed.id')),
                eb.or([eb('last_success_at', 'is', null), eb('last_success_at', '<', eb.selectFrom('closed').select('closed.first_attempt_at'))]),
              ]),
            )
            .returning('webhooks.id'),
        )
        .selectFrom('closed')
        .select((eb) => ['closed.id', eb.exists(eb.selectFrom('flipped').select('flipped.id')).as('disabled')])
        .executeTakeFirst();
      return { recorded: row !== undefined, disabled: row?.disabled === true };
    }
    const row = await base.selectFrom('closed').select('closed.id').executeTakeFirst();
    return { recorded: row !== undefined, disabled: false };
  }

  return db.transaction().execute(async (trx) => {
    const held = await trx
      .updateTable('deliveries')
      .set(closed)
      .where('id', '=', r.deliveryId)
      .where('lease_token', '=', r.token)
      .returning('first_attempt_at')
      .executeTakeFirst();
    if (!held) return { recorded: false, disabled: false };
    await trx.insertInto('delivery_attempts').values(logged).execute();
    if (r.ok) {
      await trx.updateTable('webhooks').set({ last_success_at: r.now }).where('id', '=', r.webhookId).execute();
      return { recorded: true, disabled: false };
    }
    if (!r.finalFailure) return { recorded: true, disabled: false };
    const first = held.first_attempt_at;
    const firstAttemptAt = first === null ? r.attemptedAt : new Date(first).toISOString();
    const flipped = await trx
      .updateTable('webhooks')
      .set(disabling)
      .where('id', '=', r.webhookId)
      .where('status', '=', 'enabled')
      .where((eb) => eb.or([eb('last_success_at', 'is', null), eb('last_success_at', '<', firstAttemptAt)]))
      .executeTakeFirst();
    return { recorded: true, disabled: Number(flipped.numUpdatedRows) === 1 };
  });
}

/** Due deliveries the worker would claim now: pending, due, of an enabled webhook (a disabled one's wait for `recover`). */
export async function pendingStats(db: DbExecutor, now: string): Promise<QueueStats> {
  const row = await db
    .selectFrom('deliveries')
    .innerJoin('webhooks', 'webhooks.id', 'deliveries.webhook_id')
    .select((eb) => [eb.fn.countAll<number>().as('due'), eb.fn.min('deliveries.next_attempt_at').as('oldest')])
    .where('deliveries.status', '=', 'pending')
    .where('deliveries.next_attempt_at', '<=', now)
    .where('webhooks.status', '=', 'enabled')
    .executeTakeFirstOrThrow();
  const oldest = row.oldest;
  return { due: Number(row.due), oldestDueAt: oldest === null ? null : new Date(oldest).toISOString() };
}

/**
 * Puts a (webhook, event) delivery back in the queue as a fresh series of attempts, due now (`now`,
 * stored form). An existing delivery keeps its body, so the bytes sent stay the same as before. When
 * it was waiting for a retry, the logged attempt that announced that retry has its `next_attempt_at`
 * cleared: the new series replaces the retry, and the log must not show one that will not happen.
 */
export async function queueDelivery(db: DbExecutor, teamId: string, webhookId: string, eventId: string, now: string): Promise<void> {
  const fresh = {
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: now,
    lease_until: null,
    lease_token: null,
    first_attempt_at: null,
    completed_at: null,
  };
  const current = await db
    .selectFrom('deliveries')
    .select(['id', 'status', 'attempts', 'next_attempt_at'])
    .where('webhook_id', '=', webhookId)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  if (current) {
    if (current.status === 'pending' && current.attempts > 0 && current.next_attempt_at !== null) {
      // The attempt that scheduled this retry logged the very same time.
      await db
        .updateTable('delivery_attempts')
        .set({ next_attempt_at: null })
        .where('delivery_id', '=', current.id)
        .where('next_attempt_at', '=', current.next_attempt_at)
        .execute();
    }
    await db.updateTable('deliveries').set(fresh).where('id', '=', current.id).execute();
    return;
  }
  await db
    .insertInto('deliveries')
    .values({ ...fresh, id: newId(), team_id: teamId, webhook_id: webhookId, event_id: eventId, created_at: now })
    .execute();
}
