import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayIn, endOfDay } from '../../src/domain/shared/time-zone.js';
import { HAVE_CHROMIUM, CHROMIUM, launchChromium, PANEL_DIST, screenshot, watchPage, type PageWatch } from '../support/browser.js';
import { DIALECTS } from '../support/dialects.js';
import type { Caller } from '../support/harness.js';
import type { HttpsReceiver } from '../support/https-receiver.js';
import { createWebhookRig, payloadOf, type WebhookRig } from '../support/webhooks.js';

/**
 * The panel's boards in headless Chromium against the real server: a deal dragged to another column with
 * the mouse (and one moved with the keyboard) is saved and reaches a webhook as deal.phase_changed; a lead
 * created through the API shows on the open board without a reload. Screenshots go to test-output/screenshots.
 */
if (!HAVE_CHROMIUM) console.warn(`panel-boards.test.ts skipped: ${CHROMIUM} not found (apt-get install chromium; .ci/run does it).`);
if (!existsSync(join(PANEL_DIST, 'index.html'))) throw new Error(`The panel is not built (${PANEL_DIST}): run npm run build first.`);

const PASSWORD = 'senha-do-dono-123';

/** The session probe before signing in, and reads the browser cancels when the test moves on (a poll of /changes in flight). */
const EXPECTED = (text: string) =>
  /^request failed: GET .*\/panel\/api\/\S+ net::ERR_ABORTED$/.test(text) ||
  /^HTTP 401: GET .*\/panel\/api\/session$/.test(text) ||
  /^console\.error: Failed to load resource: the server responded with a status of 401 /.test(text);

for (const dialect of DIALECTS) {
  const shots = dialect === DIALECTS[0];
  const shot = async (page: Page, name: string) => {
    if (shots) await screenshot(page, name);
  };

  describe.skipIf(!HAVE_CHROMIUM)(`the panel's boards in headless Chromium (${dialect})`, () => {
    let rig: WebhookRig;
    let me: Caller;
    let receiver: HttpsReceiver;
    let origin: string;
    let browser: Browser;
    let page: Page;
    let watch: PageWatch;
    let dragged: string;
    let keyed: string;

    beforeAll(async () => {
      rig = await createWebhookRig(dialect);
      receiver = await rig.receiver();
      me = await rig.team();
      await rig.hook(me.teamId, receiver.url, ['deal.phase_changed']);
      const email = `dono.quadros.${dialect}.${Date.now()}@loja.example.com.br`;
      await rig.h.services.users.create({ teamId: me.teamId, email, name: 'Marina Dona', role: 'owner', password: PASSWORD });
      const client = await me.post<{ data: { id: string } }>('/clients', {
        type: 'PF',
        name: 'João da Silva',
        cpf: '529.982.247-25',
        email: 'joao@example.com.br',
      });
      expect(client.status).toBe(201);
      const a = await me.post<{ data: { id: string } }>('/deals', {
        title: 'Onix LT para o João',
        value: 84900,
        client_id: client.body.data.id,
        priority: 'alta',
      });
      const b = await me.post<{ data: { id: string } }>('/deals', { title: 'HB20 Comfort', value: 72500, phase: 'proposta' });
      await me.post('/deals', { title: 'Compass Longitude', value: 159900, phase: 'negociacao', priority: 'baixa' });
      dragged = a.body.data.id;
      keyed = b.body.data.id;
      await rig.h.app.listen({ port: 0, host: '127.0.0.1' });
      origin = `http://127.0.0.1:${(rig.h.app.server.address() as AddressInfo).port}`;
      browser = await launchChromium();
      const context = await browser.newContext({ viewport: { width: 1600, height: 900 }, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
      page = await context.newPage();
      // A step that does not happen fails in seconds, naming what it waited for.
      page.setDefaultTimeout(8000);
      watch = watchPage(page, EXPECTED);
      await page.goto(`${origin}/entrar?voltar=%2Fnegocios`);
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Senha').fill(PASSWORD);
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.waitForURL(`${origin}/negocios`);
    });

    afterAll(async () => {
      await browser?.close();
      await rig?.settle();
      await rig?.close();
    });

    const column = (phase: string) => page.locator(`[data-testid="board-column"][data-phase="${phase}"]`);
    const card = (id: string) => page.locator(`[data-testid="board-card"][data-id="${id}"]`);

    it('shows one column per phase with count and summed value, and cards with client, value and priority', async () => {
      await card(dragged).waitFor();
      await expect(page.locator('[data-testid="board-column"]').count()).resolves.toBe(5);
      await expect(column('lead').innerText()).resolves.toMatch(/^Lead[\s\S]*1[\s\S]*R\$\s84\.900,00/);
      await expect(card(dragged).innerText()).resolves.toMatch(/Onix LT para o João[\s\S]*João da Silva[\s\S]*R\$\s84\.900,00[\s\S]*Alta/);
      await shot(page, '20-negocios');
    });

    it('drags a deal to another column with the mouse: saved, and deal.phase_changed reaches the webhook', async () => {
      const from = await card(dragged).boundingBox();
      const to = await column('qualificado').boundingBox();
      if (!from || !to) throw new Error('card or column not on screen');
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width / 2 + 20, from.y + from.height / 2, { steps: 4 });
      await page.mouse.move(to.x + to.width / 2, to.y + 80, { steps: 12 });
      await page.mouse.up();
      await column('qualificado').locator(`[data-id="${dragged}"]`).waitFor();
      await page.getByText('Onix LT para o João foi para Qualificado.').waitFor();

      const saved = await me.get<{ data: { phase: string } }>(`/deals/${dragged}`);
      expect(saved.body.data.phase).toBe('qualificado');
      await rig.drain({ until: () => receiver.requests.length >= 1 });
      const event = payloadOf(receiver.requests[0]!);
      expect(event.type).toBe('deal.phase_changed');
      expect(event.data.object).toMatchObject({ id: dragged, phase: 'qualificado' });
      expect(event.data.previous_attributes).toMatchObject({ phase: 'lead' });
    });

    it('moves a deal with the keyboard: space lifts it, the right arrow changes column, space drops it', async () => {
      await card(keyed).focus();
      await page.keyboard.press('Space');
      // dnd-kit announces each step in a live region; a person waits for it, so does the test.
      await page.getByText('HB20 Comfort sobre a coluna Proposta.').waitFor({ state: 'attached' });
      // The columns are measured just after the lift; a person's next key comes later than a script's.
      await page.waitForTimeout(400);
      await page.keyboard.press('ArrowRight');
      await page.getByText('HB20 Comfort sobre a coluna Negociação.').waitFor({ state: 'attached' });
      // The lifted card glides to its new place; a drop before it lands is taken where it was.
      await page.waitForTimeout(400);
      await page.keyboard.press('Space');
      await page.getByText('HB20 Comfort movido para Negociação.').waitFor({ state: 'attached' });
      await column('negociacao').locator(`[data-id="${keyed}"]`).waitFor();
      await expect.poll(async () => (await me.get<{ data: { phase: string } }>(`/deals/${keyed}`)).body.data.phase, { timeout: 5000 }).toBe('negociacao');
    });

    it('shows a lead created through the API on the open board without a reload', async () => {
      expect((await me.post('/deals', { title: 'Lead do site: T-Cross', value: 139900, source: 'site' })).status).toBe(201);
      await column('lead').getByText('Lead do site: T-Cross').waitFor({ timeout: 10_000 });
    });

    it('marks a deal lost with a reason from its dialog', async () => {
      await card(keyed).click();
      const dialog = page.getByRole('dialog', { name: 'HB20 Comfort' });
      await dialog.getByRole('button', { name: 'Perdido' }).click();
      await dialog.getByLabel('Motivo da perda').selectOption('Comprou em outra loja');
      await shot(page, '21-negocio');
      await dialog.getByRole('button', { name: 'Marcar como perdido' }).click();
      await page.getByText('Negócio marcado como perdido.').waitFor();
      const saved = await me.get<{ data: { status: string; loss_reason: string } }>(`/deals/${keyed}`);
      expect(saved.body.data).toMatchObject({ status: 'perdido', loss_reason: 'Comprou em outra loja' });
      await dialog.getByRole('button', { name: 'Fechar' }).click();
      await expect(card(keyed).count()).resolves.toBe(0);
    });

    it('creates a deal with a client picked by name, and shows the server’s message on the field', async () => {
      await page.getByRole('button', { name: 'Novo negócio' }).first().click();
      const form = page.getByRole('dialog', { name: 'Novo negócio' });
      await form.getByRole('button', { name: 'Criar negócio' }).click();
      // The server's message, on the title field itself, in the form's words (the label, not the API's 'title').
      await form.locator('.field-error').first().waitFor();
      await expect(form.getByLabel('Título').getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(form.locator('.field-error').first().innerText()).resolves.toBe('Campo “Título” não pode ser vazio');
      await form.getByLabel('Título').fill('Corolla XEi');
      await form.getByLabel('Valor', { exact: true }).fill('145000');
      await form.getByLabel('Cliente').fill('João');
      await form.getByRole('button', { name: /João da Silva/ }).click();
      await shot(page, '22-negocio-novo');
      await form.getByRole('button', { name: 'Criar negócio' }).click();
      await page.getByRole('dialog', { name: 'Corolla XEi' }).waitFor();
      await page.keyboard.press('Escape');
      await column('lead').getByText('Corolla XEi').waitFor();
    });

    it('adds a vehicle to the board, and shows the duplicate plate on the plate field', async () => {
      await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Veículos' }).click();
      await page.getByRole('heading', { name: 'Veículos' }).waitFor();
      const add = async (title: string) => {
        await page.getByRole('button', { name: 'Novo veículo' }).click();
        const form = page.getByRole('dialog', { name: 'Novo veículo' });
        await form.getByLabel('Título', { exact: true }).fill(title);
        await form.getByLabel('Marca', { exact: true }).fill('Chevrolet');
        await form.getByLabel('Modelo', { exact: true }).fill('Onix');
        await form.getByLabel('Placa').fill('BRA2E19');
        await form.getByLabel('Ano do modelo').fill('2022');
        await form.getByLabel('Quilometragem (km)').fill('31000');
        await form.getByLabel('Preço de venda').fill('84900');
        await form.getByRole('button', { name: 'Cadastrar veículo' }).click();
        return form;
      };
      await add('Onix LT 1.0 2022');
      await page.getByRole('dialog', { name: 'Onix LT 1.0 2022' }).waitFor();
      await page.keyboard.press('Escape');
      await expect(column('entrada').innerText()).resolves.toMatch(
        /Onix LT 1\.0 2022[\s\S]*BRA2E19[\s\S]*R\$\s84\.900,00[\s\S]*2022[\s\S]*31\.000 km[\s\S]*0 dias/,
      );
      await shot(page, '23-veiculos');

      const form = await add('Outro Onix com a mesma placa');
      const plate = form.getByLabel('Placa');
      await form.getByText('Placa já cadastrada').waitFor();
      await expect(plate.getAttribute('aria-invalid')).resolves.toBe('true');
      await shot(page, '24-veiculo-placa-duplicada');
      await form.getByRole('button', { name: 'Cancelar' }).click();
    });

    it('finds a client by CPF without punctuation and opens the detail with the deals', async () => {
      await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Clientes' }).click();
      await page.getByLabel('Buscar clientes').fill('52998224725');
      await page.getByTestId('client-row').filter({ hasText: 'João da Silva' }).waitFor();
      await shot(page, '25-clientes');
      await page.getByRole('link', { name: 'João da Silva' }).click();
      await page.getByRole('heading', { name: 'João da Silva' }).waitFor();
      await page.getByText('Onix LT para o João', { exact: true }).waitFor();
      await expect(page.getByText('529.982.247-25').count()).resolves.toBe(1);
      await shot(page, '26-cliente');
    });

    it('completes an activity of today on the agenda', async () => {
      // Due within the hour, yet still today in the store's time zone: a run just before its midnight
      // (after 23:00 in São Paulo) keeps the activity on today's agenda.
      const now = rig.clock.now();
      const zone = await rig.h.services.boards.timeZone(me.teamId);
      const endOfToday = endOfDay(dayIn(now, zone), zone);
      const due = new Date(now.getTime() + Math.min(60 * 60 * 1000, (endOfToday.getTime() - now.getTime()) / 2));
      const call = await rig.h.services.activities.create(me.teamId, { type: 'call', title: 'Ligar para o João', due_at: due.toISOString(), deal_id: dragged });
      await rig.h.services.activities.create(me.teamId, {
        type: 'meeting',
        title: 'Test drive atrasado',
        due_at: new Date(Date.now() - 26 * 3600_000).toISOString(),
      });
      await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Agenda' }).click();
      await page.getByRole('button', { name: 'Atrasadas' }).click();
      await page.getByTestId('activity-row').filter({ hasText: 'Test drive atrasado' }).getByText('Atrasada').waitFor();
      await page.getByRole('button', { name: 'Hoje' }).click();
      const row = page.getByTestId('activity-row').filter({ hasText: 'Ligar para o João' });
      await row.waitFor();
      await shot(page, '27-agenda');
      await row.getByRole('button', { name: 'Concluir Ligar para o João' }).click();
      await page.getByText('“Ligar para o João” concluída.').waitFor();
      await row.getByText('Concluída').waitFor();
      await expect(rig.h.services.activities.get(me.teamId, call.id)).resolves.toMatchObject({ status: 'completed' });
    });

    it('pays a record with a method, and the summary counts it as paid', async () => {
      // The store's today (not UTC's): the summary's default month is the store's.
      const today = dayIn(rig.clock.now(), await rig.h.services.boards.timeZone(me.teamId));
      await rig.h.services.financial.create(me.teamId, {
        type: 'revenue',
        category: 'comissao',
        description: 'Comissão do financiamento',
        amount: 1500,
        due_date: today,
      });
      await rig.h.services.financial.create(me.teamId, {
        type: 'expense',
        category: 'marketing',
        description: 'Anúncios do mês',
        amount: 900,
        due_date: today,
      });
      await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Financeiro' }).click();
      const row = page.getByTestId('financial-row').filter({ hasText: 'Comissão do financiamento' });
      await row.waitFor();
      await shot(page, '28-financeiro');
      await row.getByRole('button', { name: 'Registrar recebimento de Comissão do financiamento' }).click();
      const dialog = page.getByRole('dialog', { name: 'Registrar recebimento' });
      await dialog.getByLabel('Forma de recebimento').selectOption('pix');
      await dialog.getByRole('button', { name: 'Confirmar recebimento' }).click();
      await row.getByText('Recebido · Pix').waitFor();
      await page.getByRole('tab', { name: 'Resumo' }).click();
      const totals = page.getByTestId('financial-totals');
      await totals.waitFor();
      // Money in and money out apart: the revenue received, the expense still to pay.
      await expect(totals.innerText()).resolves.toMatch(/Recebido\s*R\$\s1\.500,00[\s\S]*A pagar\s*R\$\s900,00/);
      await page.locator('.recharts-surface').first().waitFor();
      await shot(page, '29-financeiro-resumo');
    });

    it('fits a phone screen: the board scrolls sideways inside itself, the page does not', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      try {
        for (const [path, heading, name] of [
          ['/negocios', 'Negócios', '31-negocios-celular'],
          ['/clientes', 'Clientes', '32-clientes-celular'],
        ] as const) {
          await page.goto(`${origin}${path}`);
          await page.getByRole('heading', { name: heading, exact: true }).waitFor();
          await page.waitForLoadState('networkidle');
          await expect(page.evaluate<number>('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
          await shot(page, name);
        }
      } finally {
        await page.setViewportSize({ width: 1600, height: 900 });
      }
    });

    it('opens on the dashboard with the pipeline, the month and what is overdue', async () => {
      await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Início' }).click();
      const stats = page.getByTestId('dashboard-stats');
      await stats.waitFor();
      await expect(stats.innerText()).resolves.toMatch(/Perdidos no mês\s*1/);
      await expect(stats.innerText()).resolves.toMatch(/Atividades atrasadas\s*1/);
      await shot(page, '30-inicio');
      expect(
        watch.problems.filter(
          (p) =>
            !/status of 400/.test(p) &&
            !/HTTP 400: POST .*\/panel\/api\/deals$/.test(p) &&
            !/status of 422/.test(p) &&
            !/HTTP 422: POST .*\/panel\/api\/vehicles$/.test(p),
        ),
      ).toEqual([]);
    });
  });
}
