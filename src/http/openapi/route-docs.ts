import { ErrorEnvelope } from '../schemas/responses.schema.js';

/** Headers on every answer of an authenticated route. */
const COMMON_HEADERS = {
  'X-Request-Id': { type: 'string', description: 'Id of this request (echoed when the client sent a sane one); quote it to support.' },
  RateLimit: {
    type: 'string',
    description:
      'Remaining requests and seconds to reset of the window closest to exhaustion (IETF draft-ietf-httpapi-ratelimit-headers), e.g. `"minute";r=42;t=17`.',
  },
  'RateLimit-Policy': {
    type: 'string',
    description: 'The plan\'s windows, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400` (starter).',
  },
} as const;

type Example = [code: string, message: string, extras?: { field?: string; details?: Record<string, unknown> }];

const error = (description: string, examples: Example[], extraHeaders: Record<string, object> = {}) => ({
  ...ErrorEnvelope,
  description,
  examples: examples.map(([code, message, extras]) => ({ success: false, error: { code, message, ...extras } })),
  headers: { ...COMMON_HEADERS, ...extraHeaders },
});

export const errors = {
  badRequest: (...examples: Example[]) =>
    error(
      'Invalid parameters or body (first problem found, in Portuguese). `error.field` names the field when the problem is about one.',
      examples.length ? examples : [['VALIDATION_ERROR', 'JSON inválido']],
    ),
  unauthorized: error('API key missing, malformed, unknown or revoked.', [['UNAUTHORIZED', 'Chave de API ausente ou inválida']]),
  forbidden: error('The key lacks the scope this route needs.', [['FORBIDDEN', 'Esta chave de API não tem permissão para este recurso']]),
  notFound: (message: string) => error('Unknown id (or an id of another team, or not a UUID).', [['NOT_FOUND', message]]),
  conflict: error('A request with this Idempotency-Key is still running.', [
    ['IDEMPOTENCY_CONFLICT', 'Uma requisição com esta Idempotency-Key ainda está em andamento; tente novamente em instantes'],
  ]),
  payloadTooLarge: error('Body over 1 MiB.', [['PAYLOAD_TOO_LARGE', 'O corpo da requisição excede o limite de 1 MiB']]),
  unsupportedMediaType: error('Body that is not application/json, or declared in a charset other than UTF-8.', [
    ['UNSUPPORTED_MEDIA_TYPE', "Content-Type deve ser 'application/json'"],
    ['UNSUPPORTED_MEDIA_TYPE', "Content-Type deve ser 'application/json' em UTF-8 (charset=utf-8 ou nenhum charset)"],
  ]),
  unprocessable: (...examples: Example[]) => error('Business rule failed.', examples),
  tooManyRequests: error(
    'Plan limit (or the unauthenticated budget of this IP) exceeded; nothing was executed.',
    [['RATE_LIMIT_EXCEEDED', 'Limite de requisições excedido. Tente novamente em 42 s.']],
    { 'Retry-After': { type: 'integer', description: 'Seconds to wait before retrying.' } },
  ),
  internal: error('Unexpected failure; details only in the server log.', [['INTERNAL_ERROR', 'Erro interno do servidor']]),
  notImplemented: error('Announced endpoint, not available yet.', [['NOT_IMPLEMENTED', 'Este endpoint ainda não está disponível']]),
};

/** A success response with its description and headers. */
export function ok<T extends object>(schema: T, description: string, extraHeaders: Record<string, object> = {}) {
  return { ...schema, description, headers: { ...COMMON_HEADERS, ...extraHeaders } };
}

export const REPLAYED_HEADER = {
  'Idempotent-Replayed': {
    type: 'string',
    enum: ['true'],
    description: 'Present when this is the stored answer of an earlier request with the same Idempotency-Key.',
  },
};

/** Errors every authenticated route can answer: auth, limits, and a query string or body it refuses. */
export const authErrors = {
  400: errors.badRequest(),
  401: errors.unauthorized,
  403: errors.forbidden,
  429: errors.tooManyRequests,
  500: errors.internal,
};

/**
 * Errors of the operations whose body is read: POST, PUT and DELETE (a DELETE may carry an empty or
 * ignored JSON body, still parsed and checked). A GET's body is never read, so GETs have neither.
 */
export const bodyErrors = {
  413: errors.payloadTooLarge,
  415: errors.unsupportedMediaType,
};

export const BEARER = [{ bearerAuth: [] }];
