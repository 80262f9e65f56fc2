import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { panelIndexHtml, PANEL_PAGES } from '../../src/http/panel-app.js';
import { createHarness, type Harness } from '../support/harness.js';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/** The built panel served by the app: the entry page at its client routes, hashed assets cached for good. */
describe('the panel app served at /', () => {
  let h: Harness;
  const index = panelIndexHtml();

  beforeAll(async () => {
    if (index === null) throw new Error('The panel is not built (packages/panel/dist): run npm run build first.');
    h = await createHarness('sqlite');
  });
  afterAll(() => h?.close());

  it('answers index.html, never cached and with a same-origin CSP, at every client route (reloads and links work)', async () => {
    for (const page of PANEL_PAGES) {
      for (const url of [`/${page}`, `/${page}/algo/mais`, `/${page}?voltar=%2F`]) {
        const res = await h.inject({ method: 'GET', url, headers: HTML });
        expect(res.status, url).toBe(200);
        expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
        expect(res.headers['cache-control'], url).toBe('no-cache');
        expect(String(res.headers['content-security-policy']), url).toMatch(/default-src 'none'.*script-src 'self'.*connect-src 'self'/);
        expect(res.text, url).toBe(index);
      }
    }
  });

  it('serves the hashed assets the page names as immutable for a year, with their types', async () => {
    const assets = [...(index ?? '').matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    for (const url of assets) {
      const res = await h.inject({ method: 'GET', url });
      expect(res.status, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
      expect(String(res.headers['content-type']), url).toMatch(url.endsWith('.js') ? /javascript/ : /text\/css/);
    }
    const css = assets.find((a) => a.endsWith('.css'))!;
    const fonts = [...(await h.inject({ method: 'GET', url: css })).text.matchAll(/url\((\/assets\/[^)]+\.woff2)\)/g)].map((m) => m[1]!);
    expect(fonts.length, 'the bundled font').toBeGreaterThan(0);
    const font = await h.inject({ method: 'GET', url: fonts[0]! });
    expect(font.status).toBe(200);
    expect(font.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('leaves the API alone: unknown paths, /api and /panel/api stay JSON, / stays JSON for scripts', async () => {
    for (const url of ['/api/v1/nope', '/panel/api/nope', '/nao-existe', '/assets/nao-existe.js', '/index.html']) {
      const res = await h.inject({ method: 'GET', url, headers: HTML });
      expect(res.status, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
    }
    const root = await h.inject({ method: 'GET', url: '/' });
    expect(root.status).toBe(200);
    expect(root.body.data.links.api).toBe('/api/v1');
    const browser = await h.inject({ method: 'GET', url: '/', headers: HTML });
    expect(browser.text).toBe(index);
  });
});
