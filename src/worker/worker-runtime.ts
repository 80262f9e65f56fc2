import { createAlertMailer } from '../alerts/alert-mailer.js';
import type { Services } from '../app/services.js';
import type { Config } from '../config.js';
import type { Logger } from '../domain/shared/logger.js';
import type { DialectName } from '../storage/dialect.js';
import { createDeliveryWorker, type DeliveryWorker, type DeliveryWorkerDeps } from './delivery-worker.js';
import { createWebhookSender } from './webhook-sender.js';

export interface ConfiguredWorkerOptions {
  /** From the composition root (src/app/services.ts). */
  services: Pick<Services, 'deliveries' | 'teams' | 'clock'>;
  dialect: DialectName;
  config: Config;
  logger: Logger;
  onAttempt?: DeliveryWorkerDeps['onAttempt'];
}

/** The delivery worker as configured from the environment: real HTTPS sender (keep-alive, guarded), SMTP (or logged) alerts. */
export function createConfiguredWorker({ services, dialect, config, logger, onAttempt }: ConfiguredWorkerOptions): DeliveryWorker & { close(): Promise<void> } {
  const mailer = createAlertMailer({ smtpUrl: config.smtpUrl ?? undefined, from: config.alertEmailFrom, logger });
  if (config.webhooks.allowPrivateTargets)
    logger.warn({}, 'WEBHOOK_ALLOW_PRIVATE_TARGETS=true: webhooks podem apontar para endereços privados (use só em desenvolvimento)');
  const worker = createDeliveryWorker({
    deliveries: services.deliveries,
    teams: services.teams,
    clock: services.clock,
    dialect,
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
    ...(dialect === 'postgres' ? { listenUrl: config.databaseUrl } : {}),
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
