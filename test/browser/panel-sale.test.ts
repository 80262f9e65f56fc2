import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, CHROMIUM, launchChromium, PANEL_DIST, screenshot, watchPage, type PageWatch } from '../support/browser.js';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';
import { TEST_HASHING } from '../support/panel.js';

/**
 * A whole sale in the panel, in headless Chromium against the real server (issue 25, "Closing a deal in
 * the panel"): a lead moved to the proposal, won with a car picked from the stock at its final value, the
 * revenue received by PIX, and the margin in Financeiro's summary; a car repriced from its dialog, the
 * sold one found again among the sold, an archived one brought back; a seller who sees no cash book and
 * no purchase price, and whose forbidden reads the server refuses. Desktop 1366×850 and phone 390×844.
 */
if (!HAVE_CHROMIUM) console.warn(`panel-sale.test.ts skipped: ${CHROMIUM} not found (apt-get install chromium; .ci/run does it).`);
if (!existsSync(join(PANEL_DIST, 'index.html'))) throw new Error(`The panel is not built (${PANEL_DIST}): run npm run build first.`);

const PASSWORD = 'senha-da-loja-123';

/** The session probe before signing in, reads cancelled when the test moves on, and the seller's refusals it provokes. */
const EXPECTED = (text: string) =>
  /^request failed: GET \S+ net::ERR_ABORTED$/.test(text) ||
  /^console\.error: Failed to load resource: the server responded with a status of (401|403) /.test(text) ||
  /^HTTP 401: GET .*\/panel\/api\/session$/.test(text) ||
  /^HTTP 403: GET .*\/panel\/api\/financial/.test(text);

for (const dialect of DIALECTS) {
  const shots = dialect === DIALECTS[0];
  const shot = async (page: Page, name: string) => {
    if (shots) await screenshot(page, name);
  };

  describe.skipIf(!HAVE_CHROMIUM)(`a sale in the panel, lead to margin (${dialect})`, () => {
    let h: Harness;
    let me: Caller;
    let origin: string;
    let browser: Browser;
    let page: Page;
    let watch: PageWatch;
    const emails = { owner: '', seller: '' };
    const ids = { client: '', onix: '', hb20: '', deal: '' };

    const signIn = async (p: Page, email: string, to: string) => {
      await p.goto(`${origin}/entrar?voltar=${encodeURIComponent(to)}`);
      await p.getByLabel('E-mail').fill(email);
      await p.getByLabel('Senha').fill(PASSWORD);
      await p.getByRole('button', { name: 'Entrar' }).click();
      await p.waitForURL(`${origin}${to}`);
    };

    beforeAll(async () => {
      h = await createHarness(dialect, { passwordHashing: TEST_HASHING });
      me = await h.team();
      await h.services.teams.update(me.teamId, { name: 'Auto Center Marina' });
      for (const role of ['owner', 'seller'] as const) {
        emails[role] = `${role}.venda.${dialect}.${Date.now()}@loja.example.com.br`;
        const name = role === 'owner' ? 'Marina Dona' : 'Paulo Vendedor';
        await h.services.users.create({ teamId: me.teamId, email: emails[role], name, role, password: PASSWORD });
      }
      ids.client = (await me.post('/clients', { type: 'PF', name: 'Carla Mendes', cpf: '529.982.247-25', mobile_phone: '11987654321' })).body.data.id;
      const car = async (title: string, brand: string, model: string, plate: string, price: number, purchase_price: number) =>
        (await me.post('/vehicles', { title, brand, model, plate, price, purchase_price, phase: 'disponivel', model_year: 2023, mileage: 21000 })).body.data
          .id as string;
      ids.onix = await car('Onix LT 1.0 Turbo', 'Chevrolet', 'Onix', 'RIO2A19', 84900, 70000);
      ids.hb20 = await car('HB20 Vision 1.0', 'Hyundai', 'HB20', 'QWE4F56', 72900, 61000);
      ids.deal = (await me.post('/deals', { title: 'Onix para a Carla', client_id: ids.client, value: 84900, source: 'site' })).body.data.id;
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      origin = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
      browser = await launchChromium();
      const context = await browser.newContext({ viewport: { width: 1366, height: 850 }, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
      page = await context.newPage();
      page.setDefaultTimeout(8000);
      watch = watchPage(page, EXPECTED);
      await signIn(page, emails.owner, '/negocios');
    });

    afterAll(async () => {
      await browser?.close();
      await h?.close();
    });

    it('moves the lead to the proposal and wins it with a car from the stock and a revenue received by PIX', async () => {
      const card = page.locator(`[data-testid="board-card"][data-id="${ids.deal}"]`);
      await card.click();
      const dialog = page.getByRole('dialog', { name: 'Onix para a Carla' });
      await dialog.getByLabel('Fase').selectOption('proposta');
      await page.getByText('Movido para Proposta.').waitFor();

      await dialog.getByRole('button', { name: 'Ganho' }).click();
      const win = dialog.getByRole('form', { name: 'Marcar como ganho' });
      await win.getByLabel('Veículo vendido').click();
      await win.getByRole('button', { name: /Onix LT 1\.0 Turbo/ }).click();
      await win.getByLabel('Valor final').fill('83000');
      await shot(page, '40-venda-ganho');
      await win.getByRole('button', { name: 'Confirmar venda' }).click();
      await page.getByText('Negócio ganho! Onix LT 1.0 Turbo vendido.').waitFor();

      const offer = dialog.getByRole('form', { name: 'Registrar a receita da venda' });
      await expect(offer.innerText()).resolves.toMatch(/R\$\s83\.000,00[\s\S]*Onix LT 1\.0 Turbo[\s\S]*Carla Mendes/);
      await offer.getByLabel('Situação').selectOption('paid');
      await offer.getByLabel('Forma de recebimento').selectOption('pix');
      await shot(page, '41-venda-receita');
      await offer.getByRole('button', { name: 'Registrar receita' }).click();
      await page.getByText('Receita da venda registrada como recebida.').waitFor();
      await dialog.getByRole('button', { name: 'Fechar' }).click();

      expect((await me.get(`/deals/${ids.deal}`)).body.data).toMatchObject({ status: 'ganho', value: 83000, case_id: ids.onix });
      expect((await me.get(`/vehicles/${ids.onix}`)).body.data).toMatchObject({ status: 'vendido' });
      const owner = await h.services.financial.list(me.teamId, { vehicle_id: ids.onix });
      expect(owner.data).toHaveLength(1);
      expect(owner.data[0]).toMatchObject({
        type: 'revenue',
        category: 'venda-veiculo',
        amount: 83000,
        status: 'paid',
        payment_method: 'pix',
        deal_id: ids.deal,
        client_id: ids.client,
      });
    });

    it("shows the car's margin in Financeiro's summary, and the record on the car and on the client", async () => {
      await page.getByRole('link', { name: 'Financeiro' }).first().click();
      await page.getByRole('tab', { name: 'Resumo' }).click();
      const row = page.locator('[data-testid="margin-table"] tr', { hasText: 'Onix LT 1.0 Turbo' });
      await expect(row.innerText()).resolves.toMatch(/RIO2A19[\s\S]*R\$\s83\.000,00[\s\S]*R\$\s70\.000,00[\s\S]*R\$\s0,00[\s\S]*R\$\s13\.000,00/);
      await shot(page, '42-financeiro-margem');

      await page.goto(`${origin}/clientes/${ids.client}`);
      await page.locator('[data-testid="linked-records"]').getByText('Venda: Onix LT 1.0 Turbo').waitFor();
      await expect(page.locator('[data-testid="linked-records"]').innerText()).resolves.toMatch(/Venda: Onix LT 1\.0 Turbo[\s\S]*Pago[\s\S]*R\$\s83\.000,00/);
    });

    it('reprices a car from its dialog, finds the sold one among the sold, and brings an archived one back', async () => {
      await page.getByRole('link', { name: 'Veículos' }).first().click();
      await page.locator(`[data-testid="board-card"][data-id="${ids.hb20}"]`).click();
      const dialog = page.getByRole('dialog', { name: 'HB20 Vision 1.0' });
      await dialog.getByRole('button', { name: 'Editar' }).click();
      const form = page.getByRole('dialog', { name: 'Editar veículo' });
      await form.getByLabel('Preço de venda').fill('69900');
      await form.getByRole('button', { name: 'Salvar' }).click();
      await page.getByText('Veículo salvo.').waitFor();
      await expect.poll(async () => (await me.get(`/vehicles/${ids.hb20}`)).body.data.price).toBe(69900);
      await expect(dialog.innerText()).resolves.toMatch(/R\$\s69\.900,00/);
      await dialog.getByRole('button', { name: 'Arquivar' }).click();
      await page.getByText('Veículo arquivado.').waitFor();

      await page.getByLabel('Situação').selectOption('vendido');
      await page.getByRole('button', { name: 'Lista' }).click();
      const sold = page.locator('[data-testid="vehicle-row"]');
      // The list loads after the click: wait for its first row before counting.
      await sold.first().waitFor();
      await expect(sold.count()).resolves.toBe(1);
      await expect(sold.first().innerText()).resolves.toMatch(/Onix LT 1\.0 Turbo[\s\S]*RIO2A19[\s\S]*R\$\s84\.900,00[\s\S]*0 dias/);
      await shot(page, '43-veiculos-vendidos');

      await page.getByLabel('Situação').selectOption('arquivado');
      await page.locator('[data-testid="vehicle-row"]', { hasText: 'HB20 Vision 1.0' }).waitFor();
      await shot(page, '44-veiculos-arquivados');
      await page.getByRole('button', { name: 'Restaurar HB20 Vision 1.0' }).click();
      await page.getByText('HB20 Vision 1.0 de volta ao estoque.').waitFor();
      await expect.poll(async () => (await me.get(`/vehicles/${ids.hb20}`)).body.data.status).toBe('ativo');
      await page.getByLabel('Situação').selectOption('ativo');
      await page.locator('[data-testid="vehicle-row"]', { hasText: 'HB20 Vision 1.0' }).waitFor();
    });

    it('fits a phone: the sold list and the sale dialog without sideways scroll', async () => {
      const phone = await browser.newContext({
        viewport: { width: 390, height: 844 },
        locale: 'pt-BR',
        timezoneId: 'America/Sao_Paulo',
        isMobile: true,
        hasTouch: true,
      });
      const p = await phone.newPage();
      p.setDefaultTimeout(8000);
      const phoneWatch = watchPage(p, EXPECTED);
      await signIn(p, emails.owner, '/veiculos');
      await p.getByLabel('Situação').selectOption('vendido');
      await p.getByRole('button', { name: 'Lista' }).click();
      await p.locator('[data-testid="vehicle-row"]', { hasText: 'Onix LT 1.0 Turbo' }).waitFor();
      await expect(p.evaluate<number>('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
      if (shots) await screenshot(p, '45-celular-vendidos');
      await p.locator('[data-testid="vehicle-row"]', { hasText: 'Onix LT 1.0 Turbo' }).getByRole('button', { name: 'Onix LT 1.0 Turbo' }).click();
      const dialog = p.getByRole('dialog', { name: 'Onix LT 1.0 Turbo' });
      await dialog.locator('[data-testid="linked-records"]').getByText('Venda: Onix LT 1.0 Turbo').waitFor();
      if (shots) await screenshot(p, '46-celular-veiculo-vendido');
      expect(phoneWatch.problems).toEqual([]);
      await phone.close();
    });

    it('a seller sees no cash book and no purchase price, and the server refuses what the panel hides', async () => {
      const context = await browser.newContext({ viewport: { width: 1366, height: 850 }, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
      const p = await context.newPage();
      p.setDefaultTimeout(8000);
      const sellerWatch = watchPage(p, EXPECTED);
      await signIn(p, emails.seller, '/veiculos');
      await expect(p.getByRole('link', { name: 'Financeiro' }).count()).resolves.toBe(0);
      await p.locator(`[data-testid="board-card"][data-id="${ids.hb20}"]`).click();
      const dialog = p.getByRole('dialog', { name: 'HB20 Vision 1.0' });
      await expect(dialog.innerText()).resolves.not.toMatch(/Preço de compra|61\.000|Financeiro|Arquivar/);
      await shot(p, '47-vendedor-veiculo');
      await dialog.getByRole('button', { name: 'Fechar' }).click();

      await p.goto(`${origin}/financeiro`);
      await p.getByTestId('no-access').waitFor();
      await shot(p, '48-vendedor-financeiro');

      const financial = await p.request.get(`${origin}/panel/api/financial/summary`);
      expect(financial.status()).toBe(403);
      const vehicles = (await (await p.request.get(`${origin}/panel/api/vehicles?status=vendido`)).json()) as { data: object[] };
      expect(vehicles.data.length).toBe(1);
      for (const v of vehicles.data) expect(Object.keys(v)).not.toContain('purchase_price');
      // What the panel hides from a seller, sent by hand with the session's CSRF token: 403.
      const csrf = ((await (await p.request.get(`${origin}/panel/api/session`)).json()) as { data: { csrf_token: string } }).data.csrf_token;
      const headers = { 'x-csrf-token': csrf };
      const sold = await p.request.put(`${origin}/panel/api/vehicles/${ids.hb20}`, { headers, data: { status: 'vendido' } });
      expect(sold.status()).toBe(403);
      expect((await p.request.delete(`${origin}/panel/api/vehicles/${ids.hb20}`, { headers })).status()).toBe(403);
      expect((await p.request.post(`${origin}/panel/api/financial`, { headers, data: { type: 'expense' } })).status()).toBe(403);
      expect((await me.get(`/vehicles/${ids.hb20}`)).body.data.status).toBe('ativo');
      expect(sellerWatch.problems.filter((x) => !/403/.test(x))).toEqual([]);
      await context.close();
    });

    it('logged no browser error on the way', () => {
      expect(watch.problems).toEqual([]);
    });
  });
}
