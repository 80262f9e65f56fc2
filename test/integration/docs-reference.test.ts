import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Harness } from '../support/harness.js';

/**
 * Issue 10, point 7: the repository carries its own API reference (docs/api.md), and a running server
 * serves it (with its sibling pages) at /docs/<name>.md, linked from the OpenAPI document that the
 * /docs page shows. No key needed, like /docs itself.
 */

const doc = (name: string) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8');

describe.each(DIALECTS)('the written reference on a running server (%s)', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(dialect);
  });
  afterAll(() => h?.close());

  it.each(['api.md', 'webhooks.md', 'interpretation.md'])('GET /docs/%s serves the file as text/markdown, without a key', async (name) => {
    const res = await h.app.inject({ method: 'GET', url: `/docs/${name}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`inline; filename="${name}"`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
    expect(res.body).toBe(doc(name));

    const head = await h.app.inject({ method: 'HEAD', url: `/docs/${name}` });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('another method is 405 with Allow; an unknown page is the 404 envelope', async () => {
    const post = await h.inject({ method: 'POST', url: '/docs/api.md', payload: {} });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toMatch(/GET/);
    expect(post.body).toEqual({ success: false, error: { code: 'METHOD_NOT_ALLOWED', message: 'Método não permitido para esta rota' } });
    for (const url of ['/docs/nope.md', '/docs/../README.md', '/docs/api.md.bak']) {
      const res = await h.inject({ method: 'GET', url });
      expect(res.status, url).toBe(404);
      expect(res.body, url).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'Rota não encontrada' } });
    }
  });

  it('the OpenAPI description (shown at the top of /docs) links to the reference, and every link it has answers', async () => {
    const openapi = (await h.inject({ method: 'GET', url: '/api/v1/openapi.json' })).body;
    const description: string = openapi.info.description;
    expect(description).toContain('[/docs/api.md](/docs/api.md)');
    const links = [...description.matchAll(/\]\((\/[^)\s]+)\)/g)].map((m) => m[1]!);
    expect(links).toEqual(expect.arrayContaining(['/docs/api.md', '/docs/webhooks.md']));
    for (const link of links) expect((await h.app.inject({ method: 'GET', url: link })).statusCode, link).toBe(200);
    expect(description).not.toContain('../shared');
  });
});
