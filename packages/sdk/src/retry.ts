import { AutosalesError, ConflictError, ConnectionError, RateLimitError, ServerError } from './errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RetrySettings {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Cap of the first backoff; each retry doubles it. */
  baseDelayMs: number;
  /** Largest backoff cap. */
  maxDelayMs: number;
  /** A 429 asking to wait longer than this is not waited for: the RateLimitError reaches the caller. */
  maxRetryAfterSeconds: number;
}

/**
 * "Full jitter" exponential backoff: a uniformly random wait in [0, min(maxDelayMs, baseDelayMs·2^retry)),
 * so many clients failing together do not come back together. `retry` counts from 0.
 */
export function backoffDelay(retry: number, settings: Pick<RetrySettings, 'baseDelayMs' | 'maxDelayMs'>, random: () => number = Math.random): number {
  const cap = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** retry);
  return Math.floor(random() * cap);
}

/**
 * Whether a request may run twice without harm, so a failure that may have happened after the
 * service acted on it (a 5xx, a cut connection, a timeout) can be retried:
 * - GET: reads.
 * - PUT: the body sets fields to given values; a repeat converges on the same record, and a PUT that
 *   changes nothing emits no event.
 * - DELETE: archiving or deactivating is documented idempotent (a repeat answers the same, emits nothing).
 * - POST: only with an Idempotency-Key (the service replays the first answer; nothing is created twice).
 */
export function isRetrySafe(method: HttpMethod, idempotencyKey: string | undefined): boolean {
  return method !== 'POST' || idempotencyKey !== undefined;
}

/**
 * How long to wait before retry number `retry` (from 0) after `error`, or null to give up and throw it.
 *
 * - 429: always retried, whatever the method: the service executed nothing. Waits `Retry-After` (plus a
 *   jitter below the base delay) when sent, unless it exceeds `maxRetryAfterSeconds`; else backoff.
 * - 409 IDEMPOTENCY_CONFLICT: always retried with backoff: the first request with this key is still
 *   running and nothing was executed for this one; the retry gets the first one's answer replayed.
 * - 5xx (not 501), connection errors, timeouts: retried with backoff when the request is retry-safe.
 * - Anything else (4xx, 501): never retried; the answer will not change.
 */
export function retryDelay(
  error: AutosalesError,
  retry: number,
  retrySafe: boolean,
  settings: RetrySettings,
  random: () => number = Math.random,
): number | null {
  if (retry >= settings.maxRetries) return null;
  if (error instanceof RateLimitError) {
    if (error.retryAfter === null) return backoffDelay(retry, settings, random);
    if (error.retryAfter > settings.maxRetryAfterSeconds) return null;
    return error.retryAfter * 1000 + Math.floor(random() * settings.baseDelayMs);
  }
  if (error instanceof ConflictError && error.code === 'IDEMPOTENCY_CONFLICT') return backoffDelay(retry, settings, random);
  if (!retrySafe) return null;
  if (error instanceof ServerError || error instanceof ConnectionError) return backoffDelay(retry, settings, random);
  return null;
}
