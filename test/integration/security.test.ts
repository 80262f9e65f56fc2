import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/domain/teams/api-keys.types.js';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Harness } from '../support/harness.js';
import { registeredApiEndpoints } from '../support/routes.js';
import {
  NOT_FOUND_MESSAGES,
  UNKNOWN_ID,
  matrixFor,
  bearer,
  createSecurityFixture,
  expectError,
  expectForbidden,
  expectNoSecret,
  expectUnauthorized,
  listedIds,
  pathFor,
  send,
  securityMatrix,
  type Method,
  type Resource,
  type SecurityFixture,
} from '../support/security.js';

/** The /api/v1 endpoints the app registers (built once, before the tests are collected): the matrix iterates these. */
const REGISTERED = await registeredApiEndpoints();
const SECURED = REGISTERED.filter((endpoint) => endpoint.auth);
const MATRIX = matrixFor(SECURED);

describe('the security matrix is the app’s own route list', () => {
  it('every /api/v1 route that takes a key has a matrix entry (a new route cannot escape it)', () => {
    expect(SECURED.length).toBeGreaterThan(20);
    expect(MATRIX.missing, 'registered routes without an entry in test/support/security.ts').toEqual([]);
  });

  it('every matrix entry is a registered route', () => {
    expect(MATRIX.stale, 'entries of test/support/security.ts that no route serves').toEqual([]);
  });

  it('each entry asks for the scope its route enforces', () => {
    for (const route of MATRIX.routes) {
      const endpoint = SECURED.find((e) => e.method === route.method && e.path === route.path)!;
      expect(endpoint.auth?.scope ?? null, `${route.method} ${route.path}`).toBe(route.scope);
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`security (${dialect})`, () => {
    let h: Harness;
    let fx: SecurityFixture;

    beforeAll(async () => {
      h = await createHarness(dialect);
      fx = await createSecurityFixture(h);
    });
    afterAll(async () => {
      await h?.close();
    });

    it('the keyless /api/v1 routes are the OpenAPI document and 405 answers for methods a path does not have', async () => {
      const keyless = REGISTERED.filter((e) => !e.auth && !(e.method === 'GET' && e.path === '/openapi.json'));
      expect(keyless.length).toBeGreaterThan(0);
      for (const e of keyless) {
        const res = await send(h, e.method as Method, e.path.replaceAll(':id', UNKNOWN_ID), { authorization: null });
        expectError(res, 405, 'METHOD_NOT_ALLOWED');
      }
    });

    describe('every route, from the shared helper', () => {
      for (const route of MATRIX.routes) securityMatrix(route, () => fx);
    });

    describe('authentication runs before the body is read or validated', () => {
      const writes = MATRIX.routes.filter((r) => r.method === 'POST' || r.method === 'PUT');
      const badBodies: Array<{ label: string; raw: string; contentType?: string }> = [
        { label: 'malformed JSON', raw: '{"title":' },
        { label: 'a JSON array', raw: '[1,2,3]' },
        { label: 'a JSON string', raw: '"texto"' },
        { label: 'wrong field types', raw: '{"title":5,"type":"XX","name":[],"value":"caro"}' },
        { label: 'an empty body', raw: '' },
        { label: 'a text/plain body', raw: 'title=x', contentType: 'text/plain' },
        { label: 'a form body', raw: 'title=x', contentType: 'application/x-www-form-urlencoded' },
        { label: 'a body over 1 MiB', raw: JSON.stringify({ title: 'x', description: 'a'.repeat(1024 * 1024 + 10) }) },
      ];
      for (const route of writes) {
        it(`${route.method} ${route.path}: bad key + bad body → 401; wrong scope + bad body → 403`, async () => {
          const path = pathFor(route, fx);
          for (const bad of badBodies) {
            const options = { raw: bad.raw, ...(bad.contentType ? { contentType: bad.contentType } : {}) };
            const noKey = await send(h, route.method, path, { authorization: null, ...options });
            expect(noKey.status, `${bad.label} without key: ${noKey.text}`).toBe(401);
            expectUnauthorized(noKey);
            const garbage = await send(h, route.method, path, { authorization: 'Bearer garbage', ...options });
            expect(garbage.status, `${bad.label} with a bad key: ${garbage.text}`).toBe(401);
            expectUnauthorized(garbage);
            if (route.scope) {
              const key = await fx.keyWith(SCOPES.filter((s) => s !== route.scope));
              const wrongScope = await send(h, route.method, path, { authorization: bearer(key), ...options });
              expect(wrongScope.status, `${bad.label} with the wrong scope: ${wrongScope.text}`).toBe(403);
              expectForbidden(wrongScope);
            }
          }
        });
      }

      it('a GET with a bad key and invalid query parameters is 401, not 400', async () => {
        for (const path of ['/deals?page=abc&limit=-1&sort=nope&status=x', '/clients?page=0&type=XX&segment=?']) {
          expectUnauthorized(await send(h, 'GET', path, { authorization: 'Bearer nope' }));
          expectUnauthorized(await send(h, 'GET', path, { authorization: null }));
        }
      });
    });

    describe("a team's key never sees or changes another team's data", () => {
      let a: Awaited<ReturnType<Harness['team']>>;
      let b: Awaited<ReturnType<Harness['team']>>;
      const ids: Record<'a' | 'b', Record<Exclude<Resource, 'stores'>, string[]>> = {
        a: { deals: [], clients: [], vehicles: [] },
        b: { deals: [], clients: [], vehicles: [] },
      };

      beforeAll(async () => {
        a = await h.team();
        b = await h.team();
        for (const [name, caller, n] of [
          ['a', a, 3],
          ['b', b, 2],
        ] as const) {
          for (let i = 0; i < n; i++) {
            const client = await caller.post('/clients', { type: 'PF', name: `Isolado ${name} ${i} marcaiso` });
            expect(client.status, client.text).toBe(201);
            ids[name].clients.push(client.body.data.id);
            const deal = await caller.post('/deals', { title: `Isolado ${name} ${i} marcaiso`, client_id: client.body.data.id });
            expect(deal.status, deal.text).toBe(201);
            ids[name].deals.push(deal.body.data.id);
            const vehicle = await caller.post('/vehicles', { title: `Isolado ${name} ${i} marcaiso`, brand: 'Fiat', model: 'Strada' });
            expect(vehicle.status, vehicle.text).toBe(201);
            ids[name].vehicles.push(vehicle.body.data.id);
          }
        }
      });

      it('list totals count only the own team', async () => {
        for (const resource of ['deals', 'clients', 'vehicles'] as const) {
          const ra = await a.get(`/${resource}?limit=100`);
          const rb = await b.get(`/${resource}?limit=100`);
          expect(ra.body.pagination.total).toBe(3);
          expect(rb.body.pagination.total).toBe(2);
          expect(new Set(ra.body.data.map((r: { id: string }) => r.id))).toEqual(new Set(ids.a[resource]));
          expect(new Set(rb.body.data.map((r: { id: string }) => r.id))).toEqual(new Set(ids.b[resource]));
          const searched = await a.get(`/${resource}?search=marcaiso&limit=100`);
          expect(searched.body.pagination.total).toBe(3);
        }
      });

      it("filtering by another team's client matches nothing", async () => {
        const res = await a.get(`/deals?client_id=${ids.b.clients[0]}`);
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual([]);
        expect(res.body.pagination.total).toBe(0);
      });

      it("GET, PUT and DELETE on the other team's ids → 404, the records unchanged", async () => {
        for (const resource of ['deals', 'clients', 'vehicles'] as const) {
          const body =
            resource === 'deals'
              ? { title: 'sequestrado', status: 'ganho' }
              : resource === 'vehicles'
                ? { title: 'sequestrado', status: 'vendido' }
                : { name: 'sequestrado' };
          for (const id of ids.b[resource]) {
            const before = await b.get(`/${resource}/${id}`);
            expect(before.status).toBe(200);
            expectError(await a.get(`/${resource}/${id}`), 404, 'NOT_FOUND', NOT_FOUND_MESSAGES[resource]);
            expectError(await a.put(`/${resource}/${id}`, body), 404, 'NOT_FOUND', NOT_FOUND_MESSAGES[resource]);
            expectError(await a.delete(`/${resource}/${id}`), 404, 'NOT_FOUND', NOT_FOUND_MESSAGES[resource]);
            // Upper-case form of the same UUID is the same id: still someone else's.
            expectError(await a.get(`/${resource}/${id.toUpperCase()}`), 404, 'NOT_FOUND', NOT_FOUND_MESSAGES[resource]);
            expectError(await a.delete(`/${resource}/${id.toUpperCase()}`), 404, 'NOT_FOUND', NOT_FOUND_MESSAGES[resource]);
            const after = await b.get(`/${resource}/${id}`);
            expect(after.body).toEqual(before.body);
          }
          expect((await b.get(`/${resource}?limit=100`)).body.pagination.total).toBe(2);
        }
      });

      it("a deal cannot be linked to another team's client (400 Cliente não encontrado)", async () => {
        const created = await a.post('/deals', { title: 'ligação alheia', client_id: ids.b.clients[0] });
        expectError(created, 400, 'VALIDATION_ERROR', 'Cliente não encontrado');
        const own = ids.a.deals[0]!;
        const before = await a.get(`/deals/${own}`);
        expectError(await a.put(`/deals/${own}`, { client_id: ids.b.clients[0] }), 400, 'VALIDATION_ERROR', 'Cliente não encontrado');
        expect((await a.get(`/deals/${own}`)).body).toEqual(before.body);
        // Nothing of team b leaks through the embedded client either.
        expect(JSON.stringify((await a.get('/deals?limit=100')).body)).not.toContain(ids.b.clients[0]);
      });

      it("the other team's lists do not change after the attempts", async () => {
        for (const resource of ['deals', 'clients', 'vehicles'] as const) {
          const listed = await listedIds(b, resource);
          expect(new Set(listed)).toEqual(new Set(ids.b[resource]));
        }
      });
    });

    describe('keys are never echoed', () => {
      it('no response of any route, success or error, carries the key or its hash', async () => {
        const key = fx.own.caller.key;
        for (const route of MATRIX.routes) {
          for (const authorization of [bearer(key), `Bearer ${key}x`, `bearer ${key}`, `Basic ${key}`]) {
            const res = await send(h, route.method, pathFor(route, fx), { authorization, body: route.body });
            expect(res.status < 500 || res.status === route.ok, res.text).toBe(true);
            expectNoSecret(res, key);
          }
          // Error paths that echo input are the likeliest leak: the key inside the body and the query.
          const withKeyInBody = await send(h, route.method, `${pathFor(route, fx)}?search=${key}&sort=${key}`, {
            authorization: bearer(key),
            ...(route.method === 'POST' || route.method === 'PUT' ? { body: { title: key, name: key, type: key, phase: key } } : {}),
          });
          expect(withKeyInBody.status < 500 || withKeyInBody.status === route.ok, withKeyInBody.text).toBe(true);
          expect(withKeyInBody.text.includes(key) && withKeyInBody.status >= 400, withKeyInBody.text).toBe(false);
        }
      });

      it('a revoked key is refused on the very next request', async () => {
        const own = await h.team();
        const { keys } = h.services;
        const created = await keys.create({ teamId: own.teamId });
        expect((await send(h, 'GET', '/deals', { authorization: bearer(created.key) })).status).toBe(200);
        await keys.revoke(created.id);
        expectUnauthorized(await send(h, 'GET', '/deals', { authorization: bearer(created.key) }));
        // The team's other keys keep working.
        expect((await own.get('/deals')).status).toBe(200);
      });
    });
  });
}
