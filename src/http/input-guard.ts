import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { validationError } from '../domain/shared/errors.js';

type TextProblem = 'nul' | 'surrogate';

// String.prototype.isWellFormed (ES2024, in every Node we support): false when a surrogate is alone.
const isWellFormed = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * What we refuse inside any text: U+0000 (PostgreSQL text cannot hold it) and a lone UTF-16
 * surrogate (`"\ud800"` in JSON): no real character, and each store would change it silently
 * (PostgreSQL to U+FFFD, SQLite to invalid UTF-8) while the answer and the event carried it as sent.
 */
function textProblem(text: string): TextProblem | null {
  if (text.includes('\u0000')) return 'nul';
  if (!isWellFormed(text)) return 'surrogate';
  return null;
}

interface Node {
  value: unknown;
  key: string | null;
  parent: Node | null;
}

/** `address.city`; list items are named by their list (`tags`), as in validation messages. */
function pathOf(node: Node): string {
  const keys: string[] = [];
  for (let n: Node | null = node; n; n = n.parent) if (n.key !== null) keys.push(n.key);
  return keys.reverse().join('.');
}

/**
 * The first string value, in document order, for which `test` finds a problem, with its field path.
 * Linear in the size of the value: every node is visited once, iteratively, and a path is built only
 * for the offender (each node points at its parent instead of carrying a copy of its path).
 */
export function findText<P>(root: unknown, test: (text: string) => P | null): { path: string; problem: P } | null {
  const stack: Node[] = [{ value: root, key: null, parent: null }];
  while (stack.length) {
    const node = stack.pop()!;
    const { value } = node;
    if (typeof value === 'string') {
      const problem = test(value);
      if (problem !== null) return { path: pathOf(node), problem };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: null, parent: node });
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: (value as Record<string, unknown>)[keys[i]!], key: keys[i]!, parent: node });
    }
  }
  return null;
}

const PROBLEM_TEXT: Record<TextProblem, string> = {
  nul: 'contém o caractere nulo (\\u0000), que não é aceito',
  surrogate: 'contém um caractere inválido (surrogate UTF-16 isolado, como \\ud800), que não é aceito',
};

const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/** False when a run of percent-escapes decodes to bytes that are not UTF-8 (`%FF`, `%ED%A0%80`). */
function escapesAreUtf8(component: string): boolean {
  if (!component.includes('%')) return true;
  for (const run of component.match(PERCENT_RUN) ?? []) {
    if (!isUtf8(Buffer.from(run.replace(/%/g, ''), 'hex'))) return false;
  }
  return true;
}

function decodedName(raw: string): string | null {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * The query string's first parameter whose name or value is percent-encoded bytes that are not
 * UTF-8: `{ name }` (null when the name itself is unreadable), or null when every one is UTF-8.
 * (The query parser would keep such a value as its literal `%FF` text, a silent change.)
 */
export function nonUtf8Parameter(url: string): { name: string | null } | null {
  const at = url.indexOf('?');
  if (at < 0) return null;
  for (const pair of url.slice(at + 1).split('&')) {
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    if (!escapesAreUtf8(rawName)) return { name: null };
    if (!escapesAreUtf8(rawValue)) return { name: decodedName(rawName) || null };
  }
  return null;
}

/** The 400 for a query string or body the stores would change or refuse, or null. */
function inputProblem(url: string, query: unknown, body: unknown): Error | null {
  const nonUtf8 = nonUtf8Parameter(url);
  if (nonUtf8) {
    return nonUtf8.name
      ? validationError(`Parâmetro '${nonUtf8.name}' contém bytes que não são UTF-8 válido`, nonUtf8.name)
      : validationError('A query string contém bytes que não são UTF-8 válido');
  }
  const inQuery = findText(query, textProblem);
  if (inQuery) return validationError(`Parâmetro '${inQuery.path}' ${PROBLEM_TEXT[inQuery.problem]}`, inQuery.path || undefined);
  const inBody = findText(body, textProblem);
  if (inBody) return validationError(`Campo '${inBody.path || 'body'}' ${PROBLEM_TEXT[inBody.problem]}`, inBody.path || undefined);
  return null;
}

/**
 * Text the stores would change or refuse is refused up front, on both databases, for the query
 * string and the body (after JSON parsing, which already refused invalid UTF-8 and deep nesting;
 * see json-body.ts): 400 naming the parameter or field. Only on the API's routes (those behind a
 * key) and the panel's (`config.panel`): the others (health, readiness, `/`, the docs) read no query
 * string and store nothing.
 */
export function registerInputGuard(app: FastifyInstance): void {
  // A plain callback, not an async function: no promise per request (issue 15).
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.routeOptions.config.auth || request.routeOptions.config.panel) {
      const problem = inputProblem(request.url, request.query, request.body);
      if (problem) return done(problem);
    }
    done();
  });
}
