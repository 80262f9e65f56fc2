import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { registerAuth } from './http/auth.js';
import { registerErrorHandling, routerErrorHandler } from './http/error-handler.js';
import { registerInputGuard } from './http/input-guard.js';
import { registerIdempotency } from './http/idempotency.js';
import { registerJsonBody } from './http/json-body.js';
import { methodGuard, registerNotFound } from './http/method-guard.js';
import { clientErrorHandler } from './http/client-errors.js';
import { clientsRoutes } from './http/routes/clients.routes.js';
import { dealsRoutes } from './http/routes/deals.routes.js';
import { leadsRoutes } from './http/routes/leads.routes.js';
import { storesRoutes } from './http/routes/stores.routes.js';
import { healthRoutes } from './http/routes/health.routes.js';
import { homeRoutes } from './http/routes/home.routes.js';
import { previewRoutes } from './http/routes/preview-gate.js';
import { vehiclesRoutes } from './http/routes/vehicles.routes.js';
import { validatorCompiler } from './http/validator.js';
import { registerOpenApi } from './http/openapi/openapi.plugin.js';
import { registerDocsPage } from './http/openapi/docs-page.js';
import { openApiRoutes } from './http/routes/openapi.routes.js';
import { version } from './version.js';
import type { Db } from './storage/db.js';
import { createServices, type Services } from './app/services.js';
import type { RateLimiter } from './domain/ratelimit/rate-limiter.js';
import { metricsRoutes, observabilityOptions, observeFrameworkErrors, registerRequestObservability, type MetricsAccess } from './http/request-observability.js';
import { createMetrics, metricsSources, type Metrics } from './observability/metrics.js';
import { createSignInLimiter, type SignInLimiter } from './domain/ratelimit/sign-in-limiter.js';
import { registerPanelOpenApi, PANEL_PREFIX } from './http/panel/panel-openapi.js';
import { panelApi } from './http/panel/panel.plugin.js';
import { registerPanelApp } from './http/panel-app.js';

export const BODY_LIMIT = 1024 * 1024;

export interface AppOptions {
  db: Db;
  /** The domain services (src/app/services.ts); built around `db` with the system clock when absent. */
  services?: Services;
  /** Plan and unauthenticated-traffic limits; none when absent (tests that are not about limits). */
  rateLimiter?: RateLimiter | null;
  /** Honour X-Forwarded-For from this many proxies / these addresses (Fastify's trustProxy). */
  trustProxy?: boolean | string;
  logger?: FastifyServerOptions['logger'] | FastifyBaseLogger;
  /** This app's Prometheus metrics (a registry of its own); a fresh set when absent. */
  metrics?: Metrics;
  /** Who may read GET /metrics on this app: 'open', { token }, or 'off' (404; the default). */
  metricsAccess?: MetricsAccess;
  /** Told of every route as it is registered (the test suite's security matrix takes its route list from here). */
  onRoute?: (route: RouteOptions) => void;
  /** Sign-in throttling of the panel (per address and per e-mail); in memory unless given (server.ts passes Redis when configured). */
  signInLimiter?: SignInLimiter;
  /**
   * The address people open the panel at, for the links the server answers (password links): PUBLIC_URL,
   * or the server's configured address (server.ts). Read when a link is made; never taken from a request.
   */
  publicUrl?: () => string;
  /**
   * A request whose headers and body have not all arrived this long after it started is answered 408
   * (the envelope) and its connection closed; default 30 s (REQUEST_TIMEOUT_MS).
   */
  requestTimeoutMs?: number;
}

/** The default `serve` address, for an app built without one (tests). */
const DEFAULT_PUBLIC_URL = 'http://127.0.0.1:3000';

/** Builds the whole HTTP service around a database. Never listens: server.ts and tests decide that. */
export async function buildApp({
  db,
  services = createServices(db),
  logger = false,
  rateLimiter = null,
  trustProxy = false,
  metrics = createMetrics(metricsSources(db, services)),
  metricsAccess = 'off',
  onRoute,
  signInLimiter = createSignInLimiter(),
  publicUrl = () => DEFAULT_PUBLIC_URL,
  requestTimeoutMs = 30_000,
}: AppOptions): Promise<FastifyInstance> {
  const guard = methodGuard();
  const app = Fastify({
    ...(logger && typeof logger === 'object' && 'child' in logger ? { loggerInstance: logger } : { logger }),
    bodyLimit: BODY_LIMIT,
    trustProxy,
    // Long enough for slow clients, short enough that a stuck connection cannot hold a socket. Node checks
    // the timer of every open request at `connectionsCheckingInterval` (30 s by default, which let a
    // trickled body live up to twice the limit): a tenth of the limit, at most 1 s, keeps it tight.
    requestTimeout: requestTimeoutMs,
    http: { requestTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.min(1000, Math.max(10, Math.floor(requestTimeoutMs / 10))) },
    // Trailing slashes and repeated slashes name the same resource.
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    frameworkErrors: observeFrameworkErrors(routerErrorHandler, metrics),
    // Requests Node's HTTP parser refuses (malformed, oversized headers, timed out): the envelope too.
    clientErrorHandler: clientErrorHandler(guard),
    // X-Request-Id; one log line per request (our onResponse hook) instead of Fastify's two.
    ...observabilityOptions(),
    // While closing gracefully, a request arriving on an open connection is served (with Connection: close), not refused with 503.
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();
  if (onRoute) app.addHook('onRoute', onRoute);

  app.setValidatorCompiler(validatorCompiler());
  // Response schemas document the API (and the test suite validates every answer against them);
  // serialization stays plain JSON.stringify so a schema can never silently drop or reshape a field.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await registerOpenApi(app, version);
  await registerPanelOpenApi(app, version);
  registerErrorHandling(app);
  registerJsonBody(app);
  registerRequestObservability(app, metrics);
  registerAuth(app, services.keys, rateLimiter, (kind) => metrics.rateLimitRejected(kind));
  registerInputGuard(app);
  registerIdempotency(app, services.idempotency);

  guard.watch(app);
  registerNotFound(app, guard);
  // After the guard (405 on /docs paths too) and the hooks (X-Request-Id, logs, metrics).
  await registerDocsPage(app);
  await app.register(homeRoutes(version));
  await app.register(healthRoutes(db));
  await app.register(metricsRoutes(metrics, metricsAccess));
  await app.register(
    async (api) => {
      await api.register(dealsRoutes(services.deals));
      await api.register(clientsRoutes(services.clients));
      await api.register(leadsRoutes(services.leads));
      await api.register(vehiclesRoutes(services.vehicles));
      await api.register(storesRoutes(services.stores));
      // The announced endpoints: 501 unless a team's preview is on (src/http/routes/preview-gate.ts).
      await api.register(previewRoutes(services));
      await api.register(openApiRoutes);
    },
    { prefix: '/api/v1' },
  );
  await app.register(panelApi({ ...services, signInLimiter, publicUrl }), { prefix: PANEL_PREFIX });
  await registerPanelApp(app);
  guard.close(app);
  return app;
}
