import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '../domain/shared/errors.js';
import { envelope } from './error-handler.js';

/** Methods the guard answers with a route of its own (Fastify routes only the methods it knows). */
const GUARDED = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

interface Pattern {
  regex: RegExp;
  /** Per segment: 2 static, 1 parameter, 0 wildcard; the router prefers static over parameter over wildcard. */
  rank: number[];
  allow: string;
}

function compile(url: string, allow: string): Pattern {
  const segments = url.split('/').filter(Boolean);
  const rank = segments.map((s) => (s === '*' ? 0 : s.startsWith(':') ? 1 : 2));
  const source = segments.map((s) => (s === '*' ? '(?:/.*)?' : s.startsWith(':') ? '/[^/]+' : `/${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)).join('');
  return { regex: new RegExp(`^${source}/?$`), rank, allow };
}

const byPreference = (a: Pattern, b: Pattern): number => {
  for (let i = 0; i < Math.max(a.rank.length, b.rank.length); i++) {
    const diff = (b.rank[i] ?? -1) - (a.rank[i] ?? -1);
    if (diff !== 0) return diff;
  }
  return 0;
};

/**
 * Records every route's path and methods while routes are registered; `close()` then answers the
 * other common methods on those paths with 405 and an `Allow` header, instead of the router's 404.
 * `allowed(url)` tells the same for any other method (TRACE, PROPFIND, PURGE, LOCK…, which Fastify
 * does not route, and tokens Node's parser does not even know; see not-found and client-errors).
 */
export function methodGuard() {
  const known = new Map<string, Set<string>>();
  let closed = false;
  let patterns: Pattern[] = [];
  return {
    watch(app: FastifyInstance): void {
      app.addHook('onRoute', (route) => {
        if (closed) return;
        const methods = known.get(route.url) ?? new Set<string>();
        for (const m of [route.method].flat()) methods.add(m);
        known.set(route.url, methods);
      });
    },

    close(app: FastifyInstance): void {
      closed = true;
      for (const [url, methods] of known) {
        const allow = [...methods].join(', ');
        patterns.push(compile(url, allow));
        const missing = GUARDED.filter((m) => !methods.has(m));
        if (missing.length === 0) continue;
        app.route({
          method: [...missing],
          url,
          schema: { hide: true },
          handler: async (_request, reply) => reply.status(405).header('allow', allow).send(envelope('METHOD_NOT_ALLOWED', messages.methodNotAllowed)),
        });
      }
      patterns = patterns.sort(byPreference);
    },

    /** The `Allow` value of the route the URL's path names, or null when no route has this path. */
    allowed(url: string): string | null {
      const path = url.split('?', 1)[0]!.replace(/\/{2,}/g, '/');
      return patterns.find((p) => p.regex.test(path))?.allow ?? null;
    },
  };
}

export type MethodGuard = ReturnType<typeof methodGuard>;

/**
 * What no route answers: 405 with `Allow` on a known path (any method), else 404. No key needed for
 * either. Answered as soon as the request arrives, before its body is read: a body sent to no route
 * cannot turn the answer into 413/415/400 (nor can QUERY's mandatory Content-Type).
 */
export function registerNotFound(app: FastifyInstance, guard: Pick<MethodGuard, 'allowed'>): void {
  const answer = (request: FastifyRequest, reply: FastifyReply) => {
    const allow = guard.allowed(request.url);
    if (allow) return reply.status(405).header('allow', allow).send(envelope('METHOD_NOT_ALLOWED', messages.methodNotAllowed));
    return reply.status(404).send(envelope('NOT_FOUND', messages.routeNotFound));
  };
  // A plain callback, not an async function: no promise per request (issue 15). Answered here, `done` is not called.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.is404) answer(request, reply);
    else done();
  });
  app.setNotFoundHandler(answer);
}
