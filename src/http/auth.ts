import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeysService, AuthContext, Scope } from '../domain/teams/api-keys.service.js';
import { AppError, messages } from '../errors.js';

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
export function registerAuth(app: FastifyInstance, keys: Pick<ApiKeysService, 'authenticate'>): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const rule = request.routeOptions.config.auth;
    if (!rule) return;
    const match = BEARER.exec(request.headers.authorization ?? '');
    const auth = match ? await keys.authenticate(match[1]!) : null;
    if (!auth) throw new AppError(401, 'UNAUTHORIZED', messages.unauthorized);
    if (rule.scope && !auth.scopes.has(rule.scope)) throw new AppError(403, 'FORBIDDEN', messages.forbidden);
    request.auth = auth;
  });
}

/** The authenticated caller's team; routes with `config.auth` always have one. */
export function teamOf(request: FastifyRequest): string {
  if (!request.auth) throw new AppError(401, 'UNAUTHORIZED', messages.unauthorized);
  return request.auth.teamId;
}
