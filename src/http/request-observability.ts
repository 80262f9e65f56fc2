import { createHash, timingSafeEqual } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { AppError } from '../domain/shared/errors.js';
import { REQUEST_ID_HEADER, requestIdOptions } from './request-id.js';

/** What the request hooks and GET /metrics need of the app's metrics registry (src/observability/metrics.ts). */
export interface RequestMetrics {
  readonly contentType: string;
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** The Prometheus text exposition. */
  render(): Promise<string>;
}

/**
 * Who may read `GET /metrics` on the app's own port: anyone ('open', development), callers with
 * `Authorization: Bearer <token>`, or nobody ('off': 404, the route does not exist).
 */
export type MetricsAccess = 'open' | 'off' | { token: string };

/**
 * Fastify options: the request id (see request-id.ts) under the log label `reqId`, and none of
 * Fastify's own per-request lines (registerRequestObservability writes one line per request instead).
 */
export function observabilityOptions() {
  return { ...requestIdOptions, logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'reqId' }) };
}

/** The route pattern (`/api/v1/deals/:id`), never the raw URL: bounded label values, no ids or search text in logs. */
export function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? 'unmatched';
}

/**
 * Every answer carries X-Request-Id; each request gives one log line when answered (id, method,
 * route, status, duration) and is counted. Fastify's own two lines per request are turned off
 * (`disableRequestLogging`): they carry the raw URL and nothing of the outcome but the status.
 */
export function registerRequestObservability(app: FastifyInstance, metrics: RequestMetrics): void {
  app.addHook('onRequest', (request, _reply, done) => {
    // At debug level only: shows requests that never finish (and which ones a shutdown accepted).
    if (request.log.level === 'debug' || request.log.level === 'trace')
      request.log.debug({ method: request.method, route: routeOf(request) }, 'incoming request');
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    answered(request, reply.statusCode, reply.elapsedTime, metrics);
    done();
  });
}

/**
 * The access line's logger: a child of the app's root logger without pino's redaction pass (issue 15:
 * redacting the line was ~1.5% of a GET by id, for nothing). Safe only because `answered` is its one
 * caller and writes a fixed shape: the request id (request-id.ts: short, from a safe alphabet), the
 * method, the route *pattern* (never the raw URL), the status and the duration. No header, body,
 * query or parameter ever reaches it; every other line keeps the redaction (process/logger.ts).
 * Same JSON, byte for byte, as `request.log` would write: the id where its binding would be.
 */
const accessLoggers = new WeakMap<FastifyBaseLogger, FastifyBaseLogger>();
function accessLogOf(request: FastifyRequest): FastifyBaseLogger {
  const root = request.server.log;
  let access = accessLoggers.get(root);
  if (!access) {
    access = root.child({}, { redact: [] });
    accessLoggers.set(root, access);
  }
  return access;
}

function answered(request: FastifyRequest, status: number, ms: number, metrics: RequestMetrics): void {
  const route = routeOf(request);
  metrics.observeRequest(request.method, route, status, ms / 1000);
  // A route with a log level of its own (none today) keeps its per-request logger.
  const durationMs = Math.round(ms * 100) / 100;
  if (request.log.level !== request.server.log.level) request.log.info({ method: request.method, route, status, durationMs }, 'request completed');
  else accessLogOf(request).info({ reqId: request.id, method: request.method, route, status, durationMs }, 'request completed');
}

type FrameworkErrorHandler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void;

/**
 * Router errors (bad percent-encoding, an over-long path parameter) are answered outside any route,
 * so no hook runs for them: the header, the log line and the count are added here.
 */
export function observeFrameworkErrors(handler: FrameworkErrorHandler, metrics: RequestMetrics): FrameworkErrorHandler {
  return (error, request, reply) => {
    const started = performance.now();
    reply.header(REQUEST_ID_HEADER, request.id);
    reply.raw.once('finish', () => answered(request, reply.statusCode, performance.now() - started, metrics));
    handler(error, request, reply);
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time: compares fixed-length digests, so neither the content nor the length of the token leaks. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const presented = /^Bearer ([\x21-\x7e]{1,1024})$/i.exec(authorization ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(presented), digest(token)) && presented.length > 0;
}

export const METRICS_UNAUTHORIZED = 'Token de métricas ausente ou inválido';

/** `GET /metrics` (outside /api/v1: no API key, not counted by the plan limits). */
export function metricsRoutes(metrics: RequestMetrics, access: MetricsAccess): FastifyPluginAsync {
  return async (app) => {
    if (access === 'off') return;
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (typeof access === 'object' && !bearerMatches(request.headers.authorization, access.token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new AppError(401, 'UNAUTHORIZED', METRICS_UNAUTHORIZED);
      }
      return reply.type(metrics.contentType).send(await metrics.render());
    });
  };
}

/** The main port's access rule from the configuration (METRICS_TOKEN, METRICS_PORT, NODE_ENV). */
export function metricsAccessFor(config: { mainPort: 'token' | 'open' | 'off'; token: string | null }): MetricsAccess {
  return config.mainPort === 'token' && config.token ? { token: config.token } : config.mainPort === 'open' ? 'open' : 'off';
}
