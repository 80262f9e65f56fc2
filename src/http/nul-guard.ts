import type { FastifyInstance } from 'fastify';
import { validationError } from '../errors.js';

/** Path of the first string holding a NUL character, or null. */
function nulPath(value: unknown, path: string[]): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') : null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = nulPath(item, path);
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = nulPath(item, [...path, key]);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * PostgreSQL text cannot hold U+0000, and no field of ours has a use for it: it is refused
 * up front (body and query string) on both databases, instead of failing at write time.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const inQuery = nulPath(request.query, []);
    if (inQuery !== null) throw validationError(`Parâmetro '${inQuery}' contém o caractere nulo (\\u0000), que não é aceito`);
    const inBody = nulPath(request.body, []);
    if (inBody !== null) throw validationError(`Campo '${inBody || 'body'}' contém o caractere nulo (\\u0000), que não é aceito`);
  });
}
