import type { ErrorBody, Pagination } from './types';

/** A refusal from the server: the envelope's code, Portuguese message and, for validation, the field. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;
  readonly details: unknown;

  constructor(status: number, body: Partial<ErrorBody['error']>) {
    super(body.message ?? 'Algo deu errado. Tente de novo em instantes.');
    this.name = 'ApiError';
    this.status = status;
    this.code = body.code ?? 'UNKNOWN';
    this.field = body.field;
    this.details = body.details;
  }
}

let csrfToken: string | null = null;

/** The session answer carries the CSRF token every state-changing request must send back. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

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

async function request(method: Method, path: string, body?: unknown, retried = false): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(`/panel/api${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, { code: 'NETWORK', message: 'Sem conexão com o servidor. Verifique a internet e tente de novo.' });
  }
  if (!res.ok) {
    let parsed: Partial<ErrorBody> = {};
    try {
      parsed = (await res.json()) as Partial<ErrorBody>;
    } catch {
      // Not JSON (a proxy's error page): fall back to a generic message below.
    }
    const err: Partial<ErrorBody['error']> = parsed.error ?? {};
    // A token from before a sign-in elsewhere in this browser: take the session's current one and try once more.
    if (res.status === 403 && err.code === 'CSRF_INVALID' && method !== 'GET' && !retried && (await refreshCsrfToken())) {
      return request(method, path, body, true);
    }
    if (!err.message && res.status === 429) err.message = 'Muitas tentativas. Aguarde um pouco e tente de novo.';
    if (!err.message && res.status >= 500) err.message = 'O servidor não conseguiu responder agora. Tente de novo em instantes.';
    throw new ApiError(res.status, err);
  }
  return res;
}

async function data<T>(method: Method, path: string, body?: unknown): Promise<T> {
  const res = await request(method, path, body);
  if (res.status === 204) return undefined as T;
  const json = (await res.json()) as { data: T };
  return json.data;
}

export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

export const api = {
  get: <T>(path: string) => data<T>('GET', path),
  post: <T>(path: string, body?: unknown) => data<T>('POST', path, body ?? {}),
  put: <T>(path: string, body: unknown) => data<T>('PUT', path, body),
  delete: (path: string) => data<void>('DELETE', path),
  async page<T>(path: string): Promise<Page<T>> {
    const res = await request('GET', path);
    return (await res.json()) as Page<T>;
  },
};

/** The message to show for any thrown value. */
export function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return 'Algo deu errado. Tente de novo em instantes.';
}

/** The server's validation message for one field, when the error names it. */
export function fieldError(err: unknown, field: string): string | undefined {
  return err instanceof ApiError && err.field === field ? err.message : undefined;
}
