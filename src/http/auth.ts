import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitHeaders, type Decision, type RateLimiter } from '../domain/ratelimit/rate-limiter.js';
import type { ApiKeysService } from '../domain/teams/api-keys.service.js';
import type { AuthContext, Scope } from '../domain/teams/api-keys.types.js';
import { AppError, messages } from '../domain/shared/errors.js';
import { failOpen, tooManyRequests } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** Authentication is required on routes that set this; a scope string also requires that scope. */
    auth?: { scope: Scope | null };
  }
}

const BEARER = /^Bearer ([\x21-\x7e]{1,200})$/;

/**
 * Runs on `onRequest`, before the body is parsed or validated: a request without a valid key
 * learns nothing about the route beyond 401.
 */
export function registerAuth(
  app: FastifyInstance,
  keys: Pick<ApiKeysService, 'authenticate'>,
  limiter: RateLimiter | null,
  /** Told of every 429 (metrics). */
  onRejected: (kind: 'plan' | 'unauthenticated') => void = () => undefined,
): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const rule = request.routeOptions.config.auth;
    if (!rule) return;
    const refuse = (kind: 'plan' | 'unauthenticated', decision: Decision) => {
      onRejected(kind);
      return tooManyRequests(reply, decision);
    };
    // An IP that spent its budget of failed authentications is refused before any key lookup.
    const blocked = limiter && (await failOpen(request, () => limiter.isIpBlocked(request.ip)));
    if (blocked) throw refuse('unauthenticated', blocked);
    const match = BEARER.exec(request.headers.authorization ?? '');
    const auth = match ? await keys.authenticate(match[1]!) : null;
    if (!auth) {
      const counted = limiter && (await failOpen(request, () => limiter.consumeUnauthenticated(request.ip)));
      if (counted && !counted.allowed) throw refuse('unauthenticated', counted);
      throw new AppError(401, 'UNAUTHORIZED', messages.unauthorized);
    }
    request.auth = auth;
    // The plan's budget is the team's, shared by all its keys; counted after authentication.
    const decision = limiter && (await failOpen(request, () => limiter.consume(auth.teamId, auth.plan)));
    if (decision) {
      if (!decision.allowed) throw refuse('plan', decision);
      reply.headers(rateLimitHeaders(decision));
    }
    if (rule.scope && !auth.scopes.has(rule.scope)) throw new AppError(403, 'FORBIDDEN', messages.forbidden);
  });
}

/** The authenticated caller's team; routes with `config.auth` always have one. */
export function teamOf(request: FastifyRequest): string {
  if (!request.auth) throw new AppError(401, 'UNAUTHORIZED', messages.unauthorized);
  return request.auth.teamId;
}
