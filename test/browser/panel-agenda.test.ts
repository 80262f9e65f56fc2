import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, CHROMIUM, launchChromium, PANEL_DIST, screenshot, watchPage } from '../support/browser.js';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';
import { TEST_HASHING } from '../support/panel.js';

/**
 * Dates and the agenda (issue 25, points 6 and 7): in a browser whose language is English, a date is
 * still typed and shown as dd/mm/aaaa and picked from a calendar in Portuguese; the agenda's month and
 * week views place activities on their days, a click opens one, and it is completed from there; a note
 * never offers "Concluir". Desktop and phone.
 */
if (!HAVE_CHROMIUM) console.warn(`panel-agenda.test.ts skipped: ${CHROMIUM} not found (apt-get install chromium; .ci/run does it).`);
if (!existsSync(join(PANEL_DIST, 'index.html'))) throw new Error(`The panel is not built (${PANEL_DIST}): run npm run build first.`);

const PASSWORD = 'senha-da-loja-123';
const ZONE = 'America/Sao_Paulo';
const EXPECTED = (text: string) =>
  /^request failed: GET \S+ net::ERR_ABORTED$/.test(text) ||
  /^console\.error: Failed to load resource: the server responded with a status of 401 /.test(text) ||
  /^HTTP 401: GET .*\/panel\/api\/session$/.test(text);

/** Today in São Paulo, `YYYY-MM-DD`, and an ISO moment of today at `hour` there (UTC−3, no daylight saving). */
const todaySp = () => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());
const atSp = (hour: number) => new Date(`${todaySp()}T${String(hour).padStart(2, '0')}:00:00-03:00`).toISOString();

for (const dialect of DIALECTS) {
  const shots = dialect === DIALECTS[0];

  describe.skipIf(!HAVE_CHROMIUM)(`dates in Portuguese and the agenda's calendar (${dialect})`, () => {
    let h: Harness;
    let me: Caller;
    let origin: string;
    let browser: Browser;
    let email = '';

    const open = async (viewport: { width: number; height: number }, to: string, locale = 'pt-BR'): Promise<Page> => {
      const phone = viewport.width < 500;
      const context = await browser.newContext({ viewport, locale, timezoneId: ZONE, isMobile: phone, hasTouch: phone });
      const p = await context.newPage();
      p.setDefaultTimeout(8000);
      await p.goto(`${origin}/entrar?voltar=${encodeURIComponent(to)}`);
      await p.getByLabel('E-mail').fill(email);
      await p.getByLabel('Senha').fill(PASSWORD);
      await p.getByRole('button', { name: 'Entrar' }).click();
      await p.waitForURL(`${origin}${to}`);
      return p;
    };

    beforeAll(async () => {
      h = await createHarness(dialect, { passwordHashing: TEST_HASHING });
      me = await h.team();
      email = `dona.agenda.${dialect}.${Date.now()}@loja.example.com.br`;
      await h.services.users.create({ teamId: me.teamId, email, name: 'Marina Dona', role: 'owner', password: PASSWORD });
      const client = (await me.post('/clients', { type: 'PF', name: 'Carla Mendes' })).body.data.id;
      await h.services.activities.create(me.teamId, { type: 'call', title: 'Ligar para a Carla', due_at: atSp(15), client_id: client });
      await h.services.activities.create(me.teamId, { type: 'note', title: 'Carla prefere SUV', due_at: atSp(10) });
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      origin = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
      browser = await launchChromium();
    });

    afterAll(async () => {
      await browser?.close();
      await h?.close();
    });

    it('an English browser still types and picks dates as dd/mm/aaaa, with a calendar in Portuguese', async () => {
      const page = await open({ width: 1366, height: 850 }, '/negocios', 'en-US');
      const watch = watchPage(page, EXPECTED);
      await page.getByRole('button', { name: 'Novo negócio' }).first().click();
      const form = page.getByRole('dialog', { name: 'Novo negócio' });
      const close = form.getByLabel('Fechamento previsto', { exact: true });
      await close.pressSequentially('31122026');
      await expect(close.inputValue()).resolves.toBe('31/12/2026');
      await form.getByRole('button', { name: 'Escolher no calendário: Fechamento previsto' }).click();
      await expect(form.locator('.date-field-popover').innerText()).resolves.toMatch(/dezembro[\s\S]*dom[\s\S]*seg/i);
      if (shots) await screenshot(page, '60-data-calendario');
      await form.locator('.date-field-popover').getByRole('button', { name: /15/ }).first().click();
      await expect(close.inputValue()).resolves.toBe('15/12/2026');
      await form.getByLabel('Título').fill('SUV para a Carla');
      await form.getByRole('button', { name: 'Criar negócio' }).click();
      await page.getByText('Negócio “SUV para a Carla” criado.').waitFor();
      expect((await me.get('/deals?search=SUV')).body.data[0].expected_close_date).toBe('2026-12-15');
      expect(watch.problems).toEqual([]);
      await page.context().close();
    });

    it("the month and week views place activities on their day; one opens and is completed there; a note has no 'Concluir'", async () => {
      const page = await open({ width: 1366, height: 850 }, '/agenda');
      // The list: the note has no "Concluir", the call does.
      await page.getByRole('button', { name: 'Todas' }).click();
      await page.getByTestId('activity-row').filter({ hasText: 'Carla prefere SUV' }).waitFor();
      await expect(page.getByRole('button', { name: 'Concluir Carla prefere SUV' }).count()).resolves.toBe(0);
      await page.getByRole('button', { name: 'Concluir Ligar para a Carla' }).waitFor();

      await page.getByRole('button', { name: 'Mês', exact: true }).click();
      const today = page.locator(`[data-testid="agenda-calendar"] [data-day="${todaySp()}"]`);
      await today.getByRole('button', { name: /Ligar para a Carla/ }).waitFor();
      await expect(today.innerText()).resolves.toMatch(/10:00[\s\S]*Carla prefere SUV[\s\S]*15:00[\s\S]*Ligar para a Carla/);
      if (shots) await screenshot(page, '61-agenda-mes');

      await today.getByRole('button', { name: /Carla prefere SUV/ }).click();
      const note = page.getByRole('dialog', { name: 'Carla prefere SUV' });
      await note.waitFor();
      await expect(note.getByRole('button', { name: 'Concluir' }).count()).resolves.toBe(0);
      await note.getByRole('button', { name: 'Fechar' }).click();

      await page.getByRole('button', { name: 'Semana', exact: true }).click();
      await today.getByRole('button', { name: /Ligar para a Carla/ }).click();
      const call = page.getByRole('dialog', { name: 'Ligar para a Carla' });
      await expect(call.innerText()).resolves.toMatch(/Cliente\s*Carla Mendes/);
      if (shots) await screenshot(page, '62-agenda-semana-atividade');
      await call.getByRole('button', { name: 'Concluir' }).click();
      await page.getByText('“Ligar para a Carla” concluída.').waitFor();
      await today.locator('.calendar-item.done', { hasText: 'Ligar para a Carla' }).waitFor();
      const calls = await h.services.activities.list(me.teamId, { type: 'call' });
      expect(calls.data[0]?.status).toBe('completed');
      await page.context().close();
    });

    it('fits a phone: the month fits the width', async () => {
      const p = await open({ width: 390, height: 844 }, '/agenda');
      await p.getByRole('button', { name: 'Mês', exact: true }).click();
      await p
        .locator(`[data-testid="agenda-calendar"] [data-day="${todaySp()}"]`)
        .getByRole('button', { name: /Carla prefere SUV/ })
        .waitFor();
      await expect(p.evaluate<number>('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
      if (shots) await screenshot(p, '63-celular-agenda-mes');
      await p.context().close();
    });
  });
}
