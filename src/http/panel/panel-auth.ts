import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import csrfProtection from '@fastify/csrf-protection';
import type { SessionsService } from '../../domain/sessions/sessions.service.js';
import type { PanelContext } from '../../domain/sessions/sessions.types.js';
import { AppError } from '../../domain/shared/errors.js';
import { roleAllows, type Role } from '../../domain/users/users.types.js';

/** The panel's session cookie (PANEL.md): HttpOnly, SameSite=Lax, Path=/, Secure behind HTTPS. */
export const SESSION_COOKIE = 'autosales_session';
export const CSRF_HEADER = 'x-csrf-token';

export const panelMessages = {
  unauthorized: 'Sessão ausente ou expirada. Entre novamente.',
  forbidden: 'Seu papel na equipe não permite esta ação',
  csrf: 'Token CSRF ausente ou inválido. Recarregue a página e tente de novo.',
} as const;

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user of a panel request (routes whose `config.panel` names a role). */
    panel: PanelContext | null;
    /** What @fastify/csrf-protection reads the secret from (its `@fastify/session` mode): the session row's CSRF secret. */
    session: { _csrf?: string } | null;
  }
  interface FastifyContextConfig {
    /**
     * Every /panel/api route sets this. `role`: the least role that may use the route (owner >
     * manager > seller), or `null` for the routes used before signing in. `csrf: false` only on
     * those routes too (sign-in, password links): no session, so no token yet.
     */
    panel?: { role: Role | null; csrf?: boolean };
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Sets the session cookie (its lifetime is the session's absolute one). */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date): void {
  reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https', expires: expiresAt });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https' });
}

/** A CSRF token for the request's session (any number may be issued; each one is valid while the session lives). */
export function csrfTokenFor(request: FastifyRequest, reply: FastifyReply, csrfSecret: string): string {
  request.session = { _csrf: csrfSecret };
  return reply.generateCsrf();
}

/**
 * Session authentication, roles and CSRF for the /panel/api scope (registered inside it, after
 * @fastify/cookie). Runs on `onRequest`: an unauthenticated or refused request learns nothing of the
 * body's validation. A route without `config.panel` is refused (the role matrix test also checks
 * that every panel route declares one).
 */
export async function registerPanelAuth(app: FastifyInstance, sessions: Pick<SessionsService, 'resolve'>): Promise<void> {
  // The token check is @fastify/csrf-protection's (HMAC of a salt with the secret, compared in
  // constant time); in its session mode it reads the secret from request.session, which we fill
  // from the session row: tokens are bound to the session and die with it, in every process.
  await app.register(csrfProtection, { sessionPlugin: '@fastify/session', getToken: (request) => request.headers[CSRF_HEADER] as string | undefined });
  app.decorateRequest('panel', null);
  app.decorateRequest('session', null);

  const checkCsrf = (request: FastifyRequest) =>
    new Promise<void>((resolve, reject) => {
      const refuse = { send: () => reject(new AppError(403, 'CSRF_INVALID', panelMessages.csrf)) } as unknown as FastifyReply;
      app.csrfProtection(request, refuse, () => resolve());
    });

  app.addHook('onRequest', async (request) => {
    const rule = request.routeOptions.config.panel;
    if (!rule) {
      // Unknown paths are 404/405 (their handlers); a registered route without a rule never runs.
      if (request.routeOptions.url && !request.is404) throw new AppError(403, 'FORBIDDEN', panelMessages.forbidden);
      return;
    }
    if (rule.role === null) return;
    const token = request.cookies[SESSION_COOKIE];
    const context = token ? await sessions.resolve(token) : null;
    if (!context) throw new AppError(401, 'UNAUTHORIZED', panelMessages.unauthorized);
    request.panel = context;
    request.session = { _csrf: context.csrfSecret };
    if (!roleAllows(context.user.role, rule.role)) throw new AppError(403, 'FORBIDDEN', panelMessages.forbidden);
    if (rule.csrf !== false && STATE_CHANGING.has(request.method)) await checkCsrf(request);
  });
}

/** The signed-in user's context; routes with a role always have one. */
export function panelOf(request: FastifyRequest): PanelContext {
  if (!request.panel) throw new AppError(401, 'UNAUTHORIZED', panelMessages.unauthorized);
  return request.panel;
}
