import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, messages, type ErrorCode, type ErrorExtras, type FieldProblem, type PanelErrorCode } from '../domain/shared/errors.js';
import { validationField, validationMessage, validationProblems } from './validation-messages.js';

/**
 * The contract's error envelope. `field`, `details` and `errors` are our additions
 * (docs/interpretation.md): `field` when the error is about one field (the first one found), `details`
 * when it has a machine-readable detail, and `errors` on a 400 VALIDATION_ERROR about fields: every
 * invalid field found at once, each with its message (the first is `field` and `message`).
 */
export const envelope = (code: ErrorCode | PanelErrorCode, message: string, extras: ErrorExtras = {}) => ({
  success: false as const,
  error: {
    code,
    message,
    ...(extras.field !== undefined ? { field: extras.field } : {}),
    ...(extras.details !== undefined ? { details: extras.details } : {}),
    ...(code === 'VALIDATION_ERROR' && extras.field !== undefined ? { errors: extras.errors ?? [{ field: extras.field, message }] } : {}),
  },
});

/** A resource's rules that need no database, run on a body its schema refused (domain/<area>/*-field-rules.ts). */
export type FieldRules = (body: unknown) => FieldProblem[];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Joined to the schema's problems when the body is refused, so every invalid field comes at once. */
    fieldRules?: FieldRules;
  }
}

/** Framework errors that reach us before our handlers run, as the contract's envelope. */
const FRAMEWORK_ERRORS: Record<string, [number, ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', messages.unsupportedMediaType],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'PAYLOAD_TOO_LARGE', messages.payloadTooLarge],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'VALIDATION_ERROR', 'Content-Length inválido'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'VALIDATION_ERROR', messages.bodyNotObject],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'VALIDATION_ERROR', messages.invalidJson],
};

/**
 * Errors the router raises before any route runs: a URL that is not valid percent-encoding (400),
 * or a path parameter longer than any id we issue (404: such an id is simply unknown).
 */
export function routerErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.status(404).send(envelope('NOT_FOUND', messages.routeNotFound));
    return;
  }
  reply.status(400).send(envelope('VALIDATION_ERROR', error.code === 'FST_ERR_BAD_URL' ? 'URL inválida' : 'Requisição inválida'));
}

/** One error handler for the whole service: contract envelope, Portuguese messages, no internals leaked. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send(envelope(error.code, error.message, error.extras));
    }
    if ('validation' in error && error.validation) {
      const part = error.validationContext ?? 'body';
      const field = validationField(error.validation as never, part);
      const message = validationMessage(error.validation as never, part);
      if (field === undefined) return reply.status(400).send(envelope('VALIDATION_ERROR', message, {}));
      const problems = validationProblems(error.validation as never, part);
      const rules = part === 'body' ? request.routeOptions.config.fieldRules : undefined;
      for (const p of rules?.(request.body) ?? []) if (!problems.some((q) => q.field === p.field)) problems.push(p);
      return reply.status(400).send(envelope('VALIDATION_ERROR', message, { field, errors: problems }));
    }
    const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (known) return reply.status(known[0]).send(envelope(known[1], known[2]));
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      request.log.info({ err: error }, 'requisição rejeitada pelo framework');
      return reply.status(status).send(envelope('VALIDATION_ERROR', 'Requisição inválida'));
    }
    request.log.error({ err: error }, 'erro interno');
    return reply.status(500).send(envelope('INTERNAL_ERROR', messages.internal));
  });
}
