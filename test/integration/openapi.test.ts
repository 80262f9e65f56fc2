import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES, NOT_YET_EMITTED } from '../../src/domain/events/event-types.js';
import { ANNOUNCED } from '../../src/http/routes/unavailable.routes.js';
import { SCOPES } from '../../src/domain/teams/api-keys.types.js';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Harness } from '../support/harness.js';
import { createResponseValidator } from '../support/openapi-validator.js';

/** The example bodies of a response (media-type `examples` map). */
const examplesOf = (response: any): any[] => {
  const media = response?.content?.['application/json'];
  return media?.example !== undefined ? [media.example] : Object.values<any>(media?.examples ?? {}).map((e) => e.value);
};

describe('OpenAPI document', () => {
  let h: Harness;
  let doc: any;
  beforeAll(async () => {
    h = await createHarness('sqlite');
    const res = await h.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.status).toBe(200);
    doc = res.body;
  });
  afterAll(() => h.close());

  it('is served without authentication and passes a real OpenAPI 3.1 validator', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc));
    expect(result.valid, JSON.stringify(result)).toBe(true);
  });

  it('documents every endpoint of the contract, the announced ones and health', () => {
    const expected: Record<string, string[]> = {
      '/api/v1/deals': ['get', 'post'],
      '/api/v1/deals/{id}': ['get', 'put', 'delete'],
      '/api/v1/clients': ['get', 'post'],
      '/api/v1/clients/{id}': ['get', 'put', 'delete'],
      '/health': ['get'],
      '/ready': ['get'],
    };
    for (const [methods, url] of ANNOUNCED) expected[`/api/v1${url.replace(/:(\w+)/g, '{$1}')}`] = methods.map((m) => m.toLowerCase());
    for (const [path, methods] of Object.entries(expected)) {
      expect(Object.keys(doc.paths[path] ?? {}).sort(), path).toEqual([...methods].sort());
    }
  });

  it('has the Bearer scheme on every /api/v1 operation, with the envelope and Portuguese examples on errors', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      if (!path.startsWith('/api/v1')) continue;
      for (const [method, op] of Object.entries<any>(item)) {
        expect(op.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
        for (const status of ['401', '429', '500']) {
          const schema = op.responses[status]?.content?.['application/json']?.schema;
          expect(schema?.properties?.error, `${method} ${path} ${status}`).toBeDefined();
          expect(examplesOf(op.responses[status])[0]?.success, `${method} ${path} ${status}`).toBe(false);
        }
        expect(examplesOf(op.responses['401'])[0].error.message).toBe('Chave de API ausente ou inválida');
        expect(op.responses['429'].headers['Retry-After']).toBeDefined();
      }
    }
    const create = doc.paths['/api/v1/deals'].post;
    const messages = examplesOf(create.responses['400']).map((e) => e.error.message);
    expect(messages).toEqual(expect.arrayContaining(["Campo 'title' é obrigatório", 'Prioridade inválida', 'Probabilidade deve ser entre 0 e 100']));
    const duplicate = examplesOf(doc.paths['/api/v1/clients'].post.responses['422']).map((e) => e.error.message);
    expect(duplicate).toEqual(expect.arrayContaining(['CPF já cadastrado', 'CNPJ já cadastrado']));
  });

  it('documents the rate-limit headers on answers and Idempotency-Key on the two POSTs', () => {
    for (const path of ['/api/v1/deals', '/api/v1/clients']) {
      const post = doc.paths[path].post;
      expect(post.parameters.find((p: any) => p.in === 'header' && p.name === 'idempotency-key')?.schema.maxLength).toBe(255);
      expect(Object.keys(post.responses['201'].headers)).toEqual(
        expect.arrayContaining(['RateLimit', 'RateLimit-Policy', 'X-Request-Id', 'Idempotent-Replayed']),
      );
      expect(post.responses['409']).toBeDefined();
      expect(Object.keys(doc.paths[path].get.responses['200'].headers)).toEqual(expect.arrayContaining(['RateLimit', 'RateLimit-Policy']));
    }
  });

  it('documents every event kind as an OpenAPI webhook with the signature headers', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    const won = doc.webhooks['deal.won'].post;
    expect(won.parameters.map((p: any) => p.name)).toEqual(['X-Service-Signature', 'X-Service-Timestamp', 'X-Service-Event-Id']);
    const payload = won.requestBody.content['application/json'].schema;
    expect(payload.required).toEqual(['id', 'type', 'api_version', 'created_at', 'data', 'team_id', 'webhook_id']);
    expect(payload.properties.data.properties.object.title).toBe('Deal');
    // Vehicle events carry exactly the contract's eight vehicle fields.
    const sold = doc.webhooks['vehicle.sold'].post.requestBody.content['application/json'].schema.properties.data.properties.object;
    expect(sold.title).toBe('VehicleEventObject');
    expect(Object.keys(sold.properties)).toEqual(['id', 'title', 'brand', 'model', 'price', 'phase', 'status', 'created_at']);
  });

  it('marks the event kinds nothing emits yet (x-emitted: false and a sentence), from one list: every kind is emitted now', () => {
    expect(NOT_YET_EMITTED.size).toBe(0);
    for (const type of EVENT_TYPES) {
      const op = doc.webhooks[type].post;
      expect(op['x-emitted'], type).toBe(true);
      expect(op.description).not.toMatch(/not emitted/i);
    }
  });

  it('documents 413 and 415 only on operations whose body is read (never on a GET)', () => {
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const readsBody = ['post', 'put', 'delete', 'patch'].includes(method);
        if (!path.startsWith('/api/v1')) {
          expect(op.responses['413'], `${method} ${path}`).toBeUndefined();
          continue;
        }
        expect(op.responses['413'] !== undefined, `${method} ${path} 413`).toBe(readsBody);
        expect(op.responses['415'] !== undefined, `${method} ${path} 415`).toBe(readsBody);
        if (op.requestBody) expect(readsBody).toBe(true);
      }
    }
  });

  it('the error envelope documents the optional field, details and errors', () => {
    const envelope = doc.paths['/api/v1/deals'].post.responses['400'].content['application/json'].schema;
    expect(envelope.properties.error.required.sort()).toEqual(['code', 'message']);
    expect(Object.keys(envelope.properties.error.properties).sort()).toEqual(['code', 'details', 'errors', 'field', 'message']);
    const phase = examplesOf(doc.paths['/api/v1/deals'].post.responses['400']).find((e) => e.error.message === 'Fase inválida');
    expect(phase.error).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'Fase inválida',
      field: 'phase',
      details: { allowed: ['lead', 'qualificado', 'proposta', 'negociacao', 'fechamento'] },
    });
  });

  it('the drift guard rejects an answer the document does not describe', () => {
    const validator = createResponseValidator(doc);
    expect(validator.check('GET', '/api/v1/deals/:id', 404, { success: false, error: { code: 'NOT_FOUND', message: 'Negócio não encontrado' } })).toBeNull();
    expect(validator.check('GET', '/api/v1/deals/:id', 200, { success: true, data: { id: 'x' } })).toMatch(/GET \/api\/v1\/deals\/\{id\} 200/);
    expect(validator.check('GET', '/api/v1/deals/:id', 409, {})).toMatch(/status not documented/);
    expect(
      validator.check('GET', '/api/v1/clients', 200, { success: true, data: [], pagination: { page: 1, limit: 20, total: 0, pages: 0 }, extra: 1 }),
    ).toMatch(/additional/);
  });
});

/** The request examples of an operation: the media type's `example`, or each value of its `examples` map. */
const requestExamples = (op: any): unknown[] => {
  const media = op.requestBody?.content?.['application/json'];
  if (!media) return [];
  return media.example !== undefined ? [media.example] : Object.values<any>(media.examples ?? {}).map((e) => e.value);
};

/**
 * /docs "Try it out" sends these examples: each must be accepted as it is (a valid key, ids of the
 * caller's own records in the path), and again when sent a second time.
 */
describe.each(DIALECTS)('OpenAPI request examples are valid requests (%s)', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(dialect);
  });
  afterAll(() => h.close());

  it('every operation with a body has an example, and every example gets a 2xx', async () => {
    const doc = (await h.inject({ method: 'GET', url: '/api/v1/openapi.json' })).body;
    // The preview areas' examples are tried on a team with the preview on and a key with their scopes.
    const me = await h.team({ scopes: [...SCOPES] });
    await h.services.teams.setPreview(me.teamId, { enable: ['financial', 'activities', 'webhooks'] });
    // The portal lead's example names a car of the stock by its plate.
    expect((await me.post('/vehicles', { title: 'Toyota Corolla XEi 2024', brand: 'Toyota', model: 'Corolla', plate: 'RIO2A18' })).status).toBe(201);
    const ids: Record<string, () => Promise<string>> = {
      '/api/v1/deals/{id}': async () => (await me.post('/deals', { title: 'Alvo do exemplo' })).body.data.id,
      '/api/v1/clients/{id}': async () => (await me.post('/clients', { type: 'PJ', name: 'Alvo do exemplo' })).body.data.id,
      '/api/v1/vehicles/{id}': async () => (await me.post('/vehicles', { title: 'Alvo do exemplo', brand: 'Fiat', model: 'Argo' })).body.data.id,
      '/api/v1/activities/{id}': async () => (await me.post('/activities', { type: 'note', title: 'Alvo do exemplo' })).body.data.id,
      '/api/v1/financial/{id}': async () =>
        (await me.post('/financial', { type: 'cost', category: 'mecanica', description: 'Alvo do exemplo', amount: 10, due_date: '2026-12-01' })).body.data.id,
      '/api/v1/webhooks/{id}': async () => (await me.post('/webhooks', { url: 'https://example.com/alvo' })).body.data.id,
    };
    let sent = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        if (!op.requestBody) continue;
        const examples = requestExamples(op);
        expect(examples.length, `${method} ${path} has no request example`).toBeGreaterThan(0);
        for (const example of examples) {
          for (let round = 1; round <= 2; round++) {
            let url = path;
            if (path.includes('{id}')) {
              expect(ids[path], `no way to make an id for ${path}`).toBeDefined();
              url = path.replace('{id}', await ids[path]!());
            }
            const res = await h.inject({
              method: method.toUpperCase() as 'POST',
              url,
              headers: { authorization: `Bearer ${me.key}` },
              payload: example as object,
            });
            expect(res.status, `${method} ${path} (round ${round}) ${JSON.stringify(example)}: ${res.text}`).toBeGreaterThanOrEqual(200);
            expect(res.status, `${method} ${path} (round ${round}): ${res.text}`).toBeLessThan(300);
            sent++;
          }
        }
      }
    }
    // POST and PUT of deals and vehicles (one example each) and clients (PF and PJ on POST): 7 examples;
    // POST and PUT of activities, financial records and webhooks (preview): 6 more; POST /leads (portal, site,
    // WhatsApp): 3 more. Each twice (a lead sent again answers 200: the same lead).
    expect(sent).toBe(32);
  });
});
