import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import { DIALECTS } from '../support/dialects.js';
import { expectError } from '../support/expect.js';
import { signedIn, TEST_HASHING, panelBrowser } from '../support/panel.js';
import { registeredPanelEndpoints, type PanelEndpoint } from '../support/routes.js';
import type { Role } from '../../src/domain/users/users.types.js';

/**
 * The panel's role matrix (DECISIONS.md: owner = everything; manager = records, boards, phases, the
 * cash book, webhooks and keys read-only; seller = deals, clients, vehicles, activities), restated here rather than read from src/: the test fails when a registered
 * /panel/api route is missing from this table or declares another role, and then checks every
 * route: no session -> 401, each lesser role -> 403, the needed role without the CSRF header on a
 * state-changing request -> 403 CSRF_INVALID, and with it -> neither 401 nor 403.
 */
const ROLE_OF: Record<string, Role | null> = {
  'POST /session': null,
  'GET /session': 'seller',
  'DELETE /session': 'seller',
  'PUT /me/password': 'seller',
  'GET /password-links/:token': null,
  'POST /password-links/:token': null,
  'GET /openapi.json': null,
  'GET /team': 'seller',
  'PUT /team': 'owner',
  'GET /users': 'seller',
  'POST /users': 'owner',
  'PUT /users/:id': 'owner',
  'POST /users/:id/password-link': 'owner',
  'GET /keys': 'manager',
  'POST /keys': 'owner',
  'DELETE /keys/:id': 'owner',
  'GET /scopes': 'seller',
  'GET /event-types': 'seller',
  'GET /webhooks': 'manager',
  'POST /webhooks': 'owner',
  'GET /webhooks/:id': 'manager',
  'PUT /webhooks/:id': 'owner',
  'DELETE /webhooks/:id': 'owner',
  'GET /webhooks/:id/secret': 'owner',
  'POST /webhooks/:id/rotate-secret': 'owner',
  'POST /webhooks/:id/test': 'owner',
  'GET /webhooks/:id/deliveries': 'manager',
  'POST /webhooks/:id/deliveries/:deliveryId/resend': 'owner',
  'POST /webhooks/:id/recover': 'owner',
  'GET /boards/:board/phases': 'seller',
  'GET /deals/:id/probability': 'seller',
  'GET /ai/model': 'manager',
  'PUT /boards/:board/phases': 'manager',
  'GET /loss-reasons': 'seller',
  'PUT /loss-reasons': 'manager',
  'GET /leads/settings': 'manager',
  'PUT /leads/settings': 'manager',
  'PUT /leads/people/:id': 'manager',
  'GET /leads/waiting': 'seller',
  'GET /leads/notices': 'seller',
  'POST /leads/:id/seen': 'seller',
  'GET /leads/stats': 'seller',
  'GET /deals/board': 'seller',
  'GET /deals/board/:phase': 'seller',
  'GET /deals': 'seller',
  'POST /deals': 'seller',
  'GET /deals/:id': 'seller',
  'PUT /deals/:id': 'seller',
  'DELETE /deals/:id': 'seller',
  'POST /deals/:id/win': 'seller',
  'GET /people': 'seller',
  'GET /changes': 'seller',
  'GET /dashboard': 'seller',
  'GET /vehicles/board': 'seller',
  'GET /vehicles/board/:phase': 'seller',
  'GET /vehicles': 'seller',
  'POST /vehicles': 'seller',
  'GET /vehicles/:id': 'seller',
  'PUT /vehicles/:id': 'seller',
  'DELETE /vehicles/:id': 'manager',
  'POST /vehicles/:id/restore': 'manager',
  'GET /clients': 'seller',
  'POST /clients': 'seller',
  'GET /clients/:id': 'seller',
  'PUT /clients/:id': 'seller',
  'DELETE /clients/:id': 'seller',
  'POST /clients/:id/reactivate': 'seller',
  'GET /clients/:id/overview': 'seller',
  'GET /activities': 'seller',
  'POST /activities': 'seller',
  'GET /activities/:id': 'seller',
  'PUT /activities/:id': 'seller',
  'DELETE /activities/:id': 'seller',
  'POST /activities/:id/complete': 'seller',
  'GET /financial': 'manager',
  'GET /financial/summary': 'manager',
  'GET /financial/categories': 'manager',
  'POST /financial': 'manager',
  'GET /financial/:id': 'manager',
  'PUT /financial/:id': 'manager',
  'DELETE /financial/:id': 'manager',
  'POST /financial/:id/pay': 'manager',
};

const LESSER: Record<Role, Role[]> = { owner: ['manager', 'seller'], manager: ['seller'], seller: [] };
const UNKNOWN = '00000000-0000-4000-8000-00000000abcd';
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const pathOf = (e: PanelEndpoint) => e.path.replace(':board', 'deals').replace(/:\w+/g, UNKNOWN);
const name = (e: PanelEndpoint) => `${e.method} ${e.path}`;

const endpoints = await registeredPanelEndpoints();

describe('the panel role table covers every registered /panel/api route', () => {
  it('every registered route is in the table with the role it declares, and the table names no missing route', () => {
    const registered = new Map(endpoints.map((e) => [name(e), e.panel]));
    for (const [route, panel] of registered) {
      expect(panel, `${route} declares no config.panel`).toBeDefined();
      expect(route in ROLE_OF, `${route} is missing from the role table`).toBe(true);
      expect(panel!.role, route).toBe(ROLE_OF[route]);
    }
    const missing = Object.keys(ROLE_OF).filter((r) => !registered.has(r));
    expect(missing).toEqual([]);
  });
});

describe.each(DIALECTS)('panel role matrix (%s)', (dialect) => {
  let h: Harness;
  let teamId: string;
  beforeAll(async () => {
    h = await createHarness(dialect, { passwordHashing: TEST_HASHING });
    teamId = (await signedIn(h, 'owner')).teamId;
  });
  afterAll(() => h.close());

  const guarded = endpoints.filter((e) => ROLE_OF[name(e)]);

  it.each(guarded.map((e) => [name(e), e] as const))('%s: no session -> 401', async (_name, e) => {
    expectError(await panelBrowser(h).request(e.method, pathOf(e), STATE_CHANGING.has(e.method) ? {} : undefined), 401, 'UNAUTHORIZED');
  });

  it.each(guarded.map((e) => [name(e), e] as const))('%s: lesser roles -> 403; the needed role passes, with the CSRF token', async (_name, e) => {
    const needed = ROLE_OF[name(e)]!;
    const body = STATE_CHANGING.has(e.method) ? {} : undefined;
    for (const role of LESSER[needed]) {
      const { browser } = await signedIn(h, role, teamId);
      expectError(await browser.request(e.method, pathOf(e), body), 403, 'FORBIDDEN', 'Seu papel na equipe não permite esta ação');
    }
    const { browser } = await signedIn(h, needed, teamId);
    if (STATE_CHANGING.has(e.method)) {
      expectError(await browser.request(e.method, pathOf(e), body, { 'x-csrf-token': '' }), 403, 'CSRF_INVALID');
    }
    const res = await browser.request(e.method, pathOf(e), body);
    expect([401, 403], `${name(e)} as ${needed}: ${res.status} ${res.text}`).not.toContain(res.status);
  });
});

/**
 * The finer rules of the records (DECISIONS: "Roles in the records"): a seller never sees what the
 * store paid or earned (`purchase_price` absent from every vehicle answer, no receivables on the
 * dashboard, no records on a client's page) and may not set a vehicle's status or purchase price by
 * hand (403); managers and owners may. The API keys keep their scopes' rules.
 */
describe.each(DIALECTS)('what a seller sees and may do in the records (%s)', (dialect) => {
  let h: Harness;
  let teamId: string;
  let owner: Awaited<ReturnType<typeof signedIn>>['browser'];
  let seller: Awaited<ReturnType<typeof signedIn>>['browser'];
  let managerBrowser: Awaited<ReturnType<typeof signedIn>>['browser'];
  let vehicleId: string;
  let clientId: string;
  beforeAll(async () => {
    h = await createHarness(dialect, { passwordHashing: TEST_HASHING });
    ({ teamId, browser: owner } = await signedIn(h, 'owner'));
    seller = (await signedIn(h, 'seller', teamId)).browser;
    managerBrowser = (await signedIn(h, 'manager', teamId)).browser;
    vehicleId = (await owner.post('/vehicles', { title: 'Onix LT', brand: 'Chevrolet', model: 'Onix', price: 82900, purchase_price: 71000 })).body.data.id;
    clientId = (await owner.post('/clients', { type: 'PF', name: 'Ana Souza' })).body.data.id;
    await h.services.financial.create(teamId, {
      type: 'revenue',
      category: 'venda-veiculo',
      description: 'Venda',
      amount: 1000,
      due_date: '2020-01-01',
      client_id: clientId,
    } as never);
  });
  afterAll(() => h.close());

  const absent = (vehicle: Record<string, unknown>) => expect(Object.keys(vehicle)).not.toContain('purchase_price');

  it('purchase_price is absent (not null) from every vehicle answer a seller gets, present for managers and owners', async () => {
    const created = await seller.post('/vehicles', { title: 'HB20', brand: 'Hyundai', model: 'HB20', price: 60000, purchase_price: null });
    expect(created.status).toBe(201);
    absent(created.body.data);
    absent((await seller.get(`/vehicles/${vehicleId}`)).body.data);
    for (const v of (await seller.get('/vehicles')).body.data) absent(v);
    for (const v of (await seller.get('/vehicles?status=ativo&search=onix')).body.data) absent(v);
    const moved = await seller.put(`/vehicles/${vehicleId}`, { phase: 'preparacao', price: 81900 });
    expect(moved.status).toBe(200);
    absent(moved.body.data);
    const board = (await seller.get('/vehicles/board')).body.data.columns;
    for (const card of board.flatMap((c: { items: object[] }) => c.items)) absent(card as Record<string, unknown>);
    expect(JSON.stringify((await seller.get('/vehicles/board/preparacao')).body)).not.toContain('purchase_price');
    expect((await managerBrowser.get(`/vehicles/${vehicleId}`)).body.data.purchase_price).toBe(71000);
    expect((await owner.get('/vehicles')).body.data.find((v: { id: string }) => v.id === vehicleId).purchase_price).toBe(71000);
  });

  it("the dashboard and a client's page show a seller no money of the store", async () => {
    const dashboard = (await seller.get('/dashboard')).body.data;
    expect(Object.keys(dashboard)).not.toContain('overdue_receivables');
    expect(JSON.stringify(dashboard)).not.toMatch(/margin|purchase/);
    expect((await owner.get('/dashboard')).body.data.overdue_receivables).toEqual({ count: 1, amount: 1000 });
    expect(Object.keys((await seller.get(`/clients/${clientId}/overview`)).body.data)).toEqual(['client', 'deals', 'activities']);
    expect((await managerBrowser.get(`/clients/${clientId}/overview`)).body.data.financial).toHaveLength(1);
  });

  it('a seller may not set a status or a purchase price by hand (403), nor archive or restore; a manager may', async () => {
    const refused: Array<[string, object, string]> = [
      ['PUT', { status: 'vendido' }, 'Vendedores não mudam o status de um veículo: ele é vendido ao ganhar o negócio; arquivar e restaurar cabem ao gerente'],
      ['PUT', { status: 'arquivado' }, 'Vendedores não mudam o status de um veículo: ele é vendido ao ganhar o negócio; arquivar e restaurar cabem ao gerente'],
      ['PUT', { purchase_price: 65000 }, 'Vendedores não informam nem alteram o preço de compra'],
      ['PUT', { purchase_price: null }, 'Vendedores não informam nem alteram o preço de compra'],
    ];
    for (const [method, body, message] of refused) expectError(await seller.request(method, `/vehicles/${vehicleId}`, body), 403, 'FORBIDDEN', message);
    expectError(
      await seller.post('/vehicles', { title: 'Gol', brand: 'VW', model: 'Gol', purchase_price: 30000 }),
      403,
      'FORBIDDEN',
      'Vendedores não informam nem alteram o preço de compra',
    );
    expectError(await seller.delete(`/vehicles/${vehicleId}`), 403, 'FORBIDDEN');
    expectError(await seller.post(`/vehicles/${vehicleId}/restore`), 403, 'FORBIDDEN');
    expectError(await seller.delete('/financial/00000000-0000-4000-8000-000000000000'), 403, 'FORBIDDEN');
    const vehicle = (await owner.get(`/vehicles/${vehicleId}`)).body.data;
    expect([vehicle.status, vehicle.purchase_price]).toEqual(['ativo', 71000]);

    expect((await managerBrowser.put(`/vehicles/${vehicleId}`, { purchase_price: 70000 })).body.data.purchase_price).toBe(70000);
    expect((await managerBrowser.delete(`/vehicles/${vehicleId}`)).body.data.status).toBe('arquivado');
    const restored = await managerBrowser.post(`/vehicles/${vehicleId}/restore`);
    expect(restored.body.data).toMatchObject({ id: vehicleId, status: 'ativo', phase: 'preparacao' });
    // The API key, governed by its scopes, still sets both.
    const api = await h.key(teamId);
    expect((await api.put(`/vehicles/${vehicleId}`, { status: 'vendido', purchase_price: 69000 })).status).toBe(200);
  });

  it('a manager reads webhooks and keys but may not change them', async () => {
    expect((await managerBrowser.get('/keys')).status).toBe(200);
    expect((await managerBrowser.get('/webhooks')).status).toBe(200);
    expectError(await managerBrowser.post('/keys', { name: 'x', scopes: ['deals:read'] }), 403, 'FORBIDDEN');
    expectError(await managerBrowser.post('/webhooks', { url: 'https://example.com/x' }), 403, 'FORBIDDEN');
  });
});
