import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { addRouteHook } from './route-hooks.js';
import { fingerprintOf, type IdempotencyService } from '../domain/idempotency/idempotency.service.js';
import type { StoredAnswer } from '../domain/idempotency/idempotency.types.js';
import { validationError } from '../domain/shared/errors.js';
import type { WriteOptions } from '../domain/shared/write-options.js';

/** The key a request claimed, and whether its answer is already stored with the record it created. */
interface IdempotencyClaim {
  teamId: string;
  key: string;
  /** Set once the route stored its answer in the write's transaction. */
  answered: boolean;
  /** Stores the answer on `executor` (the write's transaction). */
  store(answer: StoredAnswer, executor: Parameters<IdempotencyService['complete']>[3]): Promise<void>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** POSTs that honour Idempotency-Key (their handler stores its answer with `answerInTransaction`). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    idempotency: IdempotencyClaim | null;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * For the write of an idempotent route: when the request claimed an Idempotency-Key, the answer
 * (`statusCode`, and the JSON body `answer` builds from the write's result, serialized as the reply
 * serializes it) is stored inside the write's transaction, so the record and its stored answer
 * commit together or not at all. The route then sends that same answer.
 */
export function answerInTransaction<T>(request: FastifyRequest, statusCode: number | ((result: T) => number), answer: (result: T) => unknown): WriteOptions<T> {
  const claim = request.idempotency;
  if (!claim) return {};
  return {
    async inTransaction(trx, result) {
      const status = typeof statusCode === 'number' ? statusCode : statusCode(result);
      await claim.store({ statusCode: status, body: JSON.stringify(answer(result)) }, trx);
      claim.answered = true;
    },
  };
}

/**
 * Idempotency-Key with Stripe's semantics: the first response (status and body) is stored per team
 * and key for 24 hours; the same request again replays it with `Idempotent-Replayed: true` (the
 * handler does not run, so nothing is created and no event is emitted); the same key with another
 * body is 422; a retry while the first is still running is 409 IDEMPOTENCY_CONFLICT. Runs after
 * authentication and validation, so a rejected request never takes a key.
 *
 * A success is stored by the route, in the transaction that created the record (answerInTransaction).
 * Here, when the answer is sent: a 4xx (nothing was created) is stored as it is; a 5xx says nothing
 * about the request itself, so the key is released and a retry runs again.
 */
export function registerIdempotency(app: FastifyInstance, store: IdempotencyService): void {
  app.decorateRequest('idempotency', null);

  const idempotent = (route: RouteOptions) => Boolean(route.config?.idempotent);
  addRouteHook(app, 'preHandler', idempotent, async (request: FastifyRequest, reply: FastifyReply) => {
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
    request.idempotency = { teamId, key, answered: false, store: (answer, executor) => store.complete(teamId, key, answer, executor) };
  });

  addRouteHook(app, 'onSend', idempotent, async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = null;
    if (claim.answered) return payload;
    // A 5xx says nothing about the request itself: forget the key so a retry runs again.
    if (reply.statusCode >= 500 || typeof payload !== 'string') await store.release(claim.teamId, claim.key);
    else await store.complete(claim.teamId, claim.key, { statusCode: reply.statusCode, body: payload });
    return payload;
  });
}
