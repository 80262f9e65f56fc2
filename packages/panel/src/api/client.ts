import createClient from 'openapi-fetch';
import type { paths } from './schema';
import type { ErrorBody, FieldProblem } from './types';

/** A refusal from the server: the envelope's code, Portuguese message and, for validation, the field. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;
  readonly details: unknown;
  /** Every invalid field of a refused form (the first is `field` and `message`). */
  readonly errors: FieldProblem[];

  constructor(status: number, body: Partial<ErrorBody['error']>) {
    super(body.message ?? 'Algo deu errado. Tente de novo em instantes.');
    this.name = 'ApiError';
    this.status = status;
    this.code = body.code ?? 'UNKNOWN';
    this.field = body.field;
    this.details = body.details;
    this.errors = body.errors ?? (body.field === undefined || body.message === undefined ? [] : [{ field: body.field, message: body.message }]);
  }
}

let csrfToken: string | null = null;

/** The session answer carries the CSRF token every state-changing request must send back. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

async function refreshCsrfToken(): Promise<boolean> {
  try {
    const res = await fetch('/panel/api/session', { headers: { accept: 'application/json' }, credentials: 'same-origin' });
    if (!res.ok) return false;
    const json = (await res.json()) as { data?: { csrf_token?: string } };
    csrfToken = json.data?.csrf_token ?? null;
    return csrfToken !== null;
  } catch {
    return false;
  }
}

/**
 * The transport under the typed client: the session cookie, the CSRF header on writes, one retry with a
 * fresh token, and every refusal turned into an ApiError (so a query or mutation fails with the message).
 */
async function panelFetch(request: Request, retried = false): Promise<Response> {
  const method = request.method.toUpperCase();
  const spare = method !== 'GET' && !retried ? request.clone() : null;
  request.headers.set('accept', 'application/json');
  if (method !== 'GET' && csrfToken) request.headers.set('x-csrf-token', csrfToken);
  let res: Response;
  try {
    res = await fetch(request, { credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, { code: 'NETWORK', message: 'Sem conexão com o servidor. Verifique a internet e tente de novo.' });
  }
  if (res.ok) return res;
  let parsed: Partial<ErrorBody> = {};
  try {
    parsed = (await res.json()) as Partial<ErrorBody>;
  } catch {
    // Not JSON (a proxy's error page): fall back to a generic message below.
  }
  const err: Partial<ErrorBody['error']> = parsed.error ?? {};
  // A token from before a sign-in elsewhere in this browser: take the session's current one and try once more.
  if (res.status === 403 && err.code === 'CSRF_INVALID' && spare && (await refreshCsrfToken())) return panelFetch(spare, true);
  if (!err.message && res.status === 429) err.message = 'Muitas tentativas. Aguarde um pouco e tente de novo.';
  if (!err.message && res.status >= 500) err.message = 'O servidor não conseguiu responder agora. Tente de novo em instantes.';
  throw new ApiError(res.status, err);
}

/**
 * The panel's one client, typed by the panel's OpenAPI document (schema.d.ts, written by
 * `npm run panel:generate`): a path, parameter or body the server does not have is a type error.
 */
export const client = createClient<paths>({ baseUrl: '', credentials: 'same-origin', fetch: (r) => panelFetch(r) });

/** The `data` of a success envelope (refusals have already thrown). */
export async function unwrap<D>(call: Promise<{ data?: { data: D } | undefined }>): Promise<D> {
  const { data } = await call;
  return data?.data as D;
}

/** A list answer: its rows and pagination. */
export async function page<D>(call: Promise<{ data?: D | undefined }>): Promise<D> {
  const { data } = await call;
  return data as D;
}

/** Query parameters without the empty ones (an unset filter is not sent). */
export function params<T extends object>(p: T): T {
  return Object.fromEntries(Object.entries(p).filter(([, v]) => v !== '' && v !== null && v !== undefined)) as T;
}

/** The message to show for any thrown value. */
export function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return 'Algo deu errado. Tente de novo em instantes.';
}

/** The server's validation message for one field, when the error lists it (every invalid field comes at once). */
export function fieldError(err: unknown, field: string): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  return err.errors.find((p) => p.field === field)?.message ?? (err.field === field ? err.message : undefined);
}

/**
 * What a form shows above its fields: the messages of the problems about none of the form's `fields`
 * (those show on their field), or the error's own message when it is about no field at all.
 */
export function formError(err: unknown, fields: readonly string[]): string | null {
  if (!err) return null;
  if (!(err instanceof ApiError) || err.errors.length === 0) return messageOf(err);
  const elsewhere = err.errors.filter((p) => !fields.includes(p.field));
  return elsewhere.length ? elsewhere.map((p) => p.message).join(' ') : null;
}
