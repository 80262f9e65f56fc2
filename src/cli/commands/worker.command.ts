import { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { createLogger } from '../../process/logger.js';
import { exitOnShutdownSignal } from '../../process/shutdown.js';
import { createServices } from '../../app/services.js';
import { createMetrics, metricsSources } from '../../observability/metrics.js';
import { startMetricsServer } from '../../observability/metrics-server.js';
import { createDb } from '../../storage/db.js';
import { migrateToLatest } from '../../storage/migrator.js';
import { createConfiguredWorker } from '../../worker/worker-runtime.js';
import { createScheduler } from '../../scheduler/scheduler.js';

/** The delivery worker on its own (any number may run against one PostgreSQL database). */
export function workerCommand(): Command {
  return new Command('worker')
    .description(
      'run the webhook delivery worker and the scheduler of time-driven events, without the API (env: DATABASE_URL, WEBHOOK_*, SCHEDULER, SCHEDULER_POLL_MS, SMTP_URL, METRICS_PORT)',
    )
    .action(async () => {
      const config = loadConfig();
      const logger = createLogger(config.logLevel);
      // An attempt holds a connection only for its one recording statement (claims take three per batch),
      // so DATABASE_POOL_MAX bounds the pool: several workers must fit in PostgreSQL's max_connections.
      const db = createDb(config.databaseUrl, {
        poolMax: Math.max(2, Math.min(config.webhooks.concurrency + 1, config.databasePoolMax)),
        groupCommit: config.sqliteGroupCommit,
      });
      await migrateToLatest(db);
      const services = createServices(db, { databaseUrl: config.databaseUrl });
      const metrics = createMetrics(metricsSources(db, services));
      // With METRICS_PORT, the worker's own delivery counts and the queue gauges are scraped from it, as from `serve`.
      const { port: metricsPort, host: metricsHost } = config.metrics;
      const metricsServer = metricsPort === null ? null : await startMetricsServer(metrics, { port: metricsPort, host: metricsHost });
      if (metricsServer) logger.info({ address: metricsServer.address }, 'métricas em /metrics');
      const worker = createConfiguredWorker({ services, dialect: db.dialect, config, logger, onAttempt: (result) => metrics.webhookAttempt(result) });
      worker.start();
      logger.info({}, 'worker de webhooks iniciado');
      const scheduler = config.scheduler.enabled
        ? createScheduler({ schedule: services.schedule, ai: services.ai, aiRefresh: services.aiServing, logger, pollMs: config.scheduler.pollMs })
        : null;
      scheduler?.start();
      if (scheduler) logger.info({}, 'agendador de eventos programados iniciado');
      // Finish and record the attempts in progress, then close the database.
      exitOnShutdownSignal(logger, () => Promise.all([worker.close(), scheduler?.stop(), metricsServer?.close()]).then(() => db.close()), {
        message: 'encerrando worker',
      });
    });
}
