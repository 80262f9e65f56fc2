import type { Harness, Response } from './harness.js';
import type { Role } from '../../src/domain/users/users.types.js';

/** Low scrypt cost for the suite (the stored hash names its cost, so verification is unaffected). */
export const TEST_HASHING = { cost: 10 } as const;
export const PASSWORD = 'senha-forte-do-teste';

let counter = 0;

/** A browser of the panel: keeps the session cookie and the CSRF token like the app does. */
export interface PanelBrowser {
  cookie: string | null;
  csrf: string | null;
  request<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response<T>>;
  get<T = any>(path: string): Promise<Response<T>>;
  post<T = any>(path: string, body?: unknown): Promise<Response<T>>;
  put<T = any>(path: string, body?: unknown): Promise<Response<T>>;
  delete<T = any>(path: string): Promise<Response<T>>;
  signIn(email: string, password?: string): Promise<Response>;
}

const setCookieOf = (res: Response): string[] => [res.headers['set-cookie'] ?? []].flat().map(String);

/** Each browser comes from an address of its own unless told (sign-in is throttled per address). */
export function panelBrowser(h: Harness, ip = `10.${(++counter >> 16) & 255}.${(counter >> 8) & 255}.${counter & 255}`): PanelBrowser {
  const browser: PanelBrowser = {
    cookie: null,
    csrf: null,
    async request(method, path, body, headers = {}) {
      const res = await h.inject({
        method: method as 'GET',
        url: `/panel/api${path}`,
        remoteAddress: ip,
        headers: {
          ...(browser.cookie ? { cookie: `autosales_session=${browser.cookie}` } : {}),
          ...(browser.csrf && method !== 'GET' ? { 'x-csrf-token': browser.csrf } : {}),
          ...headers,
        },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      for (const line of setCookieOf(res)) {
        const match = /^autosales_session=([^;]*)/.exec(line);
        if (match) browser.cookie = match[1] && !/Expires=Thu, 01 Jan 1970/i.test(line) ? match[1] : null;
      }
      if (res.body?.data?.csrf_token) browser.csrf = res.body.data.csrf_token;
      return res;
    },
    get: (path) => browser.request('GET', path),
    post: (path, body) => browser.request('POST', path, body),
    put: (path, body) => browser.request('PUT', path, body),
    delete: (path) => browser.request('DELETE', path),
    signIn: (email, password = PASSWORD) => browser.request('POST', '/session', { email, password }),
  };
  return browser;
}

/** A team with a user of `role` (and a password), signed in. */
export async function signedIn(h: Harness, role: Role = 'owner', teamId?: string) {
  const team = teamId ?? (await h.services.teams.create({ name: `Loja do painel ${++counter}`, plan: 'professional' })).id;
  const email = `pessoa${++counter}.${role}@loja.example.com.br`;
  const { user } = await h.services.users.create({ teamId: team, email, name: `Pessoa ${counter}`, role, password: PASSWORD });
  const browser = panelBrowser(h);
  const res = await browser.signIn(email);
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return { browser, user, teamId: team, email };
}
