import type { FastifyInstance } from 'fastify';
import { validationError } from '../domain/shared/errors.js';

/** Path of the first string holding a NUL character, or null. Iterative: bodies may nest thousands deep. */
function nulPath(root: unknown): string | null {
  const stack: Array<[unknown, string[]]> = [[root, []]];
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path.join('.');
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], path]);
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i]![1], [...path, entries[i]![0]]]);
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
    const inQuery = nulPath(request.query);
    if (inQuery !== null) throw validationError(`Parâmetro '${inQuery}' contém o caractere nulo (\\u0000), que não é aceito`);
    const inBody = nulPath(request.body);
    if (inBody !== null) throw validationError(`Campo '${inBody || 'body'}' contém o caractere nulo (\\u0000), que não é aceito`);
  });
}
