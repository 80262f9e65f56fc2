import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateHistories } from '../../src/domain/ai/synthetic-histories.js';
import { insertSyntheticHistory } from '../../src/domain/ai/synthetic.repository.js';
import { HAVE_CHROMIUM, CHROMIUM, launchChromium, PANEL_DIST, screenshot, watchPage, type PageWatch } from '../support/browser.js';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Harness } from '../support/harness.js';

/**
 * Issue 28 in the panel, in headless Chromium against the real server: a team with a generated
 * history and a trained model shows the probability badge on its deal cards, the factors that raise
 * and lower it in a deal's dialog, the weighted pipeline on Início and the model's metrics with the
 * reliability chart in Settings → Probabilidade. Screenshots go to test-output/screenshots.
 */
if (!HAVE_CHROMIUM) console.warn(`panel-probability.test.ts skipped: ${CHROMIUM} not found (apt-get install chromium; .ci/run does it).`);
if (!existsSync(join(PANEL_DIST, 'index.html'))) throw new Error(`The panel is not built (${PANEL_DIST}): run npm run build first.`);

const PASSWORD = 'senha-do-dono-123';
const EXPECTED = (text: string) =>
  /^request failed: GET .*\/panel\/api\/\S+ net::ERR_ABORTED$/.test(text) ||
  /^HTTP 401: GET .*\/panel\/api\/session$/.test(text) ||
  /^console\.error: Failed to load resource: the server responded with a status of 401 /.test(text);

for (const dialect of DIALECTS) {
  const shots = dialect === DIALECTS[0];
  const shot = async (page: Page, name: string) => {
    if (shots) await screenshot(page, name);
  };

  describe.skipIf(!HAVE_CHROMIUM)(`win probability in the panel (${dialect})`, () => {
    let h: Harness;
    let browser: Browser;
    let page: Page;
    let watch: PageWatch;
    let origin: string;

    beforeAll(async () => {
      h = await createHarness(dialect);
      const t = await h.team();
      // A history ending now (the browser's clock is the real one, as the session cookie's).
      const g = generateHistories({ seed: 5, deals: 1500, signal: 1, start: Date.now() - 540 * 86_400_000 });
      await insertSyntheticHistory(h.testDb.db.kysely, t.teamId, g);
      expect((await h.services.ai.train(t.teamId)).used).toBe('model');
      const email = `dono.probabilidade.${dialect}.${Date.now()}@loja.example.com.br`;
      await h.services.users.create({ teamId: t.teamId, email, name: 'Marina Dona', role: 'owner', password: PASSWORD });
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      origin = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
      browser = await launchChromium();
      const context = await browser.newContext({ viewport: { width: 1500, height: 900 }, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
      page = await context.newPage();
      page.setDefaultTimeout(10_000);
      watch = watchPage(page, EXPECTED);
      await page.goto(`${origin}/entrar?voltar=%2Fnegocios`);
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Senha').fill(PASSWORD);
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.waitForURL(`${origin}/negocios`);
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await h?.close();
    });

    it('each deal card shows its probability as a badge coloured by band', async () => {
      const badges = page.locator('[data-testid="board-card"] [data-testid="probability-badge"]');
      await badges.first().waitFor();
      expect(await badges.count()).toBeGreaterThan(10);
      const texts = await badges.allInnerTexts();
      for (const text of texts) expect(text).toMatch(/^\d{1,3}%$/);
      // The test's tsconfig has no DOM types: the classes come back as text.
      const classes = await badges.evaluateAll((els) => els.map((e) => (e as unknown as { className: string }).className));
      const kinds = new Set(classes.map((c) => c.split(' ').find((k) => k.startsWith('badge-'))));
      expect(kinds.size).toBeGreaterThan(1);
      await shot(page, '60-probabilidade-quadro');
    });

    it("a deal's dialog explains its probability: the factors that raise and lower it, in words, and its summary", async () => {
      await page.locator('[data-testid="board-card"]').first().click();
      const section = page.locator('[data-testid="deal-probability"]');
      await section.waitFor();
      await section.locator('[data-testid="factors-up"] li').first().waitFor();
      const up = await section.locator('[data-testid="factors-up"] li').allInnerTexts();
      const down = await section.locator('[data-testid="factors-down"] li').allInnerTexts();
      expect(up.length + down.length).toBeGreaterThanOrEqual(4);
      expect(up.length).toBeLessThanOrEqual(3);
      expect(down.length).toBeLessThanOrEqual(3);
      for (const text of [...up, ...down]) expect(text).toMatch(/^[a-zçãéíóúâêô0-9]/);
      await expect(section.innerText()).resolves.toMatch(/Cliente \d+/);
      await shot(page, '61-probabilidade-negocio');
      await page.keyboard.press('Escape');
    });

    it('Início shows the weighted pipeline per month of expected close', async () => {
      await page.goto(`${origin}/`);
      const card = page.locator('[data-testid="weighted-pipeline"]');
      await card.locator('.recharts-bar-rectangle').first().waitFor();
      await expect(card.innerText()).resolves.toMatch(/Previsão ponderada por mês[\s\S]*R\$/);
      await shot(page, '62-probabilidade-inicio');
    });

    it('Settings → Probabilidade shows the model’s metrics against the phase’s and a reliability chart', async () => {
      await page.goto(`${origin}/configuracoes/probabilidade`);
      const metrics = page.locator('[data-testid="probability-metrics"]');
      await metrics.waitFor();
      await expect(metrics.innerText()).resolves.toMatch(/AUC do modelo[\s\S]*0,\d{3}[\s\S]*AUC da fase[\s\S]*0,\d{3}/);
      await page.locator('.recharts-scatter-symbol').first().waitFor();
      await page.getByText('Os negócios mostram a probabilidade do modelo').waitFor();
      await shot(page, '63-probabilidade-configuracoes');
      expect(watch.problems).toEqual([]);
    });
  });
}
