import type { FastifyInstance } from 'fastify';
import { fingerprintOf, type IdempotencyService } from '../domain/idempotency/idempotency.service.js';
import { validationError } from '../domain/shared/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** POSTs that honour Idempotency-Key. */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    idempotency: { teamId: string; key: string } | null;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * Idempotency-Key with Stripe's semantics: the first response (status and body) is stored per team
 * and key for 24 hours; the same request again replays it with `Idempotent-Replayed: true` (the
 * handler does not run, so nothing is created and no event is emitted); the same key with another
 * body is 422; a retry while the first is still running is 409 IDEMPOTENCY_CONFLICT. Runs after
 * authentication and validation, so a rejected request never takes a key.
 */
export function registerIdempotency(app: FastifyInstance, store: IdempotencyService): void {
  app.decorateRequest('idempotency', null);

  app.addHook('preHandler', async (request, reply) => {
    if (!request.routeOptions.config.idempotent || !request.auth) return;
    const raw = request.headers[IDEMPOTENCY_HEADER];
    if (raw === undefined) return;
    const key = Array.isArray(raw) ? null : raw;
    if (!key || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
      throw validationError(`O cabeçalho Idempotency-Key deve ter de 1 a ${MAX_IDEMPOTENCY_KEY_LENGTH} caracteres`);
    }
    const teamId = request.auth.teamId;
    const begun = await store.begin(teamId, key, fingerprintOf(request.method, request.routeOptions.url ?? request.url, request.body));
    if (begun.kind === 'replay') {
      return reply.status(begun.statusCode).header('content-type', 'application/json; charset=utf-8').header('idempotent-replayed', 'true').send(begun.body);
    }
    request.idempotency = { teamId, key };
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = null;
    // A 5xx says nothing about the request itself: forget the key so a retry runs again.
    if (reply.statusCode >= 500 || typeof payload !== 'string') await store.release(claim.teamId, claim.key);
    else await store.complete(claim.teamId, claim.key, { statusCode: reply.statusCode, body: payload });
    return payload;
  });
}
