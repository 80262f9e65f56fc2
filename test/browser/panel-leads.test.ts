import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, CHROMIUM, launchChromium, PANEL_DIST, screenshot, watchPage, type PageWatch } from '../support/browser.js';
import { DIALECTS } from '../support/dialects.js';
import { shiftedClock } from '../support/clock.js';
import { createHarness, type Harness } from '../support/harness.js';

/**
 * Leads in the panel, in headless Chromium against the real server: a manager sets the distribution
 * in Settings → Leads; a lead sent by API shows first on its seller's board with its waiting time (the
 * server's clock, moved by the test), in the header's notices, is answered by a call completed in the
 * Agenda and is counted on Início. Screenshots go to test-output/screenshots.
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
    const clock = shiftedClock();
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
      h = await createHarness(dialect, { clock });
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

    it("a lead sent by API is first on its seller's board with its waiting time, in her notices, answered by a call and counted on Início", async () => {
      const api = await h.key(teamId);
      const sent = await api.post('/leads', {
        name: 'Carla Dias',
        phone: '(11) 98888-7777',
        source: 'webmotors',
        external_id: `wm-${dialect}-1`,
        message: 'Tenho interesse no carro, aceita troca?',
      });
      expect(sent.status).toBe(201);
      expect(sent.body.data.responsible_id).toBe(people.ana!.id);
      const dealId = sent.body.data.deal.id as string;
      // Twelve minutes later (the target is 10): a second lead arrives.
      clock.advance(12 * 60_000);
      expect((await api.post('/leads', { name: 'Davi Reis', email: `davi.${dialect}@example.com.br`, source: 'site' })).status).toBe(201);
      clock.advance(3 * 60_000);

      const { page, watch } = await signIn(people.ana!.email, '/negocios');
      const waiting = page.getByTestId('waiting-leads');
      await waiting.getByRole('heading', { name: 'Leads aguardando resposta (2)' }).waitFor();
      const cards = waiting.getByTestId('waiting-lead');
      await expect(cards.allInnerTexts()).resolves.toEqual([expect.stringContaining('Carla Dias'), expect.stringContaining('Davi Reis')]);
      await expect(cards.first().innerText()).resolves.toContain('há 15 min');
      await expect(cards.first().getAttribute('class')).resolves.toContain('late');
      await expect(cards.nth(1).innerText()).resolves.toContain('há 3 min');
      await expect(cards.nth(1).getAttribute('class')).resolves.not.toContain('late');
      // The board above the columns: the waiting leads come before the first column.
      const [stripTop, boardTop] = await Promise.all([waiting.boundingBox(), page.locator('[data-testid="board-card"]').first().boundingBox()]);
      expect(stripTop!.y).toBeLessThan(boardTop!.y);
      await expect(page.getByTestId('lead-notice-count').innerText()).resolves.toBe('2');
      await shot(page, '71-leads-quadro');

      // The header's notices: opening Carla's marks it seen and opens her deal.
      await page.getByRole('button', { name: 'Leads novos: 2' }).click();
      const list = page.getByRole('dialog', { name: 'Leads novos para você' });
      await list.getByRole('button', { name: /Carla Dias/ }).waitFor();
      await expect(list.getByRole('button', { name: /Carla Dias/ }).innerText()).resolves.toContain('webmotors · há 15 min');
      await shot(page, '72-leads-avisos');
      await list.getByRole('button', { name: /Carla Dias/ }).click();
      await page.getByRole('dialog', { name: /Carla Dias/ }).waitFor();
      await page.getByRole('button', { name: 'Leads novos: 1' }).waitFor();
      const seen = await h.testDb.db.kysely.selectFrom('leads').select('seen_at').where('deal_id', '=', dealId).executeTakeFirstOrThrow();
      expect(seen.seen_at).not.toBeNull();
      await page.keyboard.press('Escape');

      // Answered by the call: "Responder lead" completed in the Agenda (Carla's is due first).
      await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Agenda' }).click();
      const calls = page.getByTestId('activity-row').filter({ hasText: 'Responder lead' });
      await calls.nth(1).waitFor();
      await expect(calls.count()).resolves.toBe(2);
      await calls.first().getByRole('button', { name: 'Concluir Responder lead' }).click();
      await page.getByText('“Responder lead” concluída.').waitFor();
      const deal = await h.testDb.db.kysely
        .selectFrom('deals')
        .select(['lead_received_at', 'lead_responded_at'])
        .where('id', '=', dealId)
        .executeTakeFirstOrThrow();
      expect(new Date(deal.lead_responded_at!).getTime() - new Date(deal.lead_received_at!).getTime()).toBeGreaterThanOrEqual(15 * 60_000);

      await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Negócios' }).click();
      await waiting.getByRole('heading', { name: 'Leads aguardando resposta (1)' }).waitFor();
      await expect(cards.allInnerTexts()).resolves.toEqual([expect.stringContaining('Davi Reis')]);

      // Início: Ana received two leads, answered one in 15 minutes (past the 10-minute target).
      await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Início' }).click();
      const row = page.getByTestId('lead-response').getByTestId('lead-response-row').filter({ hasText: 'Ana Vendedora' });
      await row.waitFor();
      // 15 minutes on the shifted clock, plus the seconds the test itself took.
      await expect(row.locator('td').allInnerTexts()).resolves.toEqual(['Ana Vendedora', '2', '1', expect.stringMatching(/^15(,\d)? min$/), '0%']);
      await page.getByTestId('lead-response').scrollIntoViewIfNeeded();
      await shot(page, '73-leads-inicio');
      expect(watch.problems).toEqual([]);
      await page.context().close();
    });
  });
}
