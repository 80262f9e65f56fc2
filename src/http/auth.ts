import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitHeaders, type Decision, type RateLimiter } from '../domain/ratelimit/rate-limiter.js';
import { hashApiKey, looksLikeApiKey, type ApiKeysService } from '../domain/teams/api-keys.service.js';
import type { AuthContext, Scope } from '../domain/teams/api-keys.types.js';
import { AppError, messages } from '../domain/shared/errors.js';
import { withPendingConfirmation, type Confirm } from '../domain/reads/read-confirmation.js';
import { failOpen, tooManyRequests } from './rate-limit.js';
import { addRouteHook } from './route-hooks.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
    /** A cached authentication waiting for the route's read to confirm it (`auth` holds the cached entry's meanwhile). */
    pendingAuth: Confirm | null;
  }
  interface FastifyContextConfig {
    /**
     * Authentication is required on routes that set this; a scope string also requires that scope.
     * `confirmedByRead`: the route's first read by the read planner also returns the auth_epoch
     * counter (domain/reads/read-confirmation.ts), so a cached authentication needs no read of its own.
     */
    auth?: { scope: Scope | null; confirmedByRead?: true };
  }
}

const BEARER = /^Bearer ([\x21-\x7e]{1,200})$/;

/** How many refused keys each process remembers, and for how long. */
const REFUSED_KEYS_MAX = 10_000;
const REFUSED_KEYS_TTL_MS = 60_000;

/**
 * Hashes of keys the database recently refused (unknown or revoked). A refused key never becomes
 * valid again (keys are 256 random bits and a revocation is final), so remembering it is always
 * right; it spares the database the lookup when an integrator retries a revoked key in a loop.
 * Bounded: the oldest entry goes first.
 */
function refusedKeys(now: () => number = Date.now) {
  const seen = new Map<string, number>();
  return {
    has(hash: string): boolean {
      const until = seen.get(hash);
      if (until === undefined) return false;
      if (until > now()) return true;
      seen.delete(hash);
      return false;
    },
    add(hash: string): void {
      seen.delete(hash);
      if (seen.size >= REFUSED_KEYS_MAX) seen.delete(seen.keys().next().value!);
      seen.set(hash, now() + REFUSED_KEYS_TTL_MS);
    },
  };
}

/**
 * Runs on `onRequest`, before the body is parsed or validated: a request without a valid key
 * learns nothing about the route beyond 401.
 *
 * Order (DECISIONS.md, Auth): the key is judged first and the address's failed-authentication budget
 * only for a request whose key is missing, malformed, unknown or revoked. So a valid key is served
 * even from an address over its budget (an integrator serving many teams from one address is not
 * locked out by one tenant's revoked key), and the budget never costs a valid request a counter
 * read. The database is still spared by bad keys: a missing header, another scheme, or a token that
 * is not of the issued shape (`ask_` + 43 base64url characters) is refused without any lookup, and
 * a key the database refused recently (in this process) is refused from memory. Only a well-formed
 * key not seen before costs one indexed lookup: it is the only way to know whether it is valid.
 */
export function registerAuth(
  app: FastifyInstance,
  keys: Pick<ApiKeysService, 'authenticate' | 'unconfirmed' | 'confirm'>,
  limiter: RateLimiter | null,
  /** Told of every 429 (metrics). */
  onRejected: (kind: 'plan' | 'unauthenticated') => void = () => undefined,
): void {
  const refused = refusedKeys();
  app.decorateRequest('auth', null);
  app.decorateRequest('pendingAuth', null);

  /** What follows authentication, for the hook and for a confirmation after the read alike: 401/429, the plan's budget, the scope. */
  async function admit(request: FastifyRequest, reply: FastifyReply, scope: Scope | null, auth: AuthContext | null): Promise<void> {
    const refuse = (kind: 'plan' | 'unauthenticated', decision: Decision) => {
      onRejected(kind);
      return tooManyRequests(reply, decision);
    };
    if (!auth) {
      // A failed authentication spends the address's budget; over it, the answer is 429 instead of 401.
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
    if (scope && !auth.scopes.has(scope)) throw new AppError(403, 'FORBIDDEN', messages.forbidden);
  }

  // Only on the routes that require a key (config.auth): the others never pay for it.
  addRouteHook(
    app,
    'onRequest',
    (route) => Boolean(route.config?.auth),
    async (request: FastifyRequest, reply: FastifyReply) => {
      const rule = request.routeOptions.config.auth;
      if (!rule) return;
      const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
      let auth: AuthContext | null = null;
      if (token !== undefined && looksLikeApiKey(token)) {
        const hash = hashApiKey(token);
        if (!refused.has(hash)) {
          const entry = rule.confirmedByRead && reachesHandler(request) ? keys.unconfirmed(token, hash) : null;
          if (entry) {
            // Nothing is decided yet (not even 403 or 429, which would rest on an unconfirmed entry): the route's read confirms it
            // first. The handler reads in the cached entry's team; nothing it read is answered before the confirmation.
            request.auth = entry.auth;
            request.pendingAuth = async (authEpoch) => {
              request.auth = null;
              const confirmed = await keys.confirm(token, entry, authEpoch);
              if (!confirmed) refused.add(hash);
              // A key never changes team; should it ever, what was read for the old one is not served.
              await admit(request, reply, rule.scope, confirmed && confirmed.teamId === entry.auth.teamId ? confirmed : null);
            };
            return;
          }
          auth = await keys.authenticate(token);
          if (!auth) refused.add(hash);
        }
      }
      await admit(request, reply, rule.scope, auth);
    },
  );

  // A route whose reads confirm a cached authentication: its handler runs with the confirmation
  // pending, which the read planner's first read settles with its own auth_epoch counter. Whatever the
  // handler did (no read at all, an error before its read), the authentication is settled in full
  // before anything is answered: a revoked key gets 401, never a 404, a 400 or the record.
  app.addHook('onRoute', (route) => {
    if (!route.config?.auth?.confirmedByRead) return;
    const handler = route.handler;
    route.handler = async function confirmedHandler(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const settle = request.pendingAuth;
      if (!settle) return handler.call(this, request, reply);
      request.pendingAuth = null;
      let settled = false;
      const once: Confirm = async (authEpoch) => {
        if (settled) return;
        settled = true;
        await settle(authEpoch);
      };
      try {
        const answer = await withPendingConfirmation(once, async () => handler.call(this, request, reply));
        await once(null);
        return answer;
      } catch (error) {
        await once(null);
        throw error;
      }
    };
  });
}

/**
 * Whether nothing between this hook and the route's handler can answer the request: a GET (Fastify
 * reads no body for it) whose URL is a plain path without a query string, so the input guard has
 * nothing to refuse and the id parameter is any string. Otherwise a pending authentication could
 * let a 400 through before the key is confirmed: such requests are authenticated in the hook.
 */
const PLAIN_PATH = /^[A-Za-z0-9/_.-]+$/;
const reachesHandler = (request: FastifyRequest) => request.method === 'GET' && PLAIN_PATH.test(request.url);

/** The authenticated caller's team; routes with `config.auth` always have one. */
export function teamOf(request: FastifyRequest): string {
  if (!request.auth) throw new AppError(401, 'UNAUTHORIZED', messages.unauthorized);
  return request.auth.teamId;
}
