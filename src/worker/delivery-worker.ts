import { randomUUID } from 'node:crypto';
import type { AlertMailer } from '../alerts/alert-mailer.js';
import type { WebhookConfig } from '../config.js';
import { onDeliveriesQueued } from '../domain/events/delivery-signal.js';
import { systemClock, type Clock } from '../domain/shared/clock.js';
import { newId } from '../domain/shared/ids.js';
import type { Logger } from '../domain/shared/logger.js';
import type { TeamsService } from '../domain/teams/teams.service.js';
import type { DeliveriesService } from '../domain/webhooks/deliveries.service.js';
import type { ClaimedDelivery, DeliveryContext } from '../domain/webhooks/deliveries.types.js';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, signPayload } from '../domain/webhooks/signature.js';
import type { DeliveryRow } from '../storage/database.js';
import type { DialectName } from '../storage/dialect.js';
import { listenForDeliveries, type DeliveryListener } from './delivery-listener.js';
import type { SendResult } from './webhook-sender.js';

export interface DeliveryWorkerDeps {
  /** The queue (src/app/services.ts): claims, bodies, attempt records. */
  deliveries: Pick<DeliveriesService, 'claim' | 'bodyOf' | 'record'>;
  /** Whom to alert when a webhook is disabled. */
  teams: Pick<TeamsService, 'find'>;
  /** SQLite: commits of this process wake the worker in-process. PostgreSQL: see `listenUrl`. */
  dialect: DialectName;
  /** Timestamps of attempts and retries; the system clock by default. */
  clock?: Clock;
  /** `close`, when present, runs once the worker has stopped (the HTTPS sender closes its pooled connections). */
  sender: { send(url: string, body: string, headers: Record<string, string>): Promise<SendResult>; close?(): void };
  mailer: Pick<AlertMailer, 'webhookDisabled'>;
  config: Pick<WebhookConfig, 'timeoutMs' | 'retrySchedule' | 'pollMs' | 'concurrency'>;
  logger: Logger;
  /** Observes each finished attempt (metrics later). */
  onAttempt?(result: SendResult): void;
  /**
   * PostgreSQL only: URL for the worker's own LISTEN connection, which wakes it when a transaction
   * that queued deliveries commits, in this process or another. Without it the worker polls.
   */
  listenUrl?: string;
}

export interface DeliveryWorker {
  /** Claims and sends what is due now (one batch of up to `concurrency`); resolves with how many attempts were made. */
  runOnce(): Promise<number>;
  /**
   * Runs until `stop()`: keeps up to `concurrency` attempts in flight, claiming more as they finish;
   * when nothing is due, waits for a wake (a commit that queued deliveries) or the poll interval.
   */
  start(): void;
  /** Claims at once instead of at the next poll (a commit that queued deliveries does this). */
  wake(): void;
  /** Stops claiming, waits for the attempts in progress to finish and be recorded, then closes connections. */
  stop(): Promise<void>;
}

export function createDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  const { deliveries, sender, mailer, config, logger } = deps;
  const clock = deps.clock ?? systemClock;
  const isoAfter = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();
  const maxAttempts = config.retrySchedule.length;
  // Longer than any attempt can take, so a live worker never loses its lease mid-attempt.
  const leaseMs = config.timeoutMs * 2 + 10_000;
  let running = false;
  let loop: Promise<void> | undefined;
  /** Attempts in progress; each removes itself when recorded. */
  const inFlight = new Set<Promise<void>>();
  /** Claim at the next free slot: a wake arrived, the poll interval passed, or the last claim filled every slot. */
  let due = false;
  /** Resolves the loop's current wait, if it is waiting. */
  let nudge: (() => void) | undefined;
  const poke = (): void => {
    const resolve = nudge;
    nudge = undefined;
    resolve?.();
  };
  let stopSignals: Array<() => Promise<void>> = [];

  async function attempt(delivery: DeliveryRow, token: string, context: DeliveryContext): Promise<void> {
    const { event, hook } = context;
    const body = await deliveries.bodyOf(delivery, token, context);
    const started = clock.now();
    const timestamp = Math.floor(started.getTime() / 1000);
    const startedAt = started.toISOString();
    const result = await sender.send(hook.url, body, {
      'content-type': 'application/json',
      'user-agent': 'autosales-webhooks/1',
      [SIGNATURE_HEADER]: signPayload(hook.secret, timestamp, body),
      [TIMESTAMP_HEADER]: String(timestamp),
      [EVENT_ID_HEADER]: event.id,
    });
    deps.onAttempt?.(result);

    const number = delivery.attempts + 1;
    // A blocked target is refused before any connection; retrying would only knock again (and tell a
    // prober nothing new): the delivery fails at once, and the webhook is disabled with the reason.
    const blocked = result.errorClass === 'blocked';
    const finalFailure = !result.ok && (blocked || number >= maxAttempts);
    const now = clock.now().toISOString();
    const { disabled } = await deliveries.record({
      deliveryId: delivery.id,
      token, // nothing is recorded if our lease expired and another worker owns this delivery now
      webhookId: hook.id,
      eventId: event.id,
      eventType: event.type,
      attemptId: newId(),
      attempt: number,
      attemptedAt: startedAt,
      now,
      ok: result.ok,
      finalFailure,
      nextAttemptAt: result.ok || finalFailure ? null : isoAfter(config.retrySchedule[number]!),
      statusCode: result.statusCode,
      errorClass: result.errorClass,
      durationMs: result.durationMs,
      responseBody: result.responseBody,
      disabledReason: reasonFor(number, event.id, result),
    });

    logger.debug(
      { delivery: delivery.id, event: event.id, webhook: hook.id, attempt: number, status: result.statusCode, error: result.errorClass, ms: result.durationMs },
      result.ok ? 'webhook entregue' : 'tentativa de webhook falhou',
    );
    if (result.errorClass === 'blocked') {
      // The operator's usual first stumble (a receiver on localhost): say why, at warn, every time.
      // The host only: a URL's query string may carry a receiver's token.
      logger.warn(
        { webhook: hook.id, event: event.id, delivery: delivery.id, attempt: number, target: hostOf(hook.url), reason: 'private_target' },
        'entrega de webhook bloqueada: o destino resolve para um endereço privado, de loopback ou link-local; para testes locais defina WEBHOOK_ALLOW_PRIVATE_TARGETS=true no processo serve/worker',
      );
    }
    if (disabled) {
      // Only the record that flipped the webhook to disabled sends the alert: exactly one e-mail.
      const team = await deps.teams.find(hook.team_id);
      logger.warn({ webhook: hook.id, url: hook.url }, 'webhook desativado após falhas consecutivas');
      await mailer.webhookDisabled({
        to: team?.alert_email ?? null,
        teamName: team?.name ?? hook.team_id,
        webhookId: hook.id,
        url: hook.url,
        reason: reasonFor(number, event.id, result),
        disabledAt: now,
      });
    }
  }

  const attemptLogged = (d: DeliveryRow, token: string, context: DeliveryContext | undefined): Promise<void> =>
    (context ? attempt(d, token, context) : Promise.reject(new Error('evento ou webhook da entrega não encontrado'))).catch((error: unknown) => {
      // The lease expires and the attempt is made again; nothing is lost.
      logger.error({ err: error, delivery: d.id }, 'erro ao processar entrega de webhook');
    });

  async function runOnce(): Promise<number> {
    const token = randomUUID();
    const claimed = await deliveries.claim(config.concurrency, token, leaseMs);
    await Promise.all(claimed.map(({ delivery, context }) => attemptLogged(delivery, token, context)));
    return claimed.length;
  }

  function launch(d: DeliveryRow, token: string, context: DeliveryContext | undefined): void {
    const task = attemptLogged(d, token, context).finally(() => {
      inFlight.delete(task);
      poke(); // a slot is free
    });
    inFlight.add(task);
  }

  /**
   * Rolling claim: no batch barrier. Each claim takes at most the free slots (one lease token per
   * claim) and the attempts run on their own; a claim that filled every free slot means more is
   * probably due, so the next one happens as soon as a slot frees. Otherwise the loop sleeps until
   * a wake or the poll deadline, which finishing attempts do not push back.
   */
  async function run(): Promise<void> {
    let nextPollAt = 0;
    due = true;
    while (running) {
      const free = config.concurrency - inFlight.size;
      if (due && free > 0) {
        due = false;
        nextPollAt = Date.now() + config.pollMs;
        const token = randomUUID();
        let claimed: ClaimedDelivery[] = [];
        try {
          claimed = await deliveries.claim(free, token, leaseMs);
        } catch (error) {
          // Whatever was claimed is retried when its lease expires.
          logger.error({ err: error }, 'erro no laço de entregas de webhook');
        }
        for (const { delivery, context } of claimed) launch(delivery, token, context);
        if (claimed.length === free) due = true;
        continue;
      }
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        nudge = resolve;
        if (!due) {
          timer = setTimeout(
            () => {
              due = true;
              poke();
            },
            Math.max(0, nextPollAt - Date.now()),
          );
        }
      });
      clearTimeout(timer);
    }
    await Promise.all(inFlight);
  }

  function wake(): void {
    due = true;
    poke();
  }

  return {
    runOnce,
    wake,
    start() {
      if (running) return;
      running = true;
      // SQLite: commits in this process signal in-process. PostgreSQL: NOTIFY, from any process.
      if (deps.dialect === 'sqlite') {
        const unsubscribe = onDeliveriesQueued(wake);
        stopSignals.push(() => Promise.resolve(unsubscribe()));
      }
      if (deps.dialect === 'postgres' && deps.listenUrl) {
        const listener: DeliveryListener = listenForDeliveries({ url: deps.listenUrl, onSignal: wake, logger });
        stopSignals.push(() => listener.close());
      }
      loop = run();
    },
    async stop() {
      running = false;
      poke();
      await loop;
      const closing = stopSignals;
      stopSignals = [];
      await Promise.all(closing.map((close) => close()));
      deps.sender.close?.();
    },
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '(URL inválida)';
  }
}

function reasonFor(attempts: number, eventId: string, result: SendResult): string {
  if (result.errorClass === 'blocked')
    return `destino bloqueado: a URL aponta para um endereço privado, de loopback ou link-local (evento ${eventId}); corrija a URL e ative o webhook`;
  const last = result.statusCode !== null ? `HTTP ${result.statusCode}` : (result.errorClass ?? 'erro');
  return `${attempts} tentativas consecutivas falharam (evento ${eventId}; último resultado: ${last})`;
}
