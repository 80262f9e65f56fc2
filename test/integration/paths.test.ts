import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';
import { ANNOUNCED_ENDPOINTS, AUTH_MESSAGES, UNKNOWN_ID, bearer, expectError, expectUnauthorized, send } from '../support/security.js';
import { panelIndexHtml } from '../../src/http/panel-app.js';

const ROUTE_NOT_FOUND = 'Rota não encontrada';
const METHOD_NOT_ALLOWED = 'Método não permitido para esta rota';
const BODY_NOT_OBJECT = 'O corpo da requisição deve ser um objeto JSON';

const allowOf = (header: unknown): string[] =>
  (typeof header === 'string' ? header : '')
    .split(',')
    .map((m) => m.trim().toUpperCase())
    .filter(Boolean);

for (const dialect of DIALECTS) {
  describe(`paths and request framing (${dialect})`, () => {
    let h: Harness;
    let me: Caller;
    let dealId: string;
    let clientId: string;

    beforeAll(async () => {
      h = await createHarness(dialect);
      me = await h.team();
      dealId = (await me.post('/deals', { title: 'Negócio de rotas' })).body.data.id;
      clientId = (await me.post('/clients', { type: 'PF', name: 'Cliente de rotas' })).body.data.id;
    });
    afterAll(async () => {
      await h?.close();
    });

    describe('unknown paths → 404 NOT_FOUND, with or without a key', () => {
      const unknown: Array<[string, string]> = [
        ['GET', '/api/v2/deals'],
        ['POST', '/api/v2/deals'],
        ['GET', '/api/v1/vehicle'],
        ['GET', '/api/v1/vehicles/123/x'],
        ['GET', '/api/v1'],
        ['GET', '/api/v1/'],
        ['GET', '/api'],
        ['GET', '/deals'],
        ['GET', '/v1/deals'],
        ['GET', '/api/v1/deal'],
        ['GET', '/api/v1/DEALS'],
        ['GET', '/api/v1/deals/x/y'],
        ['PUT', '/api/v1/deals/x/y/z'],
        ['GET', '/api/v1/clients/x/deals'],
        ['GET', '/api/v1/financial/x/y'],
        ['GET', '/api/v1/activities/x/other'],
        ['GET', '/api/v1/webhooks/x/deliveries'],
        ['GET', '/healthz'],
        ['GET', '/api/v1/health'],
        ['GET', '/.env'],
        ['GET', '/api/v1/../../etc/passwd'],
      ];
      for (const [method, url] of unknown) {
        it(`${method} ${url}`, async () => {
          for (const authorization of [null, bearer(me.key), 'Bearer garbage']) {
            const res = await h.inject({ method: method as 'GET', url, headers: authorization ? { authorization } : {} });
            expectError(res, 404, 'NOT_FOUND', ROUTE_NOT_FOUND);
          }
        });
      }
    });

    describe('wrong method on a known path → 405 with Allow', () => {
      const cases: Array<{ method: string; url: () => string; allowed: string[] }> = [
        { method: 'PATCH', url: () => `/api/v1/deals/${dealId}`, allowed: ['GET', 'PUT', 'DELETE'] },
        { method: 'POST', url: () => `/api/v1/deals/${dealId}`, allowed: ['GET', 'PUT', 'DELETE'] },
        { method: 'DELETE', url: () => '/api/v1/deals', allowed: ['GET', 'POST'] },
        { method: 'PUT', url: () => '/api/v1/deals', allowed: ['GET', 'POST'] },
        { method: 'PATCH', url: () => '/api/v1/clients', allowed: ['GET', 'POST'] },
        { method: 'POST', url: () => `/api/v1/clients/${clientId}`, allowed: ['GET', 'PUT', 'DELETE'] },
        { method: 'PATCH', url: () => `/api/v1/clients/${clientId}`, allowed: ['GET', 'PUT', 'DELETE'] },
        { method: 'POST', url: () => '/health', allowed: ['GET'] },
        { method: 'DELETE', url: () => '/ready', allowed: ['GET'] },
        { method: 'DELETE', url: () => '/api/v1/financial/summary', allowed: ['GET'] },
        { method: 'GET', url: () => `/api/v1/activities/${UNKNOWN_ID}/complete`, allowed: ['PUT'] },
        { method: 'GET', url: () => `/api/v1/webhooks/${UNKNOWN_ID}`, allowed: ['PUT', 'DELETE'] },
      ];
      for (const c of cases) {
        it(`${c.method} ${c.url().replace(/[0-9a-f-]{36}/, ':id')} (no key needed)`, async () => {
          for (const authorization of [null, bearer(me.key), 'Bearer garbage']) {
            const res = await h.inject({ method: c.method as 'GET', url: c.url(), headers: authorization ? { authorization } : {} });
            expectError(res, 405, 'METHOD_NOT_ALLOWED', METHOD_NOT_ALLOWED);
            const allow = allowOf(res.headers.allow);
            for (const m of c.allowed) expect(allow, `Allow: ${String(res.headers.allow)}`).toContain(m);
            expect(allow).not.toContain(c.method);
          }
        });
      }

      it('the trailing-slash form gets 405 too', async () => {
        const res = await h.inject({ method: 'PATCH', url: `/api/v1/deals/${dealId}/` });
        expectError(res, 405, 'METHOD_NOT_ALLOWED', METHOD_NOT_ALLOWED);
        expect(allowOf(res.headers.allow)).toContain('PUT');
      });
    });

    describe('announced, unavailable endpoints → 501 after authentication', () => {
      for (const [method, path] of ANNOUNCED_ENDPOINTS) {
        it(`${method} /api/v1${path}`, async () => {
          const url = path.replace(':id', UNKNOWN_ID);
          const body = method === 'POST' || method === 'PUT' ? { descricao: 'teste' } : undefined;
          const ok = await send(h, method, url, { authorization: bearer(me.key), body });
          expectError(ok, 501, 'NOT_IMPLEMENTED', AUTH_MESSAGES.notImplemented);
          expectUnauthorized(await send(h, method, url, { authorization: null, body }));
          expectUnauthorized(await send(h, method, url, { authorization: 'Bearer garbage', body }));
          if (path.includes(':id')) {
            // Any id, UUID or not, is the same unavailable endpoint.
            const other = await send(h, method, path.replace(':id', 'abc'), { authorization: bearer(me.key), body });
            expectError(other, 501, 'NOT_IMPLEMENTED', AUTH_MESSAGES.notImplemented);
          }
        });
      }
    });

    describe('GET / says where things are (no key needed)', () => {
      it('JSON for API clients: the success envelope with links that all answer', async () => {
        for (const accept of [undefined, '*/*', 'application/json']) {
          const res = await h.inject({ method: 'GET', url: '/', headers: accept ? { accept } : {} });
          expect(res.status, res.text).toBe(200);
          expect(res.headers['content-type']).toMatch(/^application\/json/);
          expect(res.body).toEqual({
            success: true,
            data: {
              name: 'autosales API',
              version: expect.any(String),
              links: { docs: '/docs', openapi: '/api/v1/openapi.json', api: '/api/v1', health: '/health', ready: '/ready' },
            },
          });
        }
        const { links } = (await h.inject({ method: 'GET', url: '/' })).body.data;
        for (const url of [links.docs, links.openapi, links.health, links.ready]) {
          const res = await h.inject({ method: 'GET', url });
          expect(res.status, `${url}: ${res.text.slice(0, 200)}`).toBe(200);
        }
      });

      it('HTML for browsers: the panel when it is built (else a page with the same links), with a strict CSP', async () => {
        const res = await h.inject({ method: 'GET', url: '/', headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(String(res.headers.vary)).toMatch(/accept/i);
        expect(String(res.headers['content-security-policy'])).toMatch(/default-src 'none'/);
        if (panelIndexHtml() !== null) {
          expect(res.text).toContain('<div id="root"></div>');
          expect(res.headers['cache-control']).toBe('no-cache');
          expect(res.text).not.toMatch(/https?:\/\//);
        } else {
          for (const href of ['/docs', '/api/v1/openapi.json', '/health', '/ready']) expect(res.text).toContain(`href="${href}"`);
          expect(res.text).not.toMatch(/<script|https?:\/\//);
        }
      });

      it('other methods on / are 405', async () => {
        const res = await h.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload: '{}' });
        expectError(res, 405, 'METHOD_NOT_ALLOWED', METHOD_NOT_ALLOWED);
        expect(allowOf(res.headers.allow).sort()).toEqual(['GET', 'HEAD']);
      });
    });

    describe('health and readiness', () => {
      it('GET /health → 200 without authentication', async () => {
        const res = await h.inject({ method: 'GET', url: '/health' });
        expect(res.status).toBe(200);
        expect(res.body.success).toBe(true);
      });

      it('GET /ready → 200 with the database up', async () => {
        const res = await h.inject({ method: 'GET', url: '/ready' });
        expect(res.status, res.text).toBe(200);
        expect(res.body.success).toBe(true);
      });

      it('GET /ready → 503 SERVICE_UNAVAILABLE once the database is closed; /health still 200', async () => {
        const down = await createHarness(dialect);
        try {
          expect((await down.inject({ method: 'GET', url: '/ready' })).status).toBe(200);
          await down.testDb.db.close();
          const res = await down.inject({ method: 'GET', url: '/ready' });
          expectError(res, 503, 'SERVICE_UNAVAILABLE', 'Banco de dados indisponível');
          const health = await down.inject({ method: 'GET', url: '/health' });
          expect(health.status).toBe(200);
        } finally {
          await down.app.close();
          // The database is already closed; this only removes the SQLite temp dir (a second close may throw).
          await down.testDb.close().catch(() => undefined);
        }
      });
    });

    describe('request bodies', () => {
      const posts = ['/deals', '/clients'];
      const puts = () => [`/deals/${dealId}`, `/clients/${clientId}`];

      it('415 UNSUPPORTED_MEDIA_TYPE for text/plain and form bodies', async () => {
        for (const path of [...posts, ...puts()]) {
          const method = posts.includes(path) ? 'POST' : 'PUT';
          for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml']) {
            const res = await send(h, method, path, { authorization: bearer(me.key), raw: 'title=x&type=PF&name=y', contentType });
            expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE', "Content-Type deve ser 'application/json'");
          }
        }
      });

      it('413 PAYLOAD_TOO_LARGE for a JSON body over 1 MiB', async () => {
        const big = JSON.stringify({ title: 'x', type: 'PF', name: 'y', description: 'a'.repeat(1024 * 1024 + 1), notes: 'b' });
        for (const path of posts) {
          const res = await send(h, 'POST', path, { authorization: bearer(me.key), raw: big });
          expectError(res, 413, 'PAYLOAD_TOO_LARGE', 'O corpo da requisição excede o limite de 1 MiB');
        }
        expectError(await send(h, 'PUT', `/deals/${dealId}`, { authorization: bearer(me.key), raw: big }), 413, 'PAYLOAD_TOO_LARGE');
      });

      it('malformed JSON → 400 JSON inválido', async () => {
        const bad = [
          '{',
          '{"title":',
          '{"title":"x",}',
          "{'title':'x'}",
          '{"title":"x"}}',
          'tru',
          '{"title":"x" "a":1}',
          '\u0000',
          'NaN',
          '{"title":undefined}',
        ];
        for (const path of [...posts, ...puts()]) {
          const method = posts.includes(path) ? 'POST' : 'PUT';
          for (const raw of bad) {
            const res = await send(h, method, path, { authorization: bearer(me.key), raw });
            expectError(res, 400, 'VALIDATION_ERROR', 'JSON inválido');
          }
        }
      });

      it('JSON that is not an object → 400 O corpo da requisição deve ser um objeto JSON', async () => {
        for (const path of [...posts, ...puts()]) {
          const method = posts.includes(path) ? 'POST' : 'PUT';
          for (const raw of ['[]', '[{"title":"x"}]', '"texto"', '42', '-1.5', 'null', 'true', 'false']) {
            const res = await send(h, method, path, { authorization: bearer(me.key), raw });
            expect(res.status, `${method} ${path} ${raw}: ${res.text}`).toBe(400);
            expectError(res, 400, 'VALIDATION_ERROR', BODY_NOT_OBJECT);
          }
        }
      });

      it('POST or PUT with no body → 400', async () => {
        for (const path of [...posts, ...puts()]) {
          const method = posts.includes(path) ? 'POST' : 'PUT';
          const bare = await send(h, method, path, { authorization: bearer(me.key) });
          expectError(bare, 400, 'VALIDATION_ERROR', BODY_NOT_OBJECT);
          const emptyJson = await send(h, method, path, { authorization: bearer(me.key), raw: '' });
          expectError(emptyJson, 400, 'VALIDATION_ERROR', BODY_NOT_OBJECT);
          const blankJson = await send(h, method, path, { authorization: bearer(me.key), raw: '  \n ' });
          expectError(blankJson, 400, 'VALIDATION_ERROR', BODY_NOT_OBJECT);
        }
      });

      it('DELETE with Content-Type: application/json and an empty body → 200', async () => {
        const deal = (await me.post('/deals', { title: 'apagar com cabeçalho' })).body.data.id;
        const client = (await me.post('/clients', { type: 'PF', name: 'apagar com cabeçalho' })).body.data.id;
        const d = await send(h, 'DELETE', `/deals/${deal}`, { authorization: bearer(me.key), raw: '' });
        expect(d.status, d.text).toBe(200);
        expect(d.body.data.status).toBe('arquivado');
        const c = await send(h, 'DELETE', `/clients/${client}`, { authorization: bearer(me.key), raw: '' });
        expect(c.status, c.text).toBe(200);
        expect(c.body.data.status).toBe('inactive');
      });

      it('__proto__ / constructor.prototype payloads never pollute and never give 500', async () => {
        const payloads = [
          '{"title":"x","type":"PF","name":"y","__proto__":{"polluted":"sim"}}',
          '{"title":"x","type":"PF","name":"y","constructor":{"prototype":{"polluted":"sim"}}}',
          '{"title":"x","type":"PF","name":"y","address":{"__proto__":{"polluted":"sim"}}}',
          '{"title":"x","type":"PF","name":"y","address":{"constructor":{"prototype":{"polluted":"sim"}}}}',
          '{"title":"x","type":"PF","name":"y","tags":["__proto__"],"__proto__":null}',
          '{"__proto__":{"title":"herdado","type":"PF","name":"herdado"}}',
          '{"title":"x","type":"PF","name":"y","prototype":{"polluted":"sim"},"hasOwnProperty":1,"toString":2}',
        ];
        for (const path of [...posts, ...puts()]) {
          const method = posts.includes(path) ? 'POST' : 'PUT';
          for (const raw of payloads) {
            const res = await send(h, method, path, { authorization: bearer(me.key), raw });
            expect(res.status, `${method} ${path} ${raw}: ${res.text}`).toBeLessThan(500);
            expect(res.body?.success === true || (typeof res.body?.error?.code === 'string' && res.status >= 400), res.text).toBe(true);
            expect(({} as Record<string, unknown>).polluted).toBeUndefined();
            expect(JSON.stringify(res.body ?? {})).not.toContain('polluted');
          }
        }
        for (const query of ['__proto__[polluted]=sim', '__proto__.polluted=sim', 'constructor[prototype][polluted]=sim', '__proto__=sim']) {
          for (const path of ['/deals', '/clients']) {
            const res = await send(h, 'GET', `${path}?${query}`, { authorization: bearer(me.key) });
            expect(res.status, res.text).toBeLessThan(500);
          }
        }
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
      });
    });

    describe('slashes', () => {
      it('a trailing slash names the same resource', async () => {
        const list = await h.inject({ method: 'GET', url: '/api/v1/deals/', headers: { authorization: bearer(me.key) } });
        expect(list.status, list.text).toBe(200);
        expect(Array.isArray(list.body.data)).toBe(true);
        const one = await h.inject({ method: 'GET', url: `/api/v1/deals/${dealId}/`, headers: { authorization: bearer(me.key) } });
        expect(one.status, one.text).toBe(200);
        expect(one.body.data.id).toBe(dealId);
        const clients = await h.inject({ method: 'GET', url: '/api/v1/clients/', headers: { authorization: bearer(me.key) } });
        expect(clients.status, clients.text).toBe(200);
        const created = await h.inject({
          method: 'POST',
          url: '/api/v1/deals/',
          headers: { authorization: bearer(me.key), 'content-type': 'application/json' },
          payload: JSON.stringify({ title: 'com barra' }),
        });
        expect(created.status, created.text).toBe(201);
        expect((await h.inject({ method: 'GET', url: '/health/' })).status).toBe(200);
      });

      it('the trailing-slash form still requires a key', async () => {
        expectUnauthorized(await h.inject({ method: 'GET', url: '/api/v1/deals/' }));
        expectUnauthorized(await h.inject({ method: 'GET', url: `/api/v1/deals/${dealId}/` }));
      });
    });

    describe('router-level and storage-level edges', () => {
      it('a URL that is not valid percent-encoding is 400 URL inválida in the envelope', async () => {
        const res = await h.inject({ method: 'GET', url: '/api/v1/deals/%E0%A4%A', headers: { authorization: bearer(me.key) } });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ success: false, error: { code: 'VALIDATION_ERROR', message: 'URL inválida' } });
      });

      it('an id longer than any id we issue is 404 in the envelope', async () => {
        const res = await h.inject({ method: 'GET', url: `/api/v1/deals/${'a'.repeat(5000)}`, headers: { authorization: bearer(me.key) } });
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      });

      it('a NUL character in a body field or query parameter is 400 naming it (never reaches the database)', async () => {
        const body = await me.post('/deals', { title: 'a\u0000b' });
        expect(body.status).toBe(400);
        expect(body.body.error).toEqual({
          code: 'VALIDATION_ERROR',
          message: "Campo 'title' contém o caractere nulo (\\u0000), que não é aceito",
          field: 'title',
          errors: [{ field: 'title', message: "Campo 'title' contém o caractere nulo (\\u0000), que não é aceito" }],
        });
        const nested = await me.post('/clients', { type: 'PF', name: 'x', address: { city: '\u0000' } });
        expect(nested.body.error).toMatchObject({ message: "Campo 'address.city' contém o caractere nulo (\\u0000), que não é aceito", field: 'address.city' });
        const query = await me.get('/deals?search=a%00');
        expect(query.status).toBe(400);
        expect(query.body.error).toMatchObject({ message: "Parâmetro 'search' contém o caractere nulo (\\u0000), que não é aceito", field: 'search' });
      });

      it('date filters at the ends of the calendar answer normally', async () => {
        for (const q of ['to=9999-12-31', 'from=0001-01-01', 'from=0001-01-01&to=9999-12-31']) {
          const res = await me.get(`/deals?${q}`);
          expect(res.status, q).toBe(200);
        }
      });
    });
  });
}
