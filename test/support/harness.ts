import type { FastifyInstance, InjectOptions, RouteOptions } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createServices, type Services, type ServicesOptions } from '../../src/app/services.js';
import type { SignInLimiter } from '../../src/domain/ratelimit/sign-in-limiter.js';
import type { Clock } from '../../src/domain/shared/clock.js';
import type { DialectName } from '../../src/storage/dialect.js';
import { openTestDb, type TestDb } from './dialects.js';
import { createResponseValidator } from './openapi-validator.js';

export interface Response<T = any> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: T;
  text: string;
}

export interface Caller {
  teamId: string;
  key: string;
  get<T = any>(path: string): Promise<Response<T>>;
  post<T = any>(path: string, body?: unknown): Promise<Response<T>>;
  put<T = any>(path: string, body?: unknown): Promise<Response<T>>;
  delete<T = any>(path: string): Promise<Response<T>>;
}

export interface Harness {
  app: FastifyInstance;
  testDb: TestDb;
  /** The services the app runs on (the composition root's), for seeding and direct checks. */
  services: Services;
  /** Every route the app registered, as registered (methods, URL, config). */
  routes: RouteOptions[];
  /** A new team with a key (all scopes unless given): every test works in its own team. */
  team(options?: { plan?: string; scopes?: string[] }): Promise<Caller>;
  /** Another key of an existing team. */
  key(teamId: string, scopes?: string[]): Promise<Caller>;
  inject<T = any>(options: InjectOptions): Promise<Response<T>>;
  close(): Promise<void>;
}

let counter = 0;

/** `app.inject`, with the body parsed as JSON (undefined when empty or not JSON). */
export async function injectJson<T = any>(app: FastifyInstance, options: InjectOptions): Promise<Response<T>> {
  const res = await app.inject(options);
  let body: unknown;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body: body as T, text: res.body };
}

export async function createHarness(
  dialect: DialectName,
  options: { clock?: Clock } & ServicesOptions & { signInLimiter?: SignInLimiter; trustProxy?: boolean; publicUrl?: string } = {},
): Promise<Harness> {
  const testDb = await openTestDb(dialect);
  const { signInLimiter, trustProxy, publicUrl, ...serviceOptions } = options;
  const services = createServices(testDb.db, serviceOptions);
  const { teams, keys } = services;
  const routes: RouteOptions[] = [];
  const app = await buildApp({
    db: testDb.db,
    services,
    signInLimiter,
    trustProxy,
    ...(publicUrl ? { publicUrl: () => publicUrl } : {}),
    onRoute: (route) => void routes.push(route),
  });
  // Every answer the suite receives is checked against the service's own OpenAPI document.
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-test-route', request.routeOptions.url ?? '');
    return payload;
  });
  const doc = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  const validator = createResponseValidator(doc);
  // The panel's routes are checked against the panel's own document.
  const panelValidator = createResponseValidator((await app.inject({ method: 'GET', url: '/panel/api/openapi.json' })).json());

  async function inject<T>(options: InjectOptions): Promise<Response<T>> {
    const res = await injectJson<T>(app, options);
    const route = String(res.headers['x-test-route'] ?? '');
    delete res.headers['x-test-route'];
    if (res.body !== undefined || res.text === '') {
      const problem = (route.startsWith('/panel/api/') ? panelValidator : validator).check(String(options.method ?? 'GET'), route, res.status, res.body);
      if (problem) throw new Error(`Answer does not match the OpenAPI document: ${problem}\n${res.text.slice(0, 500)}`);
    }
    return res;
  }

  function caller(teamId: string, key: string): Caller {
    const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE') => (path: string, body?: unknown) =>
      inject<any>({
        method,
        url: `/api/v1${path}`,
        headers: { authorization: `Bearer ${key}` },
        ...(body === undefined ? {} : { payload: body as object }),
      });
    return { teamId, key, get: call('GET'), post: call('POST'), put: call('PUT'), delete: call('DELETE') };
  }

  return {
    app,
    testDb,
    services,
    routes,
    inject,
    async key(teamId, scopes) {
      const created = await keys.create({ teamId, scopes });
      return caller(teamId, created.key);
    },
    async team(options = {}) {
      const team = await teams.create({ name: `Loja ${++counter} ${dialect}`, plan: options.plan });
      const created = await keys.create({ teamId: team.id, scopes: options.scopes });
      return caller(team.id, created.key);
    },
    async close() {
      await app.close();
      await testDb.close();
    },
  };
}
