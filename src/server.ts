import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { panelBaseUrl, sessionSettingsOf, type Config } from './config.js';
import { createDb, type Db } from './storage/db.js';
import { migrateToLatest } from './storage/migrator.js';
import { createConfiguredWorker } from './worker/worker-runtime.js';
import { createScheduler } from './scheduler/scheduler.js';
import { createRateLimiter } from './domain/ratelimit/rate-limiter.js';
import { createRedis } from './domain/ratelimit/redis-client.js';
import { createSignInLimiter } from './domain/ratelimit/sign-in-limiter.js';
import { createServices } from './app/services.js';
import { createLogger } from './process/logger.js';
import { exitOnShutdownSignal } from './process/shutdown.js';
import { gracefulDrain } from './http/graceful-close.js';
import { metricsAccessFor } from './http/request-observability.js';
import { createMetrics, metricsSources } from './observability/metrics.js';
import { startMetricsServer } from './observability/metrics-server.js';

export interface RunningServer {
  app: FastifyInstance;
  db: Db;
  address: string;
  close(): Promise<void>;
}

/** Opens the database, applies pending migrations, and listens. */
export async function startServer(config: Config): Promise<RunningServer> {
  const db = createDb(config.databaseUrl, {
    poolMax: config.databasePoolMax,
    groupCommit: config.sqliteGroupCommit,
    checkpoints: config.sqliteBackgroundCheckpoints ? 'background' : 'inline',
    readWorkers: config.sqliteReadWorkers,
  });
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const redis = config.rateLimits.redisUrl ? createRedis(config.rateLimits.redisUrl, logger) : null;
  if (!config.rateLimits.enabled) logger.warn({}, 'RATE_LIMITS=off: limites de requisição por plano desligados');
  const rateLimiter = createRateLimiter({
    redis,
    planLimits: config.rateLimits.enabled,
    unauthenticatedPerMinute: config.rateLimits.unauthenticatedPerMinute,
  });
  const services = createServices(db, {
    sessionSettings: sessionSettingsOf(config),
    authCache: config.authCache,
    allowPrivateWebhookTargets: config.webhooks.allowPrivateTargets,
    databaseUrl: config.databaseUrl,
  });
  const metrics = createMetrics(metricsSources(db, services));
  let publicUrl = panelBaseUrl(config);
  const app = await buildApp({
    db,
    services,
    logger,
    rateLimiter,
    trustProxy: config.trustProxy,
    metrics,
    metricsAccess: metricsAccessFor(config.metrics),
    // Panel sign-in throttling shares the counters of every process through Redis when configured.
    signInLimiter: createSignInLimiter({ redis }),
    // Links use PUBLIC_URL, or this server's configured address (its real port once listening, for PORT=0).
    publicUrl: () => publicUrl,
    requestTimeoutMs: config.requestTimeoutMs,
  });
  const connections = gracefulDrain(app);
  const address = await app.listen({ port: config.port, host: config.host });
  publicUrl = panelBaseUrl({ ...config, port: (app.server.address() as AddressInfo).port });
  const { port: metricsPort, host: metricsHost } = config.metrics;
  const metricsServer =
    metricsPort === null
      ? null
      : await startMetricsServer(metrics, { port: metricsPort, host: metricsHost }).catch(async (error: unknown) => {
          await app.close();
          await db.close();
          redis?.disconnect();
          throw error;
        });
  if (metricsServer) app.log.info({ address: metricsServer.address }, 'métricas em /metrics');
  const worker = config.webhooks.workerInServe
    ? createConfiguredWorker({ services, dialect: db.dialect, config, logger: app.log, onAttempt: (result) => metrics.webhookAttempt(result) })
    : null;
  worker?.start();
  // Time-driven events; safe in every process at once (the claim is in the database). SCHEDULER=off: none here.
  const scheduler = config.scheduler.enabled
    ? createScheduler({ schedule: services.schedule, ai: services.ai, aiRefresh: services.aiServing, logger: app.log, pollMs: config.scheduler.pollMs })
    : null;
  scheduler?.start();
  // Idempotency records are replayable for 24 h; older ones are dropped once an hour.
  const purge = setInterval(() => {
    services.idempotency.purgeExpired().catch((error: unknown) => app.log.warn({ err: error }, 'falha ao limpar chaves de idempotência expiradas'));
    // Expired panel sessions too (a session is also removed when it is presented after expiring).
    services.sessions.purgeExpired().catch((error: unknown) => app.log.warn({ err: error }, 'falha ao limpar sessões expiradas do painel'));
  }, 3_600_000);
  purge.unref();
  let closing: Promise<void> | undefined;
  return {
    app,
    db,
    address,
    close: () =>
      (closing ??= (async () => {
        // Stop accepting and let in-flight requests and the delivery in progress finish, then close the database.
        clearInterval(purge);
        await Promise.all([connections.drain().then(() => app.close()), worker?.close(), scheduler?.stop(), metricsServer?.close()]);
        await db.close();
        redis?.disconnect();
      })()),
  };
}

/** Owns the process: SIGTERM/SIGINT close the server gracefully, then exit. */
export async function runServer(config: Config): Promise<void> {
  const server = await startServer(config);
  server.app.log.info({ address: server.address, database: config.databaseUrl.split(':')[0] }, 'autosales ouvindo');
  exitOnShutdownSignal(server.app.log, () => server.close(), { message: 'encerrando' });
}
