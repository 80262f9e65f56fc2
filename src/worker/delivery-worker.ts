import { randomUUID } from 'node:crypto';
import type { AlertMailer } from '../alerts/alert-mailer.js';
import type { WebhookConfig } from '../config.js';
import { eventPayload } from '../domain/events/events.repository.js';
import { newId } from '../domain/shared/ids.js';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, signPayload } from '../domain/webhooks/signature.js';
import type { Db } from '../storage/db.js';
import type { DeliveryRow } from '../storage/database.js';
import { claimDue, fixBody, heldDelivery } from './delivery-store.js';
import type { SendResult } from './webhook-sender.js';

export interface WorkerLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface DeliveryWorkerDeps {
  db: Db;
  sender: { send(url: string, body: string, headers: Record<string, string>): Promise<SendResult> };
  mailer: Pick<AlertMailer, 'webhookDisabled'>;
  config: Pick<WebhookConfig, 'timeoutMs' | 'retrySchedule' | 'pollMs' | 'concurrency'>;
  logger: WorkerLogger;
  /** Observes each finished attempt (metrics later). */
  onAttempt?(result: SendResult): void;
}

export interface DeliveryWorker {
  /** Claims and sends what is due now; resolves with how many attempts were made. */
  runOnce(): Promise<number>;
  start(): void;
  /** Stops polling and waits for the attempts in progress to finish and be recorded. */
  stop(): Promise<void>;
}

const isoAfter = (ms: number) => new Date(Date.now() + ms).toISOString();

export function createDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  const { db, sender, mailer, config, logger } = deps;
  const k = db.kysely;
  const maxAttempts = config.retrySchedule.length;
  // Longer than any attempt can take, so a live worker never loses its lease mid-attempt.
  const leaseMs = config.timeoutMs * 2 + 10_000;
  let running = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;

  async function attempt(delivery: DeliveryRow, token: string): Promise<void> {
    const [event, hook] = await Promise.all([
      k.selectFrom('events').selectAll().where('id', '=', delivery.event_id).executeTakeFirstOrThrow(),
      k.selectFrom('webhooks').selectAll().where('id', '=', delivery.webhook_id).executeTakeFirstOrThrow(),
    ]);
    const body = delivery.body ?? (await fixBody(k, delivery.id, token, eventPayload(event, hook.id)));
    const timestamp = Math.floor(Date.now() / 1000);
    const startedAt = new Date().toISOString();
    const result = await sender.send(hook.url, body, {
      'content-type': 'application/json',
      'user-agent': 'autosales-webhooks/1',
      [SIGNATURE_HEADER]: signPayload(hook.secret, timestamp, body),
      [TIMESTAMP_HEADER]: String(timestamp),
      [EVENT_ID_HEADER]: event.id,
    });
    deps.onAttempt?.(result);

    const number = delivery.attempts + 1;
    const finalFailure = !result.ok && number >= maxAttempts;
    const nextAttemptAt = result.ok || finalFailure ? null : isoAfter(config.retrySchedule[number]!);
    const now = new Date().toISOString();
    const disabled = await k.transaction().execute(async (trx) => {
      const held = await heldDelivery(trx, db.dialect, delivery.id, token);
      if (!held) return false; // our lease expired and another worker owns this delivery now
      const firstAttemptAt = held.first_attempt_at ? new Date(held.first_attempt_at).toISOString() : startedAt;
      await trx
        .insertInto('delivery_attempts')
        .values({
          id: newId(),
          delivery_id: delivery.id,
          webhook_id: hook.id,
          event_id: event.id,
          event_type: event.type,
          attempt: number,
          attempted_at: startedAt,
          status_code: result.statusCode,
          error_class: result.errorClass,
          duration_ms: result.durationMs,
          response_body: result.responseBody,
          next_attempt_at: nextAttemptAt,
        })
        .execute();
      await trx
        .updateTable('deliveries')
        .set({
          status: result.ok ? 'succeeded' : finalFailure ? 'failed' : 'pending',
          attempts: number,
          next_attempt_at: nextAttemptAt,
          lease_until: null,
          lease_token: null,
          first_attempt_at: firstAttemptAt,
          last_attempt_at: startedAt,
          completed_at: result.ok || finalFailure ? now : null,
        })
        .where('id', '=', delivery.id)
        .execute();
      if (result.ok) {
        await trx.updateTable('webhooks').set({ last_success_at: now }).where('id', '=', hook.id).execute();
        return false;
      }
      if (!finalFailure) return false;
      // "Six consecutive failed attempts", read per webhook: nothing delivered since this delivery began.
      const flipped = await trx
        .updateTable('webhooks')
        .set({ status: 'disabled', disabled_reason: reasonFor(maxAttempts, event.id, result), disabled_at: now, updated_at: now })
        .where('id', '=', hook.id)
        .where('status', '=', 'enabled')
        .where((eb) => eb.or([eb('last_success_at', 'is', null), eb('last_success_at', '<', firstAttemptAt)]))
        .executeTakeFirst();
      return Number(flipped.numUpdatedRows) === 1;
    });

    logger.debug(
      { delivery: delivery.id, event: event.id, webhook: hook.id, attempt: number, status: result.statusCode, error: result.errorClass, ms: result.durationMs },
      result.ok ? 'webhook entregue' : 'tentativa de webhook falhou',
    );
    if (disabled) {
      // Only the transaction that flipped the webhook to disabled sends the alert: exactly one e-mail.
      const team = await k.selectFrom('teams').select(['name', 'alert_email']).where('id', '=', hook.team_id).executeTakeFirst();
      logger.warn({ webhook: hook.id, url: hook.url }, 'webhook desativado após falhas consecutivas');
      await mailer.webhookDisabled({
        to: team?.alert_email ?? null,
        teamName: team?.name ?? hook.team_id,
        webhookId: hook.id,
        url: hook.url,
        reason: reasonFor(maxAttempts, event.id, result),
        disabledAt: now,
      });
    }
  }

  async function runOnce(): Promise<number> {
    const token = randomUUID();
    const now = new Date().toISOString();
    const claimed = await claimDue(k, db.dialect, { now, leaseUntil: isoAfter(leaseMs), token, limit: config.concurrency });
    await Promise.all(
      claimed.map((d) =>
        attempt(d, token).catch((error: unknown) => {
          // The lease expires and the attempt is made again; nothing is lost.
          logger.error({ err: error, delivery: d.id }, 'erro ao processar entrega de webhook');
        }),
      ),
    );
    return claimed.length;
  }

  async function run(): Promise<void> {
    while (running) {
      let worked = 0;
      try {
        worked = await runOnce();
      } catch (error) {
        logger.error({ err: error }, 'erro no laço de entregas de webhook');
      }
      if (worked === 0 && running) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, config.pollMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
      }
    }
  }

  return {
    runOnce,
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
    },
  };
}

function reasonFor(attempts: number, eventId: string, result: SendResult): string {
  const last = result.statusCode !== null ? `HTTP ${result.statusCode}` : (result.errorClass ?? 'erro');
  return `${attempts} tentativas consecutivas falharam (evento ${eventId}; último resultado: ${last})`;
}
