import type { DbExecutor } from '../../storage/executor.js';
import type { Insertable, Updateable } from 'kysely';
import type { WebhookTable } from '../../storage/database.js';

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

/** Events of the team since a time that this webhook has not received (no succeeded delivery). */
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
