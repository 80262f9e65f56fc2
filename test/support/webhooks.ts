import { inspect } from 'node:util';
import { createAlertMailer } from '../../src/alerts/alert-mailer.js';
import type { WebhooksService } from '../../src/domain/webhooks/webhooks.service.js';
import type { WebhookView } from '../../src/domain/webhooks/webhooks.types.js';
import type { Db } from '../../src/storage/db.js';
import type { DialectName } from '../../src/storage/dialect.js';
import { createServices } from '../../src/app/services.js';
import type { Logger } from '../../src/domain/shared/logger.js';
import { createDeliveryWorker, type DeliveryWorker } from '../../src/worker/delivery-worker.js';
import { createWebhookSender, type SendResult } from '../../src/worker/webhook-sender.js';
import { shiftedClock, type FakeClock } from './clock.js';
import { createHarness, type Caller, type Harness } from './harness.js';
import { startHttpsReceiver, type HttpsReceiver, type ReceivedRequest } from './https-receiver.js';
import { startSmtpListener, type SmtpListener } from './smtp-listener.js';

/**
 * Shared setup for event and webhook-delivery tests: a harness on one dialect, a real SMTP
 * listener, HTTPS receivers (trusted through NODE_EXTRA_CA_CERTS), a capturing logger and
 * in-process delivery workers with a compressed retry schedule.
 *
 *   const rig = await createWebhookRig('sqlite');
 *   const receiver = await rig.receiver();
 *   const t = await rig.team({ alertEmail: 'ops@loja.com.br' });
 *   const hook = await rig.hook(t.teamId, receiver.url);
 *   await t.post('/deals', { title: 'Negócio' });
 *   await rig.drain();                      // everything due now is sent
 *   ...
 *   await rig.settle();                     // afterEach: nothing left for the next test
 *   await rig.close();                      // afterAll
 */

/** Six attempts, like the contract, with the delays compressed to milliseconds. */
export const RETRY_SCHEDULE = [0, 50, 50, 50, 50, 50];
export const TIMEOUT_MS = 1000;
export const POLL_MS = 20;

export interface LogCall {
  level: 'debug' | 'info' | 'warn' | 'error';
  obj: object;
  msg: string;
}

export interface CapturingLogger extends Logger {
  calls: LogCall[];
  /** Every call rendered deeply (errors included), for "never appears in the logs" checks. */
  text(): string;
}

export function captureLogger(): CapturingLogger {
  const calls: LogCall[] = [];
  const at = (level: LogCall['level']) => (obj: object, msg: string) => {
    calls.push({ level, obj, msg });
  };
  return {
    calls,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    text: () => calls.map((c) => `${c.level} ${c.msg} ${inspect(c.obj, { depth: 20, showHidden: true })}`).join('\n'),
  };
}

/** The delivery body of the contract's Events part. */
export interface WebhookPayload {
  id: string;
  type: string;
  api_version: string;
  created_at: string;
  data: { object: Record<string, unknown>; previous_attributes: Record<string, unknown> | null };
  team_id: string;
  webhook_id: string;
}

export const payloadOf = (req: ReceivedRequest): WebhookPayload => JSON.parse(req.body) as WebhookPayload;

/** Requests of `receiver` whose body is for webhook `webhookId`, in arrival order. */
export const requestsFor = (receiver: HttpsReceiver, webhookId: string): ReceivedRequest[] =>
  receiver.requests.filter((req) => {
    try {
      return payloadOf(req).webhook_id === webhookId;
    } catch {
      return false;
    }
  });

export interface WorkerOptions {
  db?: Db;
  allowPrivateTargets?: boolean;
  timeoutMs?: number;
  retrySchedule?: number[];
  concurrency?: number;
  pollMs?: number;
  onAttempt?: (result: SendResult) => void;
}

export interface WebhookRig {
  dialect: DialectName;
  h: Harness;
  db: Db;
  smtp: SmtpListener;
  logger: CapturingLogger;
  webhooks: WebhooksService;
  /**
   * The time of the app, the services and every worker of the rig: the real time plus what the test
   * advanced. Retries fall due by advancing it (drain does), not by sleeping.
   */
  clock: FakeClock;
  /** The default worker: private targets allowed, compressed schedule. */
  worker: DeliveryWorker;
  /** Every signing secret handed out by `hook` or `rotate` (for leak checks). */
  secrets: string[];
  makeWorker(options?: WorkerOptions): DeliveryWorker;
  /** A new HTTPS receiver, closed by `close()`. */
  receiver(): Promise<HttpsReceiver>;
  /** A new team (optionally with an alert e-mail) and a caller with an all-scopes key. */
  team(options?: { alertEmail?: string }): Promise<Caller>;
  hook(teamId: string, url: string, events?: string[]): Promise<WebhookView & { secret: string }>;
  rotate(webhookId: string): Promise<WebhookView & { secret: string }>;
  /**
   * Runs `worker.runOnce()` repeatedly. Without `until`: until a run finds nothing due now.
   * With `until`: until it holds, advancing the clock by `intervalMs` (the longest compressed retry
   * delay by default) between runs, so the next retry is due.
   * Bounded by `maxRuns`; resolves with whether the goal was reached.
   */
  drain(options?: { until?: () => boolean | Promise<boolean>; maxRuns?: number; intervalMs?: number; worker?: DeliveryWorker }): Promise<boolean>;
  /** Ends every pending delivery so later tests' workers do not pick it up. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

let counter = 0;

export async function createWebhookRig(
  dialect: DialectName,
  harnessOptions: Omit<Parameters<typeof createHarness>[1] & object, 'clock'> = {},
): Promise<WebhookRig> {
  const clock = shiftedClock();
  // The receivers listen on this machine: the rig's services accept private targets unless told otherwise.
  const h = await createHarness(dialect, { clock, allowPrivateWebhookTargets: true, ...harnessOptions });
  const db = h.testDb.db;
  const smtp = await startSmtpListener();
  const logger = captureLogger();
  const { teams, webhooks } = h.services;
  const receivers: HttpsReceiver[] = [];
  const mailers: Array<{ close(): void }> = [];
  const senders: Array<{ close(): void }> = [];
  const secrets: string[] = [];

  // Every receiver shares one certificate: trust it before any sender is created.
  const first = await startHttpsReceiver();
  receivers.push(first);
  const originalExtraCa = process.env.NODE_EXTRA_CA_CERTS;
  process.env.NODE_EXTRA_CA_CERTS = first.caFile;

  function makeWorker(options: WorkerOptions = {}): DeliveryWorker {
    const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
    const mailer = createAlertMailer({ smtpUrl: smtp.url, logger });
    mailers.push(mailer);
    const sender = createWebhookSender({ timeoutMs, allowPrivateTargets: options.allowPrivateTargets ?? true });
    senders.push(sender);
    const workerDb = options.db ?? db;
    const services = options.db ? createServices(options.db, { clock, allowPrivateWebhookTargets: true }) : h.services;
    return createDeliveryWorker({
      deliveries: services.deliveries,
      teams: services.teams,
      clock: services.clock,
      dialect: workerDb.dialect,
      sender,
      mailer,
      config: { timeoutMs, retrySchedule: options.retrySchedule ?? RETRY_SCHEDULE, pollMs: options.pollMs ?? POLL_MS, concurrency: options.concurrency ?? 8 },
      logger,
      // PostgreSQL: a started worker LISTENs, as the configured one does.
      ...(workerDb.dialect === 'postgres' ? { listenUrl: h.testDb.url } : {}),
      ...(options.onAttempt ? { onAttempt: options.onAttempt } : {}),
    });
  }

  const worker = makeWorker();

  return {
    dialect,
    h,
    db,
    smtp,
    logger,
    webhooks,
    clock,
    worker,
    secrets,
    makeWorker,
    async receiver() {
      const receiver = await startHttpsReceiver();
      receivers.push(receiver);
      return receiver;
    },
    async team(options = {}) {
      const team = await teams.create({ name: `Loja Webhooks ${++counter} ${dialect}`, alertEmail: options.alertEmail ?? null });
      return h.key(team.id);
    },
    async hook(teamId, url, events = []) {
      const created = await webhooks.create({ teamId, url, events });
      secrets.push(created.secret);
      return created;
    },
    async rotate(webhookId) {
      const rotated = await webhooks.rotateSecret(webhookId);
      secrets.push(rotated.secret);
      return rotated;
    },
    async drain(options = {}) {
      const w = options.worker ?? worker;
      const maxRuns = options.maxRuns ?? 100;
      const intervalMs = options.intervalMs ?? Math.max(...RETRY_SCHEDULE);
      for (let run = 0; run < maxRuns; run++) {
        const worked = await w.runOnce();
        if (options.until) {
          if (await options.until()) return true;
          clock.advance(intervalMs);
        } else if (worked === 0) {
          return true;
        }
      }
      return options.until ? Boolean(await options.until()) : false;
    },
    async settle() {
      await db.kysely
        .updateTable('deliveries')
        .set({ status: 'failed', lease_until: null, lease_token: null, next_attempt_at: null })
        .where('status', '=', 'pending')
        .execute();
    },
    async close() {
      await Promise.all(receivers.map((r) => r.close()));
      for (const mailer of mailers) mailer.close();
      for (const sender of senders) sender.close();
      await smtp.close();
      await h.close();
      if (originalExtraCa === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
      else process.env.NODE_EXTRA_CA_CERTS = originalExtraCa;
    },
  };
}
