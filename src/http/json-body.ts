import type { FastifyInstance } from 'fastify';
import { AppError, messages } from '../domain/shared/errors.js';

/**
 * Only JSON bodies are accepted (anything else is 415). An empty body is "no body" rather than
 * an error, so a DELETE sent with `Content-Type: application/json` and nothing else still works.
 * Parsing keeps Fastify's protection against prototype poisoning.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    void parseJson(request, text, (error, value) => {
      if (error) return done(new AppError(400, 'VALIDATION_ERROR', messages.invalidJson), undefined);
      return done(null, value);
    });
  });
}
