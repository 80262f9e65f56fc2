import type { FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitHeaders, type Decision } from '../domain/ratelimit/rate-limiter.js';
import { AppError } from '../domain/shared/errors.js';

export const RATE_LIMIT_MESSAGE = 'Limite de requisições excedido. Tente novamente mais tarde.';

/** A 429 in the envelope, with Retry-After and the RateLimit fields. */
export function tooManyRequests(reply: FastifyReply, decision: Decision): AppError {
  reply.headers(rateLimitHeaders(decision));
  reply.header('retry-after', String(decision.retryAfterSeconds));
  return new AppError(429, 'RATE_LIMIT_EXCEEDED', `Limite de requisições excedido. Tente novamente em ${decision.retryAfterSeconds} s.`);
}

/**
 * Runs a limiter call; a failure of the limiter itself (not a rejection) lets the request through,
 * logged: an outage of the counters must not take the API down with it.
 */
export async function failOpen<T>(request: FastifyRequest, run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    request.log.warn({ err: error }, 'limitador de requisições indisponível; requisição liberada');
    return null;
  }
}
