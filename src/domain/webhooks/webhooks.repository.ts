import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, WebhookTable } from '../../storage/database.js';
import { newId } from '../shared/ids.js';
import { nowIso } from '../shared/time.js';

type DbLike = Kysely<Database>;

export const insertWebhook = (db: DbLike, row: Insertable<WebhookTable>) => db.insertInto('webhooks').values(row).execute();

export const findWebhook = (db: DbLike, id: string) => db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();

export const listWebhooks = (db: DbLike, teamId: string) =>
  db.selectFrom('webhooks').selectAll().where('team_id', '=', teamId).orderBy('created_at').orderBy('id').execute();

export async function updateWebhook(db: DbLike, id: string, patch: Updateable<WebhookTable>) {
  await db.updateTable('webhooks').set(patch).where('id', '=', id).execute();
  return findWebhook(db, id);
}

export const findEvent = (db: DbLike, id: string) => db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();

export const listAttempts = (db: DbLike, webhookId: string, limit: number) =>
  db
    .selectFrom('delivery_attempts')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('attempted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();

/** Events of the team since a time that this webhook has not received (no succeeded delivery). */
export const undeliveredEventsSince = (db: DbLike, webhookId: string, teamId: string, since: string) =>
  db
    .selectFrom('events')
    .select(['events.id', 'events.type'])
    .where('events.team_id', '=', teamId)
    .where('events.created_at', '>=', since)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('deliveries')
            .select('deliveries.id')
            .whereRef('deliveries.event_id', '=', 'events.id')
            .where('deliveries.webhook_id', '=', webhookId)
            .where('deliveries.status', '=', 'succeeded'),
        ),
      ),
    )
    .orderBy('events.created_at')
    .orderBy('events.id')
    .execute();

/**
 * Puts a (webhook, event) delivery back in the queue as a fresh series of attempts, due now.
 * An existing delivery keeps its body, so the bytes sent stay the same as before. When it was
 * waiting for a retry, the logged attempt that announced that retry has its `next_attempt_at`
 * cleared: the new series replaces the retry, and the log must not show one that will not happen.
 */
export async function queueDelivery(db: DbLike, teamId: string, webhookId: string, eventId: string): Promise<void> {
  const now = nowIso();
  const fresh = { status: 'pending' as const, attempts: 0, next_attempt_at: now, lease_until: null, lease_token: null, first_attempt_at: null, completed_at: null };
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
