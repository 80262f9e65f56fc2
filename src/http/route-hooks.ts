import type { FastifyInstance, RouteOptions } from 'fastify';

type Stage = 'onRequest' | 'preHandler' | 'onSend';

/**
 * Adds `hook` at `stage` to the routes registered from now on whose options pass `applies`, instead
 * of to every request (issue 15): an app-wide async hook costs every request a promise and a turn of
 * the microtask queue even when it has nothing to do there (the API key on /health, the
 * Idempotency-Key on a GET). A route's own hooks run after the app-wide ones of the same stage.
 */
export function addRouteHook(app: FastifyInstance, stage: Stage, applies: (route: RouteOptions) => boolean, hook: (...args: never[]) => unknown): void {
  app.addHook('onRoute', (route) => {
    if (!applies(route)) return;
    const existing = route[stage] as unknown;
    const hooks: unknown[] = existing === undefined ? [] : Array.isArray(existing) ? (existing as unknown[]) : [existing];
    (route as unknown as Record<Stage, unknown>)[stage] = [...hooks, hook];
  });
}
