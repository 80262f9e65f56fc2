import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, CHROMIUM, launchChromium, PANEL_DIST, screenshot, watchPage, type PageWatch } from '../support/browser.js';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Harness } from '../support/harness.js';

/**
 * Leads in the panel, in headless Chromium against the real server: a manager sets the distribution
 * in Settings → Leads. Screenshots go to test-output/screenshots.
 */
if (!HAVE_CHROMIUM) console.warn(`panel-leads.test.ts skipped: ${CHROMIUM} not found (apt-get install chromium; .ci/run does it).`);
if (!existsSync(join(PANEL_DIST, 'index.html'))) throw new Error(`The panel is not built (${PANEL_DIST}): run npm run build first.`);

const PASSWORD = 'senha-da-loja-123';
const EXPECTED = (text: string) =>
  /^request failed: GET .*\/panel\/api\/\S+ net::ERR_ABORTED$/.test(text) ||
  /^HTTP 401: GET .*\/panel\/api\/session$/.test(text) ||
  /^console\.error: Failed to load resource: the server responded with a status of 401 /.test(text) ||
  // The refused 'Uma pessoa' without a person (the message is shown on the field).
  /^HTTP 400: PUT .*\/panel\/api\/leads\/settings$/.test(text) ||
  /^console\.error: Failed to load resource: the server responded with a status of 400 /.test(text);

for (const dialect of DIALECTS) {
  const shots = dialect === DIALECTS[0];
  const shot = async (page: Page, name: string) => {
    if (shots) await screenshot(page, name);
  };

  describe.skipIf(!HAVE_CHROMIUM)(`leads in the panel (${dialect})`, () => {
    let h: Harness;
    let browser: Browser;
    let origin: string;
    let teamId: string;
    const emailOf = (who: string) => `${who}.leads.${dialect}.${Date.now()}@loja.example.com.br`;
    const people: Record<string, { id: string; email: string }> = {};

    const signIn = async (email: string, path: string): Promise<{ page: Page; watch: PageWatch }> => {
      const context = await browser.newContext({ viewport: { width: 1366, height: 850 }, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const watch = watchPage(page, EXPECTED);
      await page.goto(`${origin}/entrar?voltar=${encodeURIComponent(path)}`);
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Senha').fill(PASSWORD);
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.waitForURL(`${origin}${path}`);
      return { page, watch };
    };

    beforeAll(async () => {
      h = await createHarness(dialect);
      teamId = (await h.team()).teamId;
      for (const [key, name, role] of [
        ['manager', 'Gil Gerente', 'manager'],
        ['ana', 'Ana Vendedora', 'seller'],
        ['bruno', 'Bruno Vendedor', 'seller'],
      ] as const) {
        const email = emailOf(key);
        const { user } = await h.services.users.create({ teamId, email, name, role, password: PASSWORD });
        people[key] = { id: user.id, email };
      }
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      origin = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
      browser = await launchChromium();
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await h?.close();
    });

    it('a manager sets the response target and who takes leads in Settings → Leads', async () => {
      const { page, watch } = await signIn(people.manager!.email, '/configuracoes/leads');
      await page.getByRole('heading', { name: 'Distribuição de leads' }).waitFor();
      await expect(page.getByLabel('Rodízio').isChecked()).resolves.toBe(true);
      await page.getByLabel('Meta de resposta (minutos)').fill('10');
      await page.getByRole('button', { name: 'Salvar' }).click();
      await page.getByText('Distribuição de leads salva.').waitFor();
      expect(await h.services.leads.settings(teamId)).toEqual({ distribution: 'round_robin', user_id: null, response_minutes: 10 });

      // Bruno leaves the round-robin: every lead goes to Ana.
      const takers = page.getByTestId('lead-takers');
      // A controlled box: it changes when the server has answered.
      await takers.getByLabel(/Bruno Vendedor/).click();
      await page.getByText('Bruno Vendedor deixa de receber leads.').waitFor();
      await takers.locator('label', { hasText: 'Bruno Vendedor' }).locator('input:not(:checked)').waitFor();
      await expect(takers.getByLabel(/Ana Vendedora/).isChecked()).resolves.toBe(true);
      expect((await h.services.users.get(teamId, people.bruno!.id)).takes_leads).toBe(false);

      // 'Uma pessoa' without choosing one: the server's message on the field.
      await page.getByLabel('Uma pessoa').check();
      await page.getByRole('button', { name: 'Salvar' }).click();
      await page.getByText("A distribuição 'fixed' precisa de um usuário ativo do time").waitFor();
      await shot(page, '70-leads-configuracoes');
      await page.getByLabel('Rodízio').check();
      await page.getByRole('button', { name: 'Salvar' }).click();
      await page.getByText('Distribuição de leads salva.').first().waitFor();
      expect(watch.problems).toEqual([]);
      await page.context().close();
    });
  });
}
