import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, messages, validationError } from '../domain/shared/errors.js';
import { findText } from './input-guard.js';

/** Deeper than any document of ours (the deepest, a client's `address`, is 2 levels): refused. */
export const MAX_JSON_DEPTH = 32;

const UTF8_CHARSETS = new Set(['utf-8', 'utf8']);
const CHARSET = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i;

/** The charset parameter of the Content-Type, lower-cased; null when there is none. */
function charsetOf(request: FastifyRequest): string | null {
  const match = CHARSET.exec(request.headers['content-type'] ?? '');
  return match ? (match[1] ?? match[2] ?? '').toLowerCase() : null;
}

/**
 * Whether JSON text nests arrays/objects deeper than `max`. One pass over the text, before parsing
 * (so a deep body costs neither a parse nor a walk); string contents are skipped with indexOf.
 * Malformed text is left to JSON.parse, which reports it.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // Find the closing quote: the next one preceded by an even number of backslashes.
      for (;;) {
        const quote = text.indexOf('"', i + 1);
        if (quote < 0) return false;
        let slashes = 0;
        while (text.charCodeAt(quote - 1 - slashes) === 0x5c /* \ */) slashes++;
        i = quote;
        if (slashes % 2 === 0) break;
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return false;
}

const invalidUtf8 = (field?: string) =>
  field ? validationError(`Campo '${field}' contém bytes que não são UTF-8 válido`, field) : validationError('O corpo da requisição não é UTF-8 válido');

/**
 * A body that is not UTF-8, with the field it is in when that can be told for sure: the text decoded
 * with replacement characters parses, and no U+FFFD was sent genuinely (as bytes or as an escape).
 */
function invalidUtf8Body(body: Buffer, parse: (text: string) => unknown): AppError {
  if (body.includes(Buffer.from('\ufffd'))) return invalidUtf8();
  const text = body.toString('utf8');
  if (/\\u[fF][fF][fF][dD]/.test(text) || nestsDeeperThan(text, MAX_JSON_DEPTH)) return invalidUtf8();
  let value: unknown;
  try {
    value = parse(text);
  } catch {
    return invalidUtf8();
  }
  // Every U+FFFD in the text stands for bytes that were not UTF-8: the first string holding one names the field.
  const found = findText(value, (text) => (text.includes('\ufffd') ? true : null));
  return invalidUtf8(found?.path || undefined);
}

/**
 * Only JSON bodies in UTF-8 are accepted: another media type, or another charset, is 415. Bytes that
 * are not UTF-8 (instead of being replaced silently) and nesting deeper than MAX_JSON_DEPTH are 400,
 * as is malformed JSON. An empty body is "no body" rather than an error, so a DELETE sent with
 * `Content-Type: application/json` and nothing else still works. Parsing keeps Fastify's protection
 * against prototype poisoning. Every step is linear in the size of the body (at most 1 MiB).
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const parseOrThrow = (request: FastifyRequest, text: string): unknown => {
    let result: { error: Error | null; value: unknown } = { error: null, value: undefined };
    // Fastify's parser calls back synchronously (the result is read just below); it returns nothing to await.
    void parseJson(request, text, (error, value) => {
      result = { error, value };
    });
    if (result.error) throw result.error;
    return result.value;
  };
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const charset = charsetOf(request);
    if (charset !== null && !UTF8_CHARSETS.has(charset)) {
      return done(new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', messages.charsetNotUtf8), undefined);
    }
    const bytes = body as Buffer;
    if (!isUtf8(bytes))
      return done(
        invalidUtf8Body(bytes, (text) => parseOrThrow(request, text)),
        undefined,
      );
    const text = bytes.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    if (nestsDeeperThan(text, MAX_JSON_DEPTH))
      return done(validationError(`O corpo da requisição tem mais de ${MAX_JSON_DEPTH} níveis de aninhamento`), undefined);
    let value: unknown;
    try {
      value = parseOrThrow(request, text);
    } catch {
      return done(new AppError(400, 'VALIDATION_ERROR', messages.invalidJson), undefined);
    }
    return done(null, value);
  });
}
