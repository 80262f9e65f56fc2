import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * Webhook signatures. A standalone copy of the service's src/domain/webhooks/signature.ts (the SDK
 * cannot depend on the server package); the repository's tests check both agree byte for byte.
 */

/** Headers sent with every webhook delivery (lower-case, as Node exposes them). */
export const SIGNATURE_HEADER = 'x-service-signature';
export const TIMESTAMP_HEADER = 'x-service-timestamp';
export const EVENT_ID_HEADER = 'x-service-event-id';

/** Default replay window: a delivery older (or newer) than this is rejected. */
const DEFAULT_TOLERANCE_SECONDS = 300;

/** Unix seconds: digits only, no sign, no fraction, no exponent; 15 digits is far beyond any real clock. */
const TIMESTAMP_PATTERN = /^[0-9]{1,15}$/;

/** The contract's encoding: HMAC-SHA256 as lower-case hexadecimal (64 characters). */
const SIGNATURE_PATTERN = /^[0-9a-f]{64}$/;

/** Node/Express/Fastify headers (names read case-insensitively) or a fetch `Headers`. */
export type WebhookHeaders = Record<string, string | string[] | undefined> | Headers;

export interface VerifyOptions {
  /** Largest accepted distance between the delivery's timestamp and now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** "Now" in Unix seconds (tests). */
  now?: number;
}

/**
 * The contract's signature: lower-case hex HMAC-SHA256, keyed with the webhook's signing secret,
 * of `${timestamp}.${body}` where body is the exact request body. Useful to test a receiver.
 */
export function signWebhookPayload(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(body, 'utf8').digest('hex');
}

/**
 * Checks a received delivery: `X-Service-Signature` must be the HMAC of the raw body exactly as
 * received (verify before parsing), and `X-Service-Timestamp` within `toleranceSeconds` (default
 * 300) of now, in either direction. Never throws: a missing, repeated or malformed header, an
 * uppercase signature, an empty secret, or a body that is neither a string nor bytes gives false.
 * The comparison is constant-time.
 */
export function verifyWebhookSignature(rawBody: string | Uint8Array, headers: WebhookHeaders, secret: string, options: VerifyOptions = {}): boolean {
  try {
    const body = bodyBytes(rawBody);
    if (body === null || typeof secret !== 'string' || secret.length === 0) return false;

    const timestampRaw = readHeader(headers, TIMESTAMP_HEADER);
    const signature = readHeader(headers, SIGNATURE_HEADER);
    if (timestampRaw === null || signature === null) return false;
    if (!TIMESTAMP_PATTERN.test(timestampRaw) || !SIGNATURE_PATTERN.test(signature)) return false;

    const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
    if (typeof tolerance !== 'number' || Number.isNaN(tolerance) || tolerance < 0) return false;
    const now = options.now ?? Math.floor(Date.now() / 1000);
    if (typeof now !== 'number' || !Number.isFinite(now)) return false;
    const timestamp = Number(timestampRaw);
    if (Math.abs(now - timestamp) > tolerance) return false;

    // The signed string uses the timestamp exactly as sent, then the body bytes untouched.
    const expected = createHmac('sha256', secret)
      .update(Buffer.from(`${timestampRaw}.`, 'utf8'))
      .update(body)
      .digest('hex');
    const expectedBytes = Buffer.from(expected, 'utf8');
    const givenBytes = Buffer.from(signature, 'utf8');
    // Both are 64 characters after the pattern check; keep the guard so timingSafeEqual never throws.
    if (expectedBytes.length !== givenBytes.length) return false;
    return timingSafeEqual(expectedBytes, givenBytes);
  } catch {
    return false;
  }
}

function bodyBytes(rawBody: unknown): Buffer | null {
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  if (Buffer.isBuffer(rawBody)) return rawBody;
  if (rawBody instanceof Uint8Array) return Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  return null;
}

/**
 * One header value, looked up case-insensitively. Absent, empty, or given more than once (an array
 * with several entries, several keys differing only in case, or a fetch `Headers` value joined with
 * commas, which then fails the format check) counts as unusable: null.
 */
function readHeader(headers: WebhookHeaders, name: string): string | null {
  if (headers === null || typeof headers !== 'object') return null;
  if (isFetchHeaders(headers)) return usable(headers.get(name));
  const found: string[] = [];
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== name) continue;
    const value = headers[key];
    if (Array.isArray(value)) found.push(...value);
    else if (value !== undefined) found.push(value);
  }
  if (found.length !== 1) return null;
  return usable(found[0]);
}

function isFetchHeaders(headers: WebhookHeaders): headers is Headers {
  return (
    (typeof Headers !== 'undefined' && headers instanceof Headers) ||
    (typeof (headers as { get?: unknown }).get === 'function' && typeof (headers as { has?: unknown }).has === 'function')
  );
}

function usable(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed.length > 0 ? trimmed : null;
}
