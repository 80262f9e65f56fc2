import type { DeliveryRow, EventRow, WebhookRow } from '../../storage/database.js';

export interface DeliveryContext {
  event: EventRow;
  hook: Pick<WebhookRow, 'id' | 'team_id' | 'url' | 'secret'>;
}

/** A delivery claimed under a lease, with its event and webhook (absent when either vanished). */
export interface ClaimedDelivery {
  delivery: DeliveryRow;
  context: DeliveryContext | undefined;
}

/** The outcome of one attempt, as the worker decided it. */
export interface AttemptRecord {
  deliveryId: string;
  /** The lease token of the claim: nothing is recorded when another worker holds the delivery now. */
  token: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  attemptId: string;
  attempt: number;
  attemptedAt: string;
  now: string;
  ok: boolean;
  /** A failure of the last attempt: the delivery is `failed`, and the webhook may be disabled. */
  finalFailure: boolean;
  nextAttemptAt: string | null;
  statusCode: number | null;
  errorClass: string | null;
  durationMs: number;
  responseBody: string | null;
  /** Stored as the webhook's disabled_reason when this failure disables it. */
  disabledReason: string;
}

/** Due deliveries of enabled webhooks: how many, and the oldest one's due time. */
export interface QueueStats {
  due: number;
  oldestDueAt: string | null;
}
