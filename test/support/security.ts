import { createHash } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '../../src/domain/teams/api-keys.types.js';
import type { Caller, Harness, Response } from './harness.js';
import { expectError } from './expect.js';
import type { ApiEndpoint } from './routes.js';

/**
 * The one security helper every route's test is built from (STYLE.md, after unkey): no key, bad
 * keys, a revoked key, wrong scope, only the right scope, and another team's records.
 */

export const AUTH_MESSAGES = {
  unauthorized: 'Chave de API ausente ou inválida',
  forbidden: 'Esta chave de API não tem permissão para este recurso',
  notImplemented: 'Este endpoint ainda não está disponível',
} as const;

export const NOT_FOUND_MESSAGES = {
  deals: 'Negócio não encontrado',
  clients: 'Cliente não encontrado',
  vehicles: 'Veículo não encontrado',
  stores: 'Loja não encontrada',
} as const;

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Resource = 'deals' | 'clients' | 'vehicles' | 'stores';

export interface SecuredRoute {
  method: Method;
  /** Path under /api/v1. `:id` becomes the caller's own record of `resource` (a fixed UUID on announced routes). */
  path: string;
  /** Scope the route needs; null = any valid key (the announced, unavailable routes). */
  scope: Scope | null;
  /** The resource of `:id` and of the list; none on announced routes. */
  resource?: Resource;
  /** A valid body, so that the key is the only thing that can be wrong. */
  body?: Record<string, unknown>;
  /** Status with a key holding exactly the needed scope (or any single scope when `scope` is null). */
  ok: number;
}

/** The working routes of the contract, with the scope DECISIONS.md gives each. */
export const RESOURCE_ROUTES: readonly SecuredRoute[] = [
  { method: 'GET', path: '/deals', scope: 'deals:read', resource: 'deals', ok: 200 },
  { method: 'POST', path: '/deals', scope: 'deals:write', resource: 'deals', body: { title: 'Negócio de teste de segurança' }, ok: 201 },
  { method: 'GET', path: '/deals/:id', scope: 'deals:read', resource: 'deals', ok: 200 },
  { method: 'PUT', path: '/deals/:id', scope: 'deals:write', resource: 'deals', body: { title: 'Título atualizado' }, ok: 200 },
  { method: 'DELETE', path: '/deals/:id', scope: 'deals:write', resource: 'deals', ok: 200 },
  { method: 'GET', path: '/clients', scope: 'clients:read', resource: 'clients', ok: 200 },
  { method: 'POST', path: '/clients', scope: 'clients:write', resource: 'clients', body: { type: 'PF', name: 'Cliente de teste de segurança' }, ok: 201 },
  { method: 'GET', path: '/clients/:id', scope: 'clients:read', resource: 'clients', ok: 200 },
  { method: 'PUT', path: '/clients/:id', scope: 'clients:write', resource: 'clients', body: { name: 'Nome atualizado' }, ok: 200 },
  { method: 'DELETE', path: '/clients/:id', scope: 'clients:write', resource: 'clients', ok: 200 },
  { method: 'GET', path: '/vehicles', scope: 'vehicles:read', resource: 'vehicles', ok: 200 },
  {
    method: 'POST',
    path: '/vehicles',
    scope: 'vehicles:write',
    resource: 'vehicles',
    body: { title: 'Veículo de teste de segurança', brand: 'Fiat', model: 'Strada' },
    ok: 201,
  },
  { method: 'GET', path: '/vehicles/:id', scope: 'vehicles:read', resource: 'vehicles', ok: 200 },
  { method: 'PUT', path: '/vehicles/:id', scope: 'vehicles:write', resource: 'vehicles', body: { title: 'Título atualizado' }, ok: 200 },
  { method: 'DELETE', path: '/vehicles/:id', scope: 'vehicles:write', resource: 'vehicles', ok: 200 },
  { method: 'GET', path: '/stores', scope: 'stores:read', resource: 'stores', ok: 200 },
  { method: 'GET', path: '/stores/:id', scope: 'stores:read', resource: 'stores', ok: 200 },
  { method: 'POST', path: '/leads', scope: 'leads:write', body: { name: 'Lead de teste de segurança', email: 'lead.seguranca@example.com' }, ok: 201 },
];

/** The contract's announced, unavailable endpoints, restated from api-v1.md (not read from src/). */
export const ANNOUNCED_ENDPOINTS: ReadonlyArray<[Method, string]> = [
  ['GET', '/financial'],
  ['POST', '/financial'],
  ['GET', '/financial/:id'],
  ['PUT', '/financial/:id'],
  ['DELETE', '/financial/:id'],
  ['GET', '/financial/summary'],
  ['GET', '/financial/overdue'],
  ['GET', '/activities'],
  ['POST', '/activities'],
  ['GET', '/activities/:id'],
  ['PUT', '/activities/:id'],
  ['DELETE', '/activities/:id'],
  ['PUT', '/activities/:id/complete'],
  ['GET', '/activities/overdue'],
  ['GET', '/webhooks'],
  ['POST', '/webhooks'],
  ['PUT', '/webhooks/:id'],
  ['DELETE', '/webhooks/:id'],
];

export const ANNOUNCED_ROUTES: readonly SecuredRoute[] = ANNOUNCED_ENDPOINTS.map(([method, path]) => ({
  method,
  path,
  scope: null,
  ...(method === 'POST' || method === 'PUT' ? { body: { descricao: 'qualquer' } } : {}),
  ok: 501,
}));

/** The matrix's catalogue: every route of the contract that takes a key, with what it needs and answers. */
export const ALL_ROUTES: readonly SecuredRoute[] = [...RESOURCE_ROUTES, ...ANNOUNCED_ROUTES];

const endpointKey = (method: string, path: string) => `${method} ${path}`;

/**
 * The matrix for the routes the app really registers (see ./routes.ts): the catalogue entry of each
 * authenticated endpoint; `missing` lists registered endpoints the catalogue lacks (a new route that
 * would escape the matrix), `stale` catalogue entries no route serves.
 */
export function matrixFor(secured: readonly ApiEndpoint[]): { routes: SecuredRoute[]; missing: string[]; stale: string[] } {
  const catalogue = new Map(ALL_ROUTES.map((route) => [endpointKey(route.method, route.path), route]));
  const registered = new Set(secured.map((e) => endpointKey(e.method, e.path)));
  const routes = secured.flatMap((e) => catalogue.get(endpointKey(e.method, e.path)) ?? []);
  return {
    routes,
    missing: [...registered].filter((key) => !catalogue.has(key)),
    stale: [...catalogue.keys()].filter((key) => !registered.has(key)),
  };
}

/** An id in UUID form that names no record anywhere. */
export const UNKNOWN_ID = '01900000-0000-7000-8000-000000000000';

export interface TeamRecords {
  caller: Caller;
  dealId: string;
  dealTitle: string;
  clientId: string;
  clientName: string;
  vehicleId: string;
  vehicleTitle: string;
  storeId: string;
  storeName: string;
}

export interface SecurityFixture {
  h: Harness;
  /** The team whose keys make the requests. */
  own: TeamRecords;
  /** Another team, whose records must stay invisible and untouched. */
  other: TeamRecords;
  /** A key of the own team with exactly these scopes (created once per set). */
  keyWith(scopes: readonly Scope[]): Promise<string>;
  /** A key of the own team that was valid, then revoked. */
  revokedKey: string;
}

let seq = 0;

async function seedTeam(h: Harness, label: string): Promise<TeamRecords> {
  const caller = await h.team();
  const n = ++seq;
  const dealTitle = `Negócio ${label} ${n} zqx${n}`;
  const clientName = `Cliente ${label} ${n} zqx${n}`;
  const deal = await caller.post('/deals', { title: dealTitle, value: 1000 });
  const client = await caller.post('/clients', { type: 'PF', name: clientName });
  const vehicleTitle = `Veículo ${label} ${n} zqx${n}`;
  const vehicle = await caller.post('/vehicles', { title: vehicleTitle, brand: 'Fiat', model: 'Strada', price: 1000 });
  if (deal.status !== 201 || client.status !== 201 || vehicle.status !== 201) {
    throw new Error(`seeding failed: deal ${deal.status} ${deal.text}; client ${client.status} ${client.text}; vehicle ${vehicle.status} ${vehicle.text}`);
  }
  const storeName = `Loja ${label} ${n} zqx${n}`;
  const store = await h.services.stores.create(caller.teamId, { name: storeName });
  return {
    caller,
    dealId: deal.body.data.id,
    dealTitle,
    clientId: client.body.data.id,
    clientName,
    vehicleId: vehicle.body.data.id,
    vehicleTitle,
    storeId: store.id,
    storeName,
  };
}

export async function createSecurityFixture(h: Harness): Promise<SecurityFixture> {
  const own = await seedTeam(h, 'próprio');
  const other = await seedTeam(h, 'alheio');
  const { keys } = h.services;
  const revoked = await keys.create({ teamId: own.caller.teamId, name: 'revogada' });
  await keys.revoke(revoked.id);
  const cache = new Map<string, string>();
  return {
    h,
    own,
    other,
    revokedKey: revoked.key,
    async keyWith(scopes) {
      const id = [...scopes].sort().join(' ');
      let key = cache.get(id);
      if (!key) {
        key = (await h.key(own.caller.teamId, [...scopes])).key;
        cache.set(id, key);
      }
      return key;
    },
  };
}

/** The team's record of `resource`. */
export function idOf(team: TeamRecords, resource: Resource): string {
  return { deals: team.dealId, clients: team.clientId, vehicles: team.vehicleId, stores: team.storeId }[resource];
}

/** The route's path with `:id` filled in: the own or the other team's record, or UNKNOWN_ID. */
export function pathFor(route: SecuredRoute, fx: SecurityFixture, whose: 'own' | 'other' = 'own'): string {
  if (!route.path.includes(':id')) return route.path;
  const team = fx[whose];
  return route.path.replace(':id', route.resource ? idOf(team, route.resource) : UNKNOWN_ID);
}

export interface SendOptions {
  /** Full Authorization header value; null sends none. */
  authorization: string | null;
  /** JSON body (serialized) or raw text (sent as is). Defaults to the route's body. */
  body?: unknown;
  raw?: string;
  contentType?: string;
}

/** One request to a route, exactly as given (no header the caller did not ask for). */
export function send(h: Harness, method: Method, path: string, options: SendOptions): Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.authorization !== null) headers.authorization = options.authorization;
  let payload: string | undefined;
  if (options.raw !== undefined) payload = options.raw;
  else if (options.body !== undefined) payload = JSON.stringify(options.body);
  if (payload !== undefined || options.contentType) headers['content-type'] = options.contentType ?? 'application/json';
  const request: InjectOptions = { method, url: `/api/v1${path}`, headers, ...(payload !== undefined ? { payload } : {}) };
  return h.inject(request);
}

export const sendRoute = (fx: SecurityFixture, route: SecuredRoute, authorization: string | null, whose: 'own' | 'other' = 'own') =>
  send(fx.h, route.method, pathFor(route, fx, whose), { authorization, body: route.body });

export const bearer = (key: string) => `Bearer ${key}`;

export { expectError };

export const expectUnauthorized = (res: Response) => expectError(res, 401, 'UNAUTHORIZED', AUTH_MESSAGES.unauthorized);
export const expectForbidden = (res: Response) => expectError(res, 403, 'FORBIDDEN', AUTH_MESSAGES.forbidden);

/** Neither the key nor its hash appears in the body or any header of a response. */
export function expectNoSecret(res: Response, key: string): void {
  const hash = createHash('sha256').update(key).digest('hex');
  const everything = res.text + '\n' + JSON.stringify(res.headers);
  expect(everything.includes(key), 'the API key was echoed').toBe(false);
  expect(everything.includes(hash), 'the API key hash was echoed').toBe(false);
}

/** Malformed or wrong Authorization headers; each must give 401 (`key` is a valid key of the caller). */
export const BAD_AUTHORIZATIONS: ReadonlyArray<{ label: string; header: (key: string) => string | null }> = [
  { label: 'no Authorization header', header: () => null },
  { label: 'an empty Authorization header', header: () => '' },
  { label: 'Bearer <garbage>', header: () => 'Bearer garbage-key-123' },
  { label: 'a well-formed but unknown key', header: () => `Bearer ask_${'A'.repeat(43)}` },
  { label: 'Basic xxx', header: () => 'Basic eHh4Onl5eQ==' },
  { label: 'Basic carrying the real key', header: (key) => `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
  { label: 'Bearer with no key', header: () => 'Bearer' },
  { label: 'lower-case bearer with the real key', header: (key) => `bearer ${key}` },
  { label: 'the real key without a scheme', header: (key) => key },
  { label: 'another scheme (Token) with the real key', header: (key) => `Token ${key}` },
  { label: 'the real key with trailing junk', header: (key) => `Bearer ${key}x` },
  { label: 'the real key, a space and junk', header: (key) => `Bearer ${key} junk` },
  { label: 'the real key truncated by one character', header: (key) => `Bearer ${key.slice(0, -1)}` },
  { label: 'a 10,000-character key', header: () => `Bearer ${'k'.repeat(10_000)}` },
];

async function snapshot(team: TeamRecords, resource: Resource, id: string): Promise<Response> {
  const res = await team.caller.get(`/${resource}/${id}`);
  expect(res.status, res.text).toBe(200);
  return res;
}

/** Every id in the caller's lists of `resource`, across the default list and the soft-deleted status. */
export async function listedIds(caller: Caller, resource: Resource, query = ''): Promise<string[]> {
  const deleted = resource === 'clients' || resource === 'stores' ? 'inactive' : 'arquivado';
  const ids: string[] = [];
  for (const q of [query, `${query}${query ? '&' : ''}status=${deleted}`]) {
    const res = await caller.get(`/${resource}?limit=100${q ? `&${q}` : ''}`);
    expect(res.status, res.text).toBe(200);
    ids.push(...(res.body.data as Array<{ id: string }>).map((r) => r.id));
  }
  return ids;
}

/** State a rejected request must not change: the own record (`:id` routes) or the list size (POST). */
async function ownState(fx: SecurityFixture, route: SecuredRoute): Promise<unknown> {
  if (!route.resource || route.method === 'GET') return null;
  if (route.method === 'POST') return (await listedIds(fx.own.caller, route.resource)).length;
  const id = idOf(fx.own, route.resource);
  return (await snapshot(fx.own, route.resource, id)).body;
}

/**
 * Registers the security tests of one route. `fixture` is read lazily (it is built in beforeAll).
 */
export function securityMatrix(route: SecuredRoute, fixture: () => SecurityFixture): void {
  describe(`${route.method} /api/v1${route.path}`, () => {
    for (const variant of BAD_AUTHORIZATIONS) {
      it(`401 with ${variant.label}`, async () => {
        const fx = fixture();
        const before = await ownState(fx, route);
        const res = await sendRoute(fx, route, variant.header(fx.own.caller.key));
        expectUnauthorized(res);
        expectNoSecret(res, fx.own.caller.key);
        expect(await ownState(fx, route)).toEqual(before);
      });
    }

    it('401 with a revoked key', async () => {
      const fx = fixture();
      const before = await ownState(fx, route);
      const res = await sendRoute(fx, route, bearer(fx.revokedKey));
      expectUnauthorized(res);
      expectNoSecret(res, fx.revokedKey);
      expect(await ownState(fx, route)).toEqual(before);
    });

    if (route.scope) {
      const needed = route.scope;
      it(`403 with a key holding every scope but ${needed}`, async () => {
        const fx = fixture();
        const key = await fx.keyWith(SCOPES.filter((s) => s !== needed));
        const before = await ownState(fx, route);
        const res = await sendRoute(fx, route, bearer(key));
        expectForbidden(res);
        expectNoSecret(res, key);
        expect(await ownState(fx, route)).toEqual(before);
      });

      it(`${route.ok} with a key holding only ${needed}`, async () => {
        const fx = fixture();
        const key = await fx.keyWith([needed]);
        const res = await sendRoute(fx, route, bearer(key));
        expect(res.status, res.text).not.toBe(401);
        expect(res.status, res.text).not.toBe(403);
        expect(res.status, res.text).toBe(route.ok);
        expect(res.body?.success, res.text).toBe(true);
        expectNoSecret(res, key);
      });
    } else {
      it(`${route.ok} with a key holding any single scope (authentication, no particular scope)`, async () => {
        const fx = fixture();
        for (const scope of SCOPES) {
          const key = await fx.keyWith([scope]);
          const res = await sendRoute(fx, route, bearer(key));
          expect(res.status, `${scope}: ${res.text}`).toBe(route.ok);
          expectNoSecret(res, key);
        }
      });
    }

    const resource = route.resource;
    if (resource && route.path.includes(':id')) {
      it("404 for another team's record, which stays unchanged", async () => {
        const fx = fixture();
        const otherId = idOf(fx.other, resource);
        const before = await snapshot(fx.other, resource, otherId);
        const res = await sendRoute(fx, route, bearer(fx.own.caller.key), 'other');
        expectError(res, 404, 'NOT_FOUND', NOT_FOUND_MESSAGES[resource]);
        // Indistinguishable from an id that exists nowhere: no oracle for other teams' ids.
        const unknown = await send(fx.h, route.method, route.path.replace(':id', UNKNOWN_ID), {
          authorization: bearer(fx.own.caller.key),
          body: route.body,
        });
        expect(unknown.status).toBe(res.status);
        expect(unknown.body).toEqual(res.body);
        const after = await snapshot(fx.other, resource, otherId);
        expect(after.body).toEqual(before.body);
      });
    }

    if (resource && !route.path.includes(':id') && route.method === 'GET') {
      it("never lists another team's records", async () => {
        const fx = fixture();
        const key = await fx.keyWith([route.scope!]);
        const caller = { ...fx.own.caller, get: (p: string) => send(fx.h, 'GET', p, { authorization: bearer(key) }) };
        const otherIds = [fx.other.dealId, fx.other.clientId, fx.other.vehicleId, fx.other.storeId];
        const ownId = idOf(fx.own, resource);
        const otherName = { deals: fx.other.dealTitle, vehicles: fx.other.vehicleTitle, clients: fx.other.clientName, stores: fx.other.storeName }[resource];
        const all = await listedIds(caller, resource);
        expect(all).toContain(ownId);
        for (const query of ['', `search=${encodeURIComponent(otherName)}`, `search=${encodeURIComponent(otherName.split(' ').pop()!)}`]) {
          const ids = await listedIds(caller, resource, query);
          for (const id of otherIds) expect(ids, `query '${query}'`).not.toContain(id);
        }
        if (resource === 'deals') {
          expect(await listedIds(caller, 'deals', `client_id=${fx.other.clientId}`)).toEqual([]);
        }
      });
    }

    if (resource && route.method === 'POST') {
      it('creates in the caller’s team only: the other team cannot see the new record', async () => {
        const fx = fixture();
        const res = await sendRoute(fx, route, bearer(fx.own.caller.key));
        expect(res.status, res.text).toBe(201);
        const id = res.body.data.id as string;
        expectError(await fx.other.caller.get(`/${resource}/${id}`), 404, 'NOT_FOUND', NOT_FOUND_MESSAGES[resource]);
        expect(await listedIds(fx.other.caller, resource)).not.toContain(id);
        expect((await fx.own.caller.get(`/${resource}/${id}`)).status).toBe(200);
      });
    }
  });
}
