/** The error codes the API answers with (the contract's, plus the ones its HTTP layer adds). */
export type ApiErrorCode =
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'VALIDATION_ERROR'
  | 'DUPLICATE_ENTRY'
  | 'INTERNAL_ERROR'
  | 'RATE_LIMIT_EXCEEDED'
  | 'NOT_IMPLEMENTED'
  | 'METHOD_NOT_ALLOWED'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'PAYLOAD_TOO_LARGE'
  | 'SERVICE_UNAVAILABLE'
  | 'IDEMPOTENCY_CONFLICT'
  | 'REQUEST_TIMEOUT'
  | 'HEADERS_TOO_LARGE';

/**
 * Codes the SDK gives when there is no API answer to read one from: no answer at all
 * (`CONNECTION_ERROR`), no answer in time (`TIMEOUT`), an answer that is not the API's JSON
 * envelope (`UNEXPECTED_RESPONSE`, e.g. an HTML page from a proxy), or a request the SDK refused
 * to send because it is malformed (`INVALID_REQUEST`: a bad path or id).
 */
export type SdkErrorCode = 'CONNECTION_ERROR' | 'TIMEOUT' | 'UNEXPECTED_RESPONSE' | 'INVALID_REQUEST';

/** `(string & {})` keeps editor completion for the known codes and accepts codes added later. */
export type ErrorCode = ApiErrorCode | SdkErrorCode | (string & {});

export interface ErrorDetails {
  requestId?: string | null;
  headers?: Headers | null;
  body?: unknown;
  cause?: unknown;
}

/**
 * Every failure the SDK reports. `status` is the HTTP status (0 when no answer arrived), `code` the
 * API's error code, `message` the API's message as sent (in Portuguese), `requestId` the answer's
 * `X-Request-Id` (quote it to support). Subclasses name the common cases; `instanceof` or `code`
 * both work to tell them apart.
 */
export class AutosalesError extends Error {
  override readonly name: string = 'AutosalesError';
  readonly status: number;
  readonly code: ErrorCode;
  readonly requestId: string | null;
  /** The answer's headers (null when no answer arrived). */
  readonly headers: Headers | null;
  /** The parsed answer body (or its text when it was not JSON); undefined when no answer arrived. */
  readonly body: unknown;

  constructor(status: number, code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = status;
    this.code = code;
    this.requestId = details.requestId ?? null;
    this.headers = details.headers ?? null;
    this.body = details.body;
  }
}

/** 400, or 422 with `VALIDATION_ERROR`: a parameter or the body broke a rule (the message says which). */
export class ValidationError extends AutosalesError {
  override readonly name: string = 'ValidationError';
}
/** 422 `DUPLICATE_ENTRY`: CPF or CNPJ already registered in the team. */
export class DuplicateEntryError extends AutosalesError {
  override readonly name: string = 'DuplicateEntryError';
}
/** 401: API key missing, malformed, unknown or revoked. */
export class AuthenticationError extends AutosalesError {
  override readonly name: string = 'AuthenticationError';
}
/** 403: the key lacks the scope this route needs. */
export class PermissionDeniedError extends AutosalesError {
  override readonly name: string = 'PermissionDeniedError';
}
/** 404: unknown id (or another team's). */
export class NotFoundError extends AutosalesError {
  override readonly name: string = 'NotFoundError';
}
/** 409 `IDEMPOTENCY_CONFLICT`: a request with the same Idempotency-Key is still running. */
export class ConflictError extends AutosalesError {
  override readonly name: string = 'ConflictError';
}
/** 429: the team's plan limit (or this IP's unauthenticated budget) is used up; nothing was executed. */
export class RateLimitError extends AutosalesError {
  override readonly name: string = 'RateLimitError';
  /** Seconds to wait before trying again (the `Retry-After` header), null when absent. */
  readonly retryAfter: number | null;

  constructor(status: number, code: ErrorCode, message: string, details: ErrorDetails & { retryAfter?: number | null } = {}) {
    super(status, code, message, details);
    this.retryAfter = details.retryAfter ?? null;
  }
}
/** 5xx other than 501: a failure on the service's side. */
export class ServerError extends AutosalesError {
  override readonly name: string = 'ServerError';
}
/** No answer: the connection failed or was cut (status 0, code `CONNECTION_ERROR`). */
export class ConnectionError extends AutosalesError {
  override readonly name: string = 'ConnectionError';
}
/** No answer within `timeoutMs` (status 0, code `TIMEOUT`). */
export class TimeoutError extends ConnectionError {
  override readonly name: string = 'TimeoutError';
}
/**
 * The SDK refused to send the request: its path or id is malformed (status 0, code
 * `INVALID_REQUEST`, an English message saying what is wrong). Nothing reached the service, and it
 * is never retried: fix the call.
 */
export class InvalidRequestError extends AutosalesError {
  override readonly name: string = 'InvalidRequestError';

  constructor(message: string) {
    super(0, 'INVALID_REQUEST', message);
  }
}

/**
 * `Retry-After` in seconds: delay-seconds, or an HTTP-date turned into seconds from `now`.
 * Null when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

interface Envelope {
  success: false;
  error: { code: string; message: string };
}

function isEnvelope(body: unknown): body is Envelope {
  if (typeof body !== 'object' || body === null) return false;
  const error = (body as { error?: unknown }).error;
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

/** The typed error for a non-2xx answer whose body has been read as `text`. */
export function errorFromResponse(status: number, headers: Headers, text: string): AutosalesError {
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  const details: ErrorDetails = { requestId: headers.get('x-request-id'), headers, body };
  // An answer that is not the API's envelope (a proxy's HTML page, say) still gets the class of its status.
  const { code, message } = isEnvelope(body)
    ? body.error
    : { code: 'UNEXPECTED_RESPONSE', message: `HTTP ${status}: the answer is not the API's JSON error envelope` };
  if (code === 'VALIDATION_ERROR') return new ValidationError(status, code, message, details);
  if (code === 'DUPLICATE_ENTRY') return new DuplicateEntryError(status, code, message, details);
  switch (status) {
    case 400:
      return new ValidationError(status, code, message, details);
    case 401:
      return new AuthenticationError(status, code, message, details);
    case 403:
      return new PermissionDeniedError(status, code, message, details);
    case 404:
      return new NotFoundError(status, code, message, details);
    case 409:
      return new ConflictError(status, code, message, details);
    case 429:
      return new RateLimitError(status, code, message, { ...details, retryAfter: parseRetryAfter(headers.get('retry-after')) });
    default:
      if (status >= 500 && status !== 501) return new ServerError(status, code, message, details);
      return new AutosalesError(status, code, message, details);
  }
}
