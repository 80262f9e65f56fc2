import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/domain/events/event-types.js';
import { ANNOUNCED } from '../../src/http/routes/unavailable.routes.js';
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
      expect(Object.keys(post.responses['201'].headers)).toEqual(expect.arrayContaining(['RateLimit', 'RateLimit-Policy', 'X-Request-Id', 'Idempotent-Replayed']));
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
  });

  it('the drift guard rejects an answer the document does not describe', () => {
    const validator = createResponseValidator(doc);
    expect(validator.check('GET', '/api/v1/deals/:id', 404, { success: false, error: { code: 'NOT_FOUND', message: 'Negócio não encontrado' } })).toBeNull();
    expect(validator.check('GET', '/api/v1/deals/:id', 200, { success: true, data: { id: 'x' } })).toMatch(/GET \/api\/v1\/deals\/\{id\} 200/);
    expect(validator.check('GET', '/api/v1/deals/:id', 409, {})).toMatch(/status not documented/);
    expect(validator.check('GET', '/api/v1/clients', 200, { success: true, data: [], pagination: { page: 1, limit: 20, total: 0, pages: 0 }, extra: 1 })).toMatch(/additional/);
  });
});
