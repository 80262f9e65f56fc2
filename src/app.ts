import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createClientsService } from './domain/clients/clients.service.js';
import { createDealsService } from './domain/deals/deals.service.js';
import { createApiKeysService } from './domain/teams/api-keys.service.js';
import { createTeamsService } from './domain/teams/teams.service.js';
import { registerAuth } from './http/auth.js';
import { registerErrorHandling, routerErrorHandler } from './http/error-handler.js';
import { registerNulGuard } from './http/nul-guard.js';
import { registerIdempotency } from './http/idempotency.js';
import { createIdempotencyStore } from './domain/idempotency/idempotency.store.js';
import { registerJsonBody } from './http/json-body.js';
import { methodGuard } from './http/method-guard.js';
import { clientsRoutes } from './http/routes/clients.routes.js';
import { dealsRoutes } from './http/routes/deals.routes.js';
import { healthRoutes } from './http/routes/health.routes.js';
import { unavailableRoutes } from './http/routes/unavailable.routes.js';
import { validatorCompiler } from './http/validator.js';
import type { Db } from './storage/db.js';
import type { RateLimiter } from './domain/ratelimit/rate-limiter.js';

export const BODY_LIMIT = 1024 * 1024;

export interface AppOptions {
  db: Db;
  /** Plan and unauthenticated-traffic limits; none when absent (tests that are not about limits). */
  rateLimiter?: RateLimiter | null;
  /** Honour X-Forwarded-For from this many proxies / these addresses (Fastify's trustProxy). */
  trustProxy?: boolean | string;
  logger?: FastifyServerOptions['logger'] | FastifyBaseLogger;
}

/** Builds the whole HTTP service around a database. Never listens: server.ts and tests decide that. */
export async function buildApp({ db, logger = false, rateLimiter = null, trustProxy = false }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(logger && typeof logger === 'object' && 'child' in logger ? { loggerInstance: logger as FastifyBaseLogger } : { logger }),
    bodyLimit: BODY_LIMIT,
    trustProxy,
    // Trailing slashes and repeated slashes name the same resource.
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    frameworkErrors: routerErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const teams = createTeamsService(db.kysely);
  const keys = createApiKeysService(db.kysely, teams);

  app.setValidatorCompiler(validatorCompiler());
  registerErrorHandling(app);
  registerJsonBody(app);
  registerAuth(app, keys, rateLimiter);
  registerNulGuard(app);
  registerIdempotency(app, createIdempotencyStore(db.kysely));

  const guard = methodGuard(app);
  await app.register(healthRoutes(db));
  await app.register(
    async (api) => {
      await api.register(dealsRoutes(createDealsService(db)));
      await api.register(clientsRoutes(createClientsService(db)));
      await api.register(unavailableRoutes);
    },
    { prefix: '/api/v1' },
  );
  guard.close();
  return app;
}
