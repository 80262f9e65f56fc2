import { createAlertMailer } from '../alerts/alert-mailer.js';
import type { Config } from '../config.js';
import type { Db } from '../storage/db.js';
import { createDeliveryWorker, type DeliveryWorker, type DeliveryWorkerDeps, type WorkerLogger } from './delivery-worker.js';
import { createWebhookSender } from './webhook-sender.js';

/** The delivery worker as configured from the environment: real HTTPS sender (keep-alive, guarded), SMTP (or logged) alerts. */
export function createConfiguredWorker(
  db: Db,
  config: Config,
  logger: WorkerLogger,
  onAttempt?: DeliveryWorkerDeps['onAttempt'],
): DeliveryWorker & { close(): Promise<void> } {
  const mailer = createAlertMailer({ smtpUrl: config.smtpUrl ?? undefined, from: config.alertEmailFrom, logger });
  if (config.webhooks.allowPrivateTargets) logger.warn({}, 'WEBHOOK_ALLOW_PRIVATE_TARGETS=true: webhooks podem apontar para endereços privados (use só em desenvolvimento)');
  const worker = createDeliveryWorker({
    db,
    sender: createWebhookSender({
      timeoutMs: config.webhooks.timeoutMs,
      allowPrivateTargets: config.webhooks.allowPrivateTargets,
      // Every attempt in flight may go to the same receiver.
      maxSocketsPerOrigin: config.webhooks.concurrency,
    }),
    mailer,
    config: config.webhooks,
    logger,
    // PostgreSQL: a dedicated LISTEN connection wakes the worker at each commit that queued deliveries.
    ...(db.dialect === 'postgres' ? { listenUrl: config.databaseUrl } : {}),
    ...(onAttempt ? { onAttempt } : {}),
  });
  return {
    ...worker,
    async close() {
      await worker.stop();
      mailer.close();
    },
  };
}
