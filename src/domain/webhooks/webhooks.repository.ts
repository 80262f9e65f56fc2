import type { DbExecutor } from '../../storage/executor.js';
import type { Insertable, Updateable } from 'kysely';
import type { EventTable, WebhookTable } from '../../storage/database.js';

export const insertWebhook = (db: DbExecutor, row: Insertable<WebhookTable>) => db.insertInto('webhooks').values(row).execute();

export const findWebhook = (db: DbExecutor, id: string) => db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();

export const listWebhooks = (db: DbExecutor, teamId: string) =>
  db.selectFrom('webhooks').selectAll().where('team_id', '=', teamId).orderBy('created_at').orderBy('id').execute();

export async function updateWebhook(db: DbExecutor, id: string, patch: Updateable<WebhookTable>) {
  await db.updateTable('webhooks').set(patch).where('id', '=', id).execute();
  return findWebhook(db, id);
}

export const deleteWebhook = (db: DbExecutor, id: string) => db.deleteFrom('webhooks').where('id', '=', id).execute();

export const findEvent = (db: DbExecutor, id: string) => db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();

export const listAttempts = (db: DbExecutor, webhookId: string, limit: number) =>
  db
    .selectFrom('delivery_attempts')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('attempted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();

/** Events of the team since a time that this webhook has not received (no succeeded delivery); another webhook's test events never. */
export const undeliveredEventsSince = (db: DbExecutor, webhookId: string, teamId: string, since: string) =>
  db
    .selectFrom('events')
    .select(['events.id', 'events.type'])
    .where('events.team_id', '=', teamId)
    .where('events.created_at', '>=', since)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('webhook_test_events')
            .select('webhook_test_events.event_id')
            .whereRef('webhook_test_events.event_id', '=', 'events.id')
            .where('webhook_test_events.webhook_id', '!=', webhookId),
        ),
      ),
    )
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

/** The webhook a test event is addressed to, or undefined for an ordinary event. */
export const testEventTarget = (db: DbExecutor, eventId: string) =>
  db.selectFrom('webhook_test_events').select('webhook_id').where('event_id', '=', eventId).executeTakeFirst();

export const insertTestEvent = async (db: DbExecutor, event: Insertable<EventTable>, webhookId: string) => {
  await db.insertInto('events').values(event).execute();
  await db.insertInto('webhook_test_events').values({ event_id: event.id, webhook_id: webhookId }).execute();
};

/** A page of a webhook's deliveries, newest first, with their event's type. */
export const listDeliveries = (db: DbExecutor, webhookId: string, limit: number, offset: number) =>
  db
    .selectFrom('deliveries')
    .innerJoin('events', 'events.id', 'deliveries.event_id')
    .select([
      'deliveries.id',
      'deliveries.event_id',
      'events.type as event_type',
      'deliveries.status',
      'deliveries.attempts',
      'deliveries.next_attempt_at',
      'deliveries.first_attempt_at',
      'deliveries.last_attempt_at',
      'deliveries.completed_at',
      'deliveries.created_at',
    ])
    .where('deliveries.webhook_id', '=', webhookId)
    .orderBy('deliveries.created_at', 'desc')
    .orderBy('deliveries.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();

export const countDeliveries = async (db: DbExecutor, webhookId: string): Promise<number> => {
  const row = await db
    .selectFrom('deliveries')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('webhook_id', '=', webhookId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

export const attemptsOfDeliveries = (db: DbExecutor, deliveryIds: string[]) =>
  deliveryIds.length === 0
    ? Promise.resolve([])
    : db.selectFrom('delivery_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('attempt').orderBy('attempted_at').execute();

export const findDelivery = (db: DbExecutor, id: string) =>
  db.selectFrom('deliveries').select(['id', 'webhook_id', 'event_id', 'team_id']).where('id', '=', id).executeTakeFirst();

/** Finished deliveries of the team's webhooks since a time, per webhook and outcome (the success rate). */
export const deliveryOutcomes = (db: DbExecutor, teamId: string, since: string) =>
  db
    .selectFrom('deliveries')
    .select(['webhook_id', 'status', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('team_id', '=', teamId)
    .where('status', 'in', ['succeeded', 'failed'])
    .where('completed_at', '>=', since)
    .groupBy(['webhook_id', 'status'])
    .execute();

/** A webhook's latest attempt. */
export const lastAttempt = (db: DbExecutor, webhookId: string) =>
  db
    .selectFrom('delivery_attempts')
    .select(['attempted_at', 'status_code', 'error_class'])
    .where('webhook_id', '=', webhookId)
    .orderBy('attempted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
