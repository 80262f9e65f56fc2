import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium } from '../support/browser.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';

/* Without Debian's `chromium` package (.ci/run installs it) this file is skipped, not failed. */
if (!HAVE_CHROMIUM) console.warn(`docs-page.test.ts skipped: ${CHROMIUM} not found (apt-get install chromium; .ci/run does it).`);

const SCREENSHOT = '/tmp/docs-page.png';
const DEAL_TITLE = 'Negócio visto pela página de documentação';

describe.skipIf(!HAVE_CHROMIUM)(`GET /docs in headless Chromium${HAVE_CHROMIUM ? '' : ` (skipped: ${CHROMIUM} not installed)`}`, () => {
  let h: Harness;
  let me: Caller;
  let origin: string;
  let browser: Browser;
  let page: Page;
  const requests: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    h = await createHarness('sqlite');
    me = await h.team();
    expect((await me.post('/deals', { title: DEAL_TITLE })).status).toBe(201);
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;

    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console.${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('renders the deals and clients operations from /api/v1/openapi.json, with only local requests', async () => {
    const res = await page.goto(`${origin}/docs`);
    expect(res?.status()).toBe(200);
    // Served with a same-origin-only Content-Security-Policy: the browser itself refuses anything external.
    expect(res?.headers()['content-security-policy']).toMatch(/default-src 'none'/);
    await expect(page.title()).resolves.toBe('autosales API');

    await page.locator('#operations-Deals-listDeals').waitFor({ timeout: 20_000 });
    await page.locator('#operations-Clients-createClient').waitFor();
    await page.waitForLoadState('networkidle');

    const text = await page.locator('#swagger-ui').innerText();
    for (const s of [
      'autosales API',
      'List deals',
      'Create a deal',
      'List clients',
      'Create a client',
      'Get a client',
      '/api/v1/deals',
      '/api/v1/deals/{id}',
      '/api/v1/clients/{id}',
    ]) {
      expect(text, s).toContain(s);
    }
    // The document came from the canonical URL (the plugin's own /docs/json copy was not needed).
    expect(requests).toContain(`${origin}/api/v1/openapi.json`);
    expect(requests.some((u) => u.endsWith('/docs/json'))).toBe(false);
    // No validator badge or other external URL anywhere on the rendered page.
    expect(await page.locator('img[src^="http"]:not([src^="' + origin + '"])').count()).toBe(0);

    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(problems).toEqual([]);
    const foreign = requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:'));
    expect(foreign).toEqual([]);
  });

  it('"Try it out" sends GET /api/v1/deals with the Bearer key entered under Authorize and shows the 200', async () => {
    await page.getByRole('button', { name: 'Authorize', exact: false }).first().click();
    const modal = page.locator('.modal-ux');
    await modal.locator('input').first().fill(me.key);
    await modal.locator('button.modal-btn.authorize').click();
    await modal.locator('button.btn-done').click();

    const op = page.locator('#operations-Deals-listDeals');
    await op.locator('.opblock-summary-control').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    const sent = page.waitForRequest((r) => new URL(r.url()).pathname.replace(/\/+/g, '/') === '/api/v1/deals' && r.method() === 'GET');
    await op.getByRole('button', { name: 'Execute' }).click();
    const request = await sent;
    expect(await request.headerValue('authorization')).toBe(`Bearer ${me.key}`);

    const live = op.locator('.live-responses-table .response');
    await live.first().waitFor({ timeout: 15_000 });
    await expect(live.locator('.response-col_status').first().innerText()).resolves.toMatch(/^200/);
    await expect(op.locator('.live-responses-table').innerText()).resolves.toContain(DEAL_TITLE);

    await op.locator('.live-responses-table').scrollIntoViewIfNeeded();
    await page.screenshot({ path: SCREENSHOT.replace('.png', '-try-it-out.png') });

    expect(problems).toEqual([]);
    expect(requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:'))).toEqual([]);
  }, 60_000);

  it('"Try it out" on the POSTs sends the documented example, not schema placeholders, and gets 201', async () => {
    for (const [id, path, expected] of [
      ['#operations-Deals-createDeal', '/api/v1/deals', { phase: 'proposta' }],
      ['#operations-Clients-createClient', '/api/v1/clients', { type: 'PF' }],
      ['#operations-Vehicles-createVehicle', '/api/v1/vehicles', { brand: 'Chevrolet', model: 'Onix' }],
    ] as const) {
      const op = page.locator(id);
      await op.locator('.opblock-summary-control').click();
      await op.getByRole('button', { name: 'Try it out' }).click();
      const sent = page.waitForRequest((r) => new URL(r.url()).pathname.replace(/\/+/g, '/') === path && r.method() === 'POST');
      await op.getByRole('button', { name: 'Execute' }).click();
      const body = JSON.parse((await sent).postData() ?? 'null');
      expect(body, path).toMatchObject(expected);
      expect(JSON.stringify(body)).not.toContain('"string"');
      const live = op.locator('.live-responses-table .response');
      await live.first().waitFor({ timeout: 15_000 });
      await expect(live.locator('.response-col_status').first().innerText(), path).resolves.toMatch(/^201/);
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
