import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, CHROMIUM, launchChromium, PANEL_DIST, screenshot, watchPage, type PageWatch } from '../support/browser.js';
import { DIALECTS } from '../support/dialects.js';
import type { Caller } from '../support/harness.js';
import type { HttpsReceiver } from '../support/https-receiver.js';
import { createWebhookRig, type WebhookRig } from '../support/webhooks.js';

/**
 * The panel driven in headless Chromium against the real server (its /panel/api routes and the built app
 * it serves at /): sign in, Settings (webhooks with a real delivery, secret, keys, boards, people, team),
 * sign out. Screenshots of every page go to test-output/screenshots for reviewers.
 */
if (!HAVE_CHROMIUM) console.warn(`panel-settings.test.ts skipped: ${CHROMIUM} not found (apt-get install chromium; .ci/run does it).`);
if (!existsSync(join(PANEL_DIST, 'index.html'))) throw new Error(`The panel is not built (${PANEL_DIST}): run npm run build first.`);

const PASSWORD = 'senha-do-dono-123';
const DEAL_TITLE = 'Negócio que dispara o webhook';

/**
 * Refusals the test provokes on purpose: the session probe before signing in, the wrong password,
 * the webhook URL without https, and the removal of a phase in use (a browser logs every 4xx); and a
 * read (an API call, the favicon) still in flight when the test moves to another page, which the browser
 * cancels. A missing file would show up as its HTTP status instead.
 */
const EXPECTED = (text: string) =>
  /^request failed: GET \S+ net::ERR_ABORTED$/.test(text) ||
  /^console\.error: Failed to load resource: the server responded with a status of (400|401|422) /.test(text) ||
  /^HTTP 401: (GET|POST) .*\/panel\/api\/session$/.test(text) ||
  /^HTTP 400: POST .*\/panel\/api\/webhooks$/.test(text) ||
  /^HTTP 422: PUT .*\/panel\/api\/boards\/deals\/phases$/.test(text);

for (const dialect of DIALECTS) {
  const shots = dialect === DIALECTS[0];
  const shot = async (page: Page, name: string) => {
    if (shots) await screenshot(page, name);
  };

  describe.skipIf(!HAVE_CHROMIUM)(`the panel in headless Chromium (${dialect})`, () => {
    let rig: WebhookRig;
    let me: Caller;
    let receiver: HttpsReceiver;
    let origin: string;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let watch: PageWatch;
    let email: string;
    let webhookId: string;
    let firstSecret: string;

    beforeAll(async () => {
      rig = await createWebhookRig(dialect);
      receiver = await rig.receiver();
      me = await rig.team();
      email = `dono.${dialect}.${Date.now()}@loja.example.com.br`;
      await rig.h.services.users.create({ teamId: me.teamId, email, name: 'Marina Dona', role: 'owner', password: PASSWORD });
      // A store's name in the top bar of the screenshots (the rig names teams for the test run).
      await rig.h.services.teams.update(me.teamId, { name: 'Auto Center Marina' });
      await rig.h.app.listen({ port: 0, host: '127.0.0.1' });
      origin = `http://127.0.0.1:${(rig.h.app.server.address() as AddressInfo).port}`;
      browser = await launchChromium();
      context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
      page = await context.newPage();
      watch = watchPage(page, EXPECTED);
    });

    afterAll(async () => {
      await browser?.close();
      await rig?.settle();
      await rig?.close();
    });

    it('sends a visitor to /entrar, refuses a wrong password, signs in and comes back to the page asked for', async () => {
      await page.goto(`${origin}/configuracoes/webhooks`);
      await page.waitForURL(/\/entrar\?voltar=%2Fconfiguracoes%2Fwebhooks$/);
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Senha').fill('senha-errada-123');
      await page.getByRole('button', { name: 'Entrar' }).click();
      await expect(page.getByRole('alert').first().innerText()).resolves.toContain('E-mail ou senha inválidos');
      await shot(page, '01-entrar');

      await page.getByLabel('Senha').fill(PASSWORD);
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.waitForURL(`${origin}/configuracoes/webhooks`);
      await page.getByText('Nenhum webhook ainda').waitFor();
      // The shell: the team in the top bar, the navigation, the user's menu.
      for (const item of ['Início', 'Negócios', 'Veículos', 'Clientes', 'Agenda', 'Financeiro', 'Configurações'])
        await expect(page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: item }).count()).resolves.toBe(1);
      await shot(page, '02-webhooks-vazio');

      await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Início' }).click();
      await page.getByRole('heading', { name: 'Olá, Marina' }).waitFor();
      await shot(page, '03-inicio');
    });

    it('creates a webhook for chosen events, shows its secret once, and logs the delivery of a deal created through the API', async () => {
      await page.goto(`${origin}/configuracoes/webhooks/novo`);
      await page.getByLabel('Endereço (URL)').fill('http://sem-https.example.com/hook');
      await page.getByRole('radio', { name: /Escolher eventos/ }).check();
      await page.getByRole('checkbox', { name: /deal\.created/ }).check();
      await page.getByRole('button', { name: 'Criar webhook' }).click();
      // The server's own message, shown on the form.
      await expect(page.getByRole('alert').first().innerText()).resolves.toContain('https://');

      await page.getByLabel('Endereço (URL)').fill(receiver.url);
      await page.getByLabel('Descrição (opcional)').fill('Receptor de testes');
      await shot(page, '04-webhook-novo');
      await page.getByRole('button', { name: 'Criar webhook' }).click();
      const created = page.getByRole('dialog', { name: 'Webhook criado' });
      firstSecret = (await created.getByTestId('secret-value').innerText()).trim();
      expect(firstSecret).toMatch(/^whsec_/);
      await shot(page, '05-webhook-criado');
      await created.getByRole('button', { name: 'Continuar' }).click();
      await page.waitForURL(/\/configuracoes\/webhooks\/[0-9a-f-]{36}$/);
      webhookId = page.url().split('/').pop() ?? '';
      await page.getByText('Nenhuma entrega ainda').waitFor();

      expect((await me.post('/deals', { title: DEAL_TITLE })).status).toBe(201);
      await rig.drain();
      expect(receiver.requests.length).toBeGreaterThan(0);

      await page.reload();
      const row = page.getByTestId('delivery-row').filter({ hasText: 'deal.created' });
      await row.waitFor();
      await expect(row.innerText()).resolves.toContain('Entregue');
      await row.getByRole('button', { name: 'Ver tentativas' }).click();
      await page.getByText('HTTP 200').first().waitFor();
      await shot(page, '06-webhook-entregas');

      await page.goto(`${origin}/configuracoes/webhooks`);
      const listed = page.getByRole('row').filter({ hasText: receiver.url });
      await listed.waitFor();
      await expect(listed.innerText()).resolves.toMatch(/1 evento[\s\S]*Ativo[\s\S]*100%[\s\S]*HTTP 200/);
      await shot(page, '07-webhooks');
    });

    it('reveals the secret to the owner and rotates it', async () => {
      await page.goto(`${origin}/configuracoes/webhooks/${webhookId}`);
      await page.getByRole('button', { name: 'Revelar' }).click();
      await expect(page.getByTestId('secret-value').innerText()).resolves.toBe(firstSecret);

      await page.getByRole('button', { name: 'Trocar segredo' }).click();
      const confirm = page.getByRole('dialog', { name: 'Trocar o segredo?' });
      await confirm.getByRole('button', { name: 'Trocar segredo' }).click();
      const done = page.getByRole('dialog', { name: 'Segredo trocado' });
      const rotated = (await done.getByTestId('secret-value').innerText()).trim();
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(firstSecret);
      await shot(page, '08-segredo-trocado');
      await done.getByRole('button', { name: 'Pronto' }).click();

      await page.getByRole('button', { name: 'Revelar' }).click();
      await expect(page.getByTestId('secret-value').innerText()).resolves.toBe(rotated);
      const stored = await rig.db.kysely.selectFrom('webhooks').select('secret').where('id', '=', webhookId).executeTakeFirstOrThrow();
      expect(stored.secret).toBe(rotated);
    });

    it('sends a test event, disables the webhook (saying since when) and enables it again', async () => {
      await page.getByRole('button', { name: 'Enviar evento de teste' }).click();
      await page.getByText('Evento de teste enviado').waitFor();
      await page.getByRole('button', { name: 'Desativar' }).click();
      await page.getByRole('dialog', { name: 'Desativar webhook?' }).getByRole('button', { name: 'Desativar' }).click();
      await page.getByText(/Desativado desde/).waitFor();
      await shot(page, '09-webhook-desativado');
      await page.getByRole('button', { name: 'Ativar' }).click();
      await page.getByText('Webhook ativado.').waitFor();
      expect((await rig.webhooks.get(webhookId)).status).toBe('enabled');
    });

    it('creates an API key (shown once) that works, and revokes it', async () => {
      await page.getByRole('navigation', { name: 'Configurações' }).getByRole('link', { name: 'Chaves de API' }).click();
      await page.getByRole('button', { name: 'Nova chave' }).first().click();
      const form = page.getByRole('dialog', { name: 'Nova chave de API' });
      await form.getByLabel('Nome').fill('Site da loja');
      await form.getByRole('button', { name: 'Criar chave' }).click();
      await expect(form.getByRole('alert').innerText()).resolves.toContain('escopo');
      await form.getByRole('checkbox', { name: /deals:read/ }).check();
      await form.getByRole('button', { name: 'Criar chave' }).click();
      const shown = page.getByRole('dialog', { name: 'Chave criada' });
      const key = (await shown.getByTestId('secret-value').innerText()).trim();
      await shot(page, '10-chave-criada');
      await shown.getByRole('button', { name: 'Já copiei' }).click();

      const call = (k: string) => rig.h.inject({ method: 'GET', url: '/api/v1/deals', headers: { authorization: `Bearer ${k}` } });
      expect((await call(key)).status).toBe(200);
      const row = page.getByTestId('key-row').filter({ hasText: 'Site da loja' });
      await row.waitFor();
      await shot(page, '11-chaves');

      await row.getByRole('button', { name: 'Revogar a chave Site da loja' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Revogar chave' }).click();
      await row.getByText('Revogada').waitFor();
      expect((await call(key)).status).toBe(401);
    });

    it('shows the phases by their labels, reorders one with the keyboard buttons, and explains why a phase in use cannot be removed', async () => {
      await page.getByRole('navigation', { name: 'Configurações' }).getByRole('link', { name: 'Quadros' }).click();
      const deals = page.getByTestId('board-deals');
      await deals.getByRole('button', { name: 'Descer Lead' }).waitFor();
      await shot(page, '12-quadros');
      await deals.getByRole('button', { name: 'Descer Lead' }).click();
      await deals.getByRole('button', { name: 'Salvar fases' }).click();
      await page.getByText('Funil de negócios: fases salvas.').waitFor();

      await page.reload();
      await expect(page.getByTestId('board-deals').getByRole('textbox', { name: 'Nome da fase 1' }).inputValue()).resolves.toBe('Qualificado');
      await expect(page.getByTestId('board-deals').getByRole('textbox', { name: 'Nome da fase 2' }).inputValue()).resolves.toBe('Lead');

      // The deal created above sits in "lead": the server refuses, and the panel says why.
      await page.getByTestId('board-deals').getByRole('button', { name: 'Remover Lead' }).click();
      await page.getByTestId('board-deals').getByRole('button', { name: 'Salvar fases' }).click();
      await expect(page.getByTestId('board-deals').getByRole('alert').innerText()).resolves.toMatch(/em uso.*lead/is);
      await shot(page, '13-quadros-fase-em-uso');

      // Dragging works too (by the number badge): on the vehicle board, then discarded.
      const vehicles = page.getByTestId('board-vehicles');
      const items = vehicles.getByTestId('phase-item');
      await items.nth(0).locator('.phase-index').dragTo(items.nth(2));
      await expect(vehicles.getByRole('textbox', { name: 'Nome da fase 3' }).inputValue()).resolves.toBe('Entrada');
      await vehicles.getByRole('button', { name: 'Descartar' }).click();
      await expect(vehicles.getByRole('textbox', { name: 'Nome da fase 1' }).inputValue()).resolves.toBe('Entrada');
    });

    it('invites a person, whose link lets them choose a password and sign in without Settings', async () => {
      await page.getByRole('navigation', { name: 'Configurações' }).getByRole('link', { name: 'Pessoas' }).click();
      await page.getByRole('button', { name: 'Convidar pessoa' }).click();
      const form = page.getByRole('dialog', { name: 'Convidar pessoa' });
      await form.getByLabel('Nome').fill('Vítor Vendedor');
      await form.getByLabel('E-mail').fill(`vitor.${dialect}.${Date.now()}@loja.example.com.br`);
      await form.getByLabel('Papel').selectOption('seller');
      await form.getByRole('button', { name: 'Convidar' }).click();
      const link = (await page.getByRole('dialog', { name: 'Convite criado' }).getByTestId('secret-value').innerText()).trim();
      expect(link).toContain('/definir-senha/');
      await page.getByRole('dialog', { name: 'Convite criado' }).getByRole('button', { name: 'Pronto' }).click();
      await page.getByTestId('person-row').filter({ hasText: 'Vítor Vendedor' }).waitFor();
      await shot(page, '14-pessoas');

      const other = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'pt-BR' });
      try {
        const invited = await other.newPage();
        const invitedWatch = watchPage(invited, EXPECTED);
        await invited.goto(`${origin}${new URL(link).pathname}`);
        await invited.getByRole('heading', { name: 'Defina sua senha' }).waitFor();
        await invited.getByLabel('Nova senha').fill('vendedor-senha-123');
        await invited.getByLabel('Repita a senha').fill('vendedor-senha-123');
        await expect(invited.evaluate<number>('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
        if (shots) await screenshot(invited, '15-definir-senha-celular');
        await invited.getByRole('button', { name: 'Salvar senha e entrar' }).click();
        await invited.getByRole('heading', { name: 'Olá, Vítor' }).waitFor();
        await expect(invited.getByRole('link', { name: 'Configurações' }).count()).resolves.toBe(0);
        expect(invitedWatch.problems).toEqual([]);
      } finally {
        await other.close();
      }
    });

    it('shows a manager the boards and the webhooks read only, and hides what only owners do', async () => {
      const managerEmail = `gerente.${dialect}.${Date.now()}@loja.example.com.br`;
      await rig.h.services.users.create({ teamId: me.teamId, email: managerEmail, name: 'Gil Gerente', role: 'manager', password: PASSWORD });
      const other = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'pt-BR' });
      try {
        const manager = await other.newPage();
        const managerWatch = watchPage(manager, EXPECTED);
        await manager.goto(`${origin}/entrar`);
        await manager.getByLabel('E-mail').fill(managerEmail);
        await manager.getByLabel('Senha').fill(PASSWORD);
        await manager.getByRole('button', { name: 'Entrar' }).click();
        await manager.getByRole('heading', { name: 'Olá, Gil' }).waitFor();
        await manager.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Configurações' }).click();
        const sections = manager.getByRole('navigation', { name: 'Configurações' }).getByRole('link');
        await sections.first().waitFor();
        await expect(sections.allInnerTexts()).resolves.toEqual(['Webhooks', 'Quadros', 'Equipe', 'Leads', 'Probabilidade']);
        await manager.getByRole('row').filter({ hasText: receiver.url }).waitFor();
        await expect(manager.getByRole('link', { name: 'Novo webhook' }).count()).resolves.toBe(0);
        await manager.getByRole('link', { name: receiver.url }).click();
        await manager.getByText('Registro de entregas').waitFor();
        for (const action of ['Editar', 'Desativar', 'Excluir', 'Revelar', 'Trocar segredo', 'Reenviar', 'Enviar evento de teste'])
          await expect(manager.getByRole('button', { name: action, exact: true }).count(), action).resolves.toBe(0);
        if (shots) await screenshot(manager, '16-webhook-gerente');
        expect(managerWatch.problems).toEqual([]);
      } finally {
        await other.close();
      }
    });

    it('edits the team', async () => {
      await page.getByRole('navigation', { name: 'Configurações' }).getByRole('link', { name: 'Equipe' }).click();
      await page.getByLabel('Nome da loja').fill('Auto Center Marina Seminovos');
      await page.getByRole('button', { name: 'Salvar' }).click();
      await page.getByText('Dados da equipe salvos.').waitFor();
      await page.locator('.team-name', { hasText: 'Auto Center Marina Seminovos' }).waitFor();
      expect((await rig.h.services.teams.find(me.teamId))?.name).toBe('Auto Center Marina Seminovos');
      await shot(page, '16-equipe');
    });

    it('says honestly why a page cannot open: a file that failed to load, or no connection at all', async () => {
      const stale = await context.newPage();
      try {
        // As after a deploy: the hashed file of a Settings page this tab knew is gone.
        await stale.route(/\/assets\/ApiKeys-[^/]+\.js$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
        await stale.goto(`${origin}/configuracoes/webhooks`);
        await stale.getByRole('heading', { name: 'Configurações' }).waitFor();
        await stale.getByRole('navigation', { name: 'Configurações' }).getByRole('link', { name: 'Chaves de API' }).click();
        await stale.getByRole('heading', { name: 'Não foi possível abrir esta página' }).waitFor();
        await expect(stale.getByRole('button', { name: 'Recarregar' }).count()).resolves.toBe(1);
      } finally {
        await stale.close();
      }
      // A context of its own (the same session), so the main page's live poll never sees the lost connection.
      const cut = await browser.newContext({ storageState: await context.storageState(), locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
      const offline = await cut.newPage();
      try {
        await offline.goto(`${origin}/configuracoes/webhooks`);
        await offline.getByRole('heading', { name: 'Configurações' }).waitFor();
        await cut.setOffline(true);
        await offline.getByText('Sem conexão com a internet. O que está na tela pode estar desatualizado').waitFor();
        await offline.getByRole('navigation', { name: 'Configurações' }).getByRole('link', { name: 'Quadros' }).click();
        await offline.getByRole('heading', { name: 'Sem conexão com a internet' }).waitFor();
      } finally {
        await cut.close();
      }
    });

    it('fits a phone screen', async () => {
      if (!shots) return expect(shots).toBe(false);
      await page.setViewportSize({ width: 390, height: 844 });
      for (const [path, name] of [
        ['/configuracoes/webhooks', '17-webhooks-celular'],
        [`/configuracoes/webhooks/${webhookId}`, '18-webhook-celular'],
      ] as const) {
        await page.goto(`${origin}${path}`);
        await page.getByRole('heading', { name: 'Configurações' }).waitFor();
        await page.waitForLoadState('networkidle');
        // Nothing wider than the screen: no sideways scrolling of the page.
        await expect(page.evaluate<number>('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
        await screenshot(page, name);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    it('signs out: the session ends and Settings need signing in again; nothing but this server was asked for', async () => {
      await page.goto(`${origin}/`);
      await page.getByRole('button', { name: 'Menu da conta' }).click();
      await page.getByRole('menuitem', { name: 'Sair' }).click();
      await page.waitForURL(`${origin}/entrar`);
      await page.getByText('Você saiu do painel.').waitFor();
      await page.goto(`${origin}/configuracoes/chaves-de-api`);
      await page.waitForURL(/\/entrar\?voltar=/);

      expect(watch.problems).toEqual([]);
      expect(watch.requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:'))).toEqual([]);
    });
  });
}
