import type { FastifyInstance } from 'fastify';
import { messages } from '../domain/shared/errors.js';
import { envelope } from './error-handler.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * Records every route's path and methods while routes are registered; `close()` then answers the
 * other methods on those paths with 405 and an `Allow` header, instead of the router's 404.
 */
export function methodGuard(app: FastifyInstance) {
  const known = new Map<string, Set<string>>();
  let closed = false;
  app.addHook('onRoute', (route) => {
    if (closed) return;
    const methods = known.get(route.url) ?? new Set<string>();
    for (const m of [route.method].flat()) methods.add(m);
    known.set(route.url, methods);
  });
  return {
    close() {
      closed = true;
      for (const [url, methods] of known) {
        const missing = METHODS.filter((m) => !methods.has(m));
        if (missing.length === 0) continue;
        const allow = [...methods].join(', ');
        app.route({
          method: [...missing],
          url,
          schema: { hide: true },
          handler: async (_request, reply) => reply.status(405).header('allow', allow).send(envelope('METHOD_NOT_ALLOWED', messages.methodNotAllowed)),
        });
      }
    },
  };
}
