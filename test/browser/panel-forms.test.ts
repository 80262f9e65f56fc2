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
 * Forms (issue 25, point 6): CPF, phone and CEP typed as bare digits come out punctuated, a plate in
 * upper case, money as reais; every invalid field of a refused form shows at once, each on its own
 * field and in the form's words (the label, never the API's field name). Desktop and phone.
 */
if (!HAVE_CHROMIUM) console.warn(`panel-forms.test.ts skipped: ${CHROMIUM} not found (apt-get install chromium; .ci/run does it).`);
if (!existsSync(join(PANEL_DIST, 'index.html'))) throw new Error(`The panel is not built (${PANEL_DIST}): run npm run build first.`);

const PASSWORD = 'senha-da-loja-123';
const EXPECTED = (text: string) =>
  /^request failed: GET \S+ net::ERR_ABORTED$/.test(text) ||
  /^console\.error: Failed to load resource: the server responded with a status of (400|401) /.test(text) ||
  /^HTTP 401: GET .*\/panel\/api\/session$/.test(text) ||
  /^HTTP 400: (POST|PUT) .*\/panel\/api\/(clients|vehicles)/.test(text);

for (const dialect of DIALECTS) {
  const shots = dialect === DIALECTS[0];

  describe.skipIf(!HAVE_CHROMIUM)(`forms: masks and every field's error at once (${dialect})`, () => {
    let h: Harness;
    let me: Caller;
    let origin: string;
    let browser: Browser;
    let email = '';

    const open = async (viewport: { width: number; height: number }, to: string): Promise<[Page, PageWatch]> => {
      const phone = viewport.width < 500;
      const context = await browser.newContext({ viewport, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', isMobile: phone, hasTouch: phone });
      const p = await context.newPage();
      p.setDefaultTimeout(8000);
      const watch = watchPage(p, EXPECTED);
      await p.goto(`${origin}/entrar?voltar=${encodeURIComponent(to)}`);
      await p.getByLabel('E-mail').fill(email);
      await p.getByLabel('Senha').fill(PASSWORD);
      await p.getByRole('button', { name: 'Entrar' }).click();
      await p.waitForURL(`${origin}${to}`);
      return [p, watch];
    };

    beforeAll(async () => {
      h = await createHarness(dialect, { passwordHashing: TEST_HASHING });
      me = await h.team();
      email = `dona.forms.${dialect}.${Date.now()}@loja.example.com.br`;
      await h.services.users.create({ teamId: me.teamId, email, name: 'Marina Dona', role: 'owner', password: PASSWORD });
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      origin = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
      browser = await launchChromium();
    });

    afterAll(async () => {
      await browser?.close();
      await h?.close();
    });

    it('a client: masked CPF, phone and CEP; every invalid field on its field with its label; saved as the store reads it', async () => {
      const [page, watch] = await open({ width: 1366, height: 850 }, '/clientes');
      await page.getByRole('button', { name: 'Novo cliente' }).first().click();
      const form = page.getByRole('dialog', { name: 'Novo cliente' });
      await form.getByLabel('E-mail').fill('carla@');
      await form.getByLabel('CPF', { exact: true }).pressSequentially('52841739610');
      await form.getByLabel('Celular').pressSequentially('11987654321');
      await form.getByLabel('Telefone', { exact: true }).pressSequentially('1133334444');
      await form.getByLabel('CEP').pressSequentially('01304001');
      await expect(form.getByLabel('CPF', { exact: true }).inputValue()).resolves.toBe('528.417.396-10');
      await expect(form.getByLabel('Celular').inputValue()).resolves.toBe('(11) 98765-4321');
      await expect(form.getByLabel('Telefone', { exact: true }).inputValue()).resolves.toBe('(11) 3333-4444');
      await expect(form.getByLabel('CEP').inputValue()).resolves.toBe('01304-001');
      await form.getByRole('button', { name: 'Cadastrar cliente' }).click();

      // One answer, every field: the name (schema), the e-mail (schema) and the CPF (its check digits).
      const errorOf = (label: string) => form.locator('.field', { has: page.getByLabel(label, { exact: true }) }).locator('.field-error');
      await errorOf('CPF').waitFor();
      await expect(errorOf('Nome').innerText()).resolves.toBe('Campo “Nome” é obrigatório');
      await expect(errorOf('E-mail').innerText()).resolves.toBe('Campo “E-mail” deve ser um e-mail válido');
      await expect(errorOf('CPF').innerText()).resolves.toBe('CPF inválido');
      await expect(form.getByRole('alert').filter({ hasText: "'" }).count()).resolves.toBe(0);
      if (shots) await screenshot(page, '50-cliente-erros');

      await form.getByLabel('Nome', { exact: true }).fill('Carla Mendes');
      await form.getByLabel('E-mail').fill('carla@exemplo.com.br');
      await form.getByLabel('CPF', { exact: true }).fill('');
      await form.getByLabel('CPF', { exact: true }).pressSequentially('52841739619');
      await form.getByRole('button', { name: 'Cadastrar cliente' }).click();
      await page.getByText('Carla Mendes cadastrado.').waitFor();
      const saved = (await me.get('/clients?search=Carla')).body.data[0];
      expect(saved).toMatchObject({ cpf: '528.417.396-19', mobile_phone: '(11) 98765-4321', phone: '(11) 3333-4444' });
      expect(watch.problems).toEqual([]);
      await page.context().close();
    });

    it('a client stored with bare digits reads punctuated; a vehicle takes its plate in upper case and its price in reais (phone)', async () => {
      const id = (await me.post('/clients', { type: 'PF', name: 'Bruno Dígitos', cpf: '52998224725', mobile_phone: '21987651234' })).body.data.id;
      const [p, watch] = await open({ width: 390, height: 844 }, `/clientes/${id}`);
      await expect(p.locator('dl.kv').innerText()).resolves.toMatch(/529\.982\.247-25[\s\S]*\(21\) 98765-1234/);
      await expect(p.evaluate<number>('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
      if (shots) await screenshot(p, '51-celular-cliente-formatado');

      await p.goto(`${origin}/veiculos`);
      await p.getByRole('button', { name: 'Novo veículo' }).first().click();
      const form = p.getByRole('dialog', { name: 'Novo veículo' });
      await form.getByLabel('Placa').pressSequentially('rio2a19');
      await expect(form.getByLabel('Placa').inputValue()).resolves.toBe('RIO2A19');
      await form.getByLabel('Preço de venda').pressSequentially('84900');
      await expect(form.getByLabel('Preço de venda').inputValue()).resolves.toMatch(/^R\$\s84\.900$/);
      await form.getByLabel('RENAVAM').fill('123');
      await form.getByRole('button', { name: 'Cadastrar veículo' }).click();
      const errorOf = (label: string) => form.locator('.field', { has: p.getByLabel(label, { exact: true }) }).locator('.field-error');
      await errorOf('RENAVAM').waitFor();
      await expect(errorOf('Título').innerText()).resolves.toBe('Campo “Título” é obrigatório');
      await expect(errorOf('Marca').innerText()).resolves.toBe('Campo “Marca” é obrigatório');
      if (shots) await screenshot(p, '52-celular-veiculo-erros');
      await form.getByLabel('Título', { exact: true }).fill('Onix LT');
      await form.getByLabel('Marca', { exact: true }).fill('Chevrolet');
      await form.getByLabel('Modelo', { exact: true }).fill('Onix');
      await form.getByLabel('RENAVAM').fill('');
      await form.getByRole('button', { name: 'Cadastrar veículo' }).click();
      await p.getByText('Onix LT entrou no estoque.').waitFor();
      expect((await me.get('/vehicles')).body.data[0]).toMatchObject({ plate: 'RIO2A19', price: 84900 });
      expect(watch.problems).toEqual([]);
      await p.context().close();
    });
  });
}
