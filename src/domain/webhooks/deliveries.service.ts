import type { Db } from '../../storage/db.js';
import type { DeliveryRow } from '../../storage/database.js';
import { isoNow, type Clock } from '../shared/clock.js';
import { eventPayload } from '../events/events.mapper.js';
import * as repo from './deliveries.repository.js';
import type { AttemptRecord, ClaimedDelivery, DeliveryContext, QueueStats } from './deliveries.types.js';

/** The delivery queue as the worker and the metrics see it: claims under a lease, bodies fixed at the first attempt, attempts recorded. */
export function createDeliveriesService(db: Db, { clock }: { clock: Clock }) {
  const k = db.kysely;

  return {
    /**
     * Takes a lease (`token`, for `leaseMs`) on up to `limit` due deliveries, with their events and
     * webhooks, and fixes the bodies of first attempts: three statements for the whole claim, whatever its size.
     */
    async claim(limit: number, token: string, leaseMs: number): Promise<ClaimedDelivery[]> {
      const now = clock.now();
      const claimed = await repo.claimDue(k, { now: now.toISOString(), leaseUntil: new Date(now.getTime() + leaseMs).toISOString(), token, limit });
      if (claimed.length === 0) return [];
      const contexts = await repo.deliveryContexts(
        k,
        claimed.map((d) => d.id),
      );
      const firsts = claimed.flatMap((d) => {
        const context = contexts.get(d.id);
        return d.body === null && context ? [{ id: d.id, body: eventPayload(context.event, context.hook.id) }] : [];
      });
      const fixed = await repo.fixBodies(k, token, firsts);
      return claimed.map((d) => ({ delivery: d.body === null && fixed.has(d.id) ? { ...d, body: fixed.get(d.id)! } : d, context: contexts.get(d.id) }));
    },

    /** The exact bytes of this attempt: the stored body, or the event's payload fixed now (later attempts reuse it byte for byte). */
    async bodyOf(delivery: DeliveryRow, token: string, { event, hook }: DeliveryContext): Promise<string> {
      return delivery.body ?? repo.fixBody(k, delivery.id, token, eventPayload(event, hook.id));
    },

    /** Records an attempt (see deliveries.repository.ts `recordAttempt`): `disabled` when this failure disabled the webhook. */
    record(attempt: AttemptRecord): Promise<{ recorded: boolean; disabled: boolean }> {
      return repo.recordAttempt(k, attempt);
    },

    /** Due deliveries of enabled webhooks, now (metrics read it at scrape time). */
    queueStats(): Promise<QueueStats> {
      return repo.pendingStats(k, isoNow(clock));
    },
  };
}

export type DeliveriesService = ReturnType<typeof createDeliveriesService>;
