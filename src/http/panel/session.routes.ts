import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SignInLimiter } from '../../domain/ratelimit/sign-in-limiter.js';
import type { SessionsService } from '../../domain/sessions/sessions.service.js';
import { AppError, notFound } from '../../domain/shared/errors.js';
import type { TeamsService } from '../../domain/teams/teams.service.js';
import { userMessages, type UsersService } from '../../domain/users/users.service.js';
import type { UserView } from '../../domain/users/users.types.js';
import { failOpen, tooManyRequests } from '../rate-limit.js';
import { clearSessionCookie, csrfTokenFor, panelMessages, panelOf, SESSION_COOKIE, setSessionCookie } from './panel-auth.js';
import { ChangePasswordBody, failure, LinkInfo, NoContent, PasswordBody, SessionAnswer, SignInBody, TokenParams } from './panel.schemas.js';

export interface SessionRoutesDeps {
  sessions: SessionsService;
  users: UsersService;
  teams: Pick<TeamsService, 'find'>;
  signInLimiter: SignInLimiter;
}

const tags = ['Sessão'];
const publicRoute = { panel: { role: null, csrf: false } } as const;
const anyone = { panel: { role: 'seller' } } as const;
const unauthorized = failure('No session, or it expired (idle or absolute), or its user was deactivated.', ['UNAUTHORIZED', panelMessages.unauthorized]);
const csrf = failure('X-CSRF-Token missing or not a token of this session.', ['CSRF_INVALID', panelMessages.csrf]);

/** Sign-in, the session, sign-out, password change and the one-time password links. */
export function sessionRoutes({ sessions, users, teams, signInLimiter }: SessionRoutesDeps): FastifyPluginAsyncTypebox {
  async function answer(user: Pick<UserView, 'id' | 'email' | 'name' | 'role' | 'team_id'>, csrfToken: string) {
    const team = await teams.find(user.team_id);
    if (!team) throw new AppError(401, 'UNAUTHORIZED', panelMessages.unauthorized);
    return {
      success: true as const,
      data: {
        user: { id: user.id, email: user.email, name: user.name, role: user.role },
        team: { id: team.id, name: team.name, plan: team.plan, time_zone: team.time_zone },
        csrf_token: csrfToken,
      },
    };
  }

  /** Opens a session for `user`, replacing any session the browser still presented. */
  async function signIn(request: FastifyRequest, reply: FastifyReply, user: UserView) {
    const previous = request.cookies[SESSION_COOKIE];
    if (previous) {
      const old = await sessions.resolve(previous);
      if (old) await sessions.end(old.sessionId);
    }
    const session = await sessions.create(user.id, { ip: request.ip, userAgent: request.headers['user-agent'] ?? null });
    setSessionCookie(request, reply, session.token, session.expiresAt);
    reply.header('cache-control', 'no-store');
    return answer(user, csrfTokenFor(request, reply, session.csrfSecret));
  }

  return async (app) => {
    app.post(
      '/session',
      {
        config: publicRoute,
        schema: {
          tags,
          operationId: 'signIn',
          summary: 'Sign in',
          description:
            'Sets the `autosales_session` cookie (HttpOnly, SameSite=Lax, Secure behind HTTPS). The same message for an unknown e-mail, a wrong password and a deactivated user. Throttled per address, per (e-mail, address) and per e-mail; an address with no recent failure for the e-mail is never refused for the e-mail.',
          body: SignInBody,
          response: {
            200: { ...SessionAnswer, description: 'Signed in.' },
            400: failure('Malformed body.', ['VALIDATION_ERROR', "Campo 'email' é obrigatório"]),
            401: failure('Wrong e-mail or password.', ['UNAUTHORIZED', userMessages.invalidCredentials]),
            429: failure('Too many attempts from this address, or failures for this e-mail from it.', [
              'RATE_LIMIT_EXCEEDED',
              'Limite de requisições excedido. Tente novamente em 42 s.',
            ]),
          },
        },
      },
      async (request, reply) => {
        const { email, password } = request.body;
        const decision = await failOpen(request, () => signInLimiter.attempt(request.ip, email));
        if (decision && !decision.allowed) throw tooManyRequests(reply, decision);
        const user = await users.authenticate(email, password);
        if (!user) {
          await failOpen(request, () => signInLimiter.failed(request.ip, email));
          throw new AppError(401, 'UNAUTHORIZED', userMessages.invalidCredentials);
        }
        await failOpen(request, () => signInLimiter.succeeded(request.ip, email));
        return signIn(request, reply, user);
      },
    );

    app.get(
      '/session',
      {
        config: anyone,
        schema: {
          tags,
          operationId: 'getSession',
          summary: 'The signed-in user, the team and a CSRF token',
          response: { 200: { ...SessionAnswer, description: 'The session is valid.' }, 401: unauthorized },
        },
      },
      async (request, reply) => {
        const context = panelOf(request);
        reply.header('cache-control', 'no-store');
        return answer({ ...context.user, team_id: context.team.id }, csrfTokenFor(request, reply, context.csrfSecret));
      },
    );

    app.delete(
      '/session',
      {
        config: anyone,
        schema: {
          tags,
          operationId: 'signOut',
          summary: 'Sign out',
          description: 'Ends the session in the database (in every process) and clears the cookie.',
          response: { 204: NoContent, 401: unauthorized, 403: csrf },
        },
      },
      async (request, reply) => {
        await sessions.end(panelOf(request).sessionId);
        clearSessionCookie(request, reply);
        return reply.status(204).send(null);
      },
    );

    app.put(
      '/me/password',
      {
        config: anyone,
        schema: {
          tags,
          operationId: 'changePassword',
          summary: 'Change my password',
          description:
            'Every other session of the user ends; this one goes on. Wrong current passwords are throttled per session and per user, as sign-in is: over budget, 429 before the password is checked.',
          body: ChangePasswordBody,
          response: {
            204: NoContent,
            400: failure(
              'Wrong current password, or a new one that is too short.',
              ['VALIDATION_ERROR', userMessages.currentPasswordWrong],
              ['VALIDATION_ERROR', userMessages.passwordTooShort],
            ),
            401: unauthorized,
            403: csrf,
            429: failure('Too many wrong current passwords in this session or for this user.', [
              'RATE_LIMIT_EXCEEDED',
              'Limite de requisições excedido. Tente novamente em 42 s.',
            ]),
          },
        },
      },
      async (request, reply) => {
        const context = panelOf(request);
        const decision = await failOpen(request, () => signInLimiter.passwordCheck(context.sessionId, context.user.id));
        if (decision && !decision.allowed) throw tooManyRequests(reply, decision);
        try {
          await users.changePassword(context.user.id, request.body.current_password, request.body.new_password, context.sessionId);
        } catch (error) {
          // Only a wrong current password counts (a too-short new one is not a guess).
          if (error instanceof AppError && error.extras.field === 'current_password')
            await failOpen(request, () => signInLimiter.passwordCheckFailed(context.sessionId, context.user.id));
          throw error;
        }
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/password-links/:token',
      {
        config: publicRoute,
        schema: {
          tags,
          operationId: 'getPasswordLink',
          summary: 'Who a one-time password link is for',
          params: TokenParams,
          response: {
            200: { ...LinkInfo, description: 'The link works.' },
            404: failure('Unknown, used or expired link.', ['NOT_FOUND', userMessages.linkInvalid]),
          },
        },
      },
      async (request, reply) => {
        const info = await users.linkInfo(request.params.token);
        if (!info) throw notFound(userMessages.linkInvalid);
        reply.header('cache-control', 'no-store');
        return { success: true as const, data: info };
      },
    );

    app.post(
      '/password-links/:token',
      {
        config: publicRoute,
        schema: {
          tags,
          operationId: 'usePasswordLink',
          summary: 'Set the password through a one-time link (and sign in)',
          description: "The link stops working; every earlier session of the user ends; the answer is a new session, as the sign-in's.",
          params: TokenParams,
          body: PasswordBody,
          response: {
            200: { ...SessionAnswer, description: 'Password set; signed in.' },
            400: failure('Password too short.', ['VALIDATION_ERROR', userMessages.passwordTooShort]),
            404: failure('Unknown, used or expired link.', ['NOT_FOUND', userMessages.linkInvalid]),
          },
        },
      },
      async (request, reply) => {
        const user = await users.setPasswordWithLink(request.params.token, request.body.password);
        return signIn(request, reply, user);
      },
    );
  };
}
