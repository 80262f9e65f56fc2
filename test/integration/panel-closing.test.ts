import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { expectError } from '../support/expect.js';
import { createHarness, type Harness } from '../support/harness.js';
import { signedIn, TEST_HASHING } from '../support/panel.js';

type Browser = Awaited<ReturnType<typeof signedIn>>['browser'];

/**
 * Issue 25, point 3 (server side; DECISIONS "Closing a deal in the panel"): the panel's win names the
 * car sold and the final value, and the car becomes `vendido` in the same transaction; the revenue it
 * offers next is linked to the deal, the car and the client, and fills in the margin per vehicle. A
 * lost deal needs a reason in the panel (the API keeps free text); the team keeps its list of reasons.
 */
describe.each(DIALECTS)('panel: closing a deal (%s)', (dialect) => {
  let h: Harness;
  let teamId: string;
  let owner: Browser;
  let seller: Browser;
  let clientId: string;
  beforeAll(async () => {
    h = await createHarness(dialect, { passwordHashing: TEST_HASHING });
    ({ teamId, browser: owner } = await signedIn(h, 'owner'));
    seller = (await signedIn(h, 'seller', teamId)).browser;
    clientId = (await owner.post('/clients', { type: 'PF', name: 'Bruna Lima' })).body.data.id;
  });
  afterAll(() => h.close());

  const vehicle = async (title: string, purchase = 50000) =>
    (await owner.post('/vehicles', { title, brand: 'Fiat', model: 'Argo', price: 70000, purchase_price: purchase })).body.data.id as string;
  const deal = async (title: string, extra: object = {}) =>
    (await owner.post('/deals', { title, client_id: clientId, value: 70000, ...extra })).body.data.id as string;
  const eventsOf = async (id: string) => {
    const rows = await h.testDb.db.kysely.selectFrom('events').select(['type', 'object']).orderBy('created_at').orderBy('id').execute();
    return rows.filter((r) => String(r.object).includes(id)).map((r) => r.type);
  };

  it('wins with a car picked from stock and a final value: the deal is ganho, the car vendido, one transaction, and the revenue fills the margin', async () => {
    const carId = await vehicle('Argo Drive 1.3', 52000);
    const dealId = await deal('Argo para Bruna');
    const won = await seller.post(`/deals/${dealId}/win`, { vehicle_id: carId, value: 68500 });
    expect(won.status, won.text).toBe(200);
    expect(won.body.data.deal).toMatchObject({ id: dealId, status: 'ganho', value: 68500, case_id: carId });
    expect(won.body.data.vehicle).toMatchObject({ id: carId, status: 'vendido' });
    expect(Object.keys(won.body.data.vehicle)).not.toContain('purchase_price');
    expect((await owner.get(`/vehicles/${carId}`)).body.data).toMatchObject({ status: 'vendido', purchase_price: 52000 });
    expect(await eventsOf(carId)).toEqual(expect.arrayContaining(['deal.won', 'vehicle.sold']));

    // The revenue the panel offers next, paid by PIX: the summary's margin per vehicle fills in.
    const today = new Date().toISOString().slice(0, 10);
    const revenue = await owner.post('/financial', {
      type: 'revenue',
      category: 'venda-veiculo',
      description: 'Venda: Argo Drive 1.3',
      amount: 68500,
      due_date: today,
      status: 'paid',
      payment_method: 'pix',
      deal_id: dealId,
      vehicle_id: carId,
      client_id: clientId,
    });
    expect(revenue.status, revenue.text).toBe(201);
    const summary = (await owner.get(`/financial/summary?from=${today}&to=${today}`)).body.data;
    expect(JSON.stringify(summary)).toContain(carId);
    const margin = summary.by_vehicle.find((m: { vehicle_id: string }) => m.vehicle_id === carId);
    expect(margin).toMatchObject({ vehicle_id: carId, title: 'Argo Drive 1.3', plate: null, sale_revenue: 68500, purchase_price: 52000, margin: 16500 });
    // The vehicle's dialog and the client's page list the record; the public API's summary keeps its shape.
    expect((await owner.get(`/financial?vehicle_id=${carId}`)).body.data.map((r: { id: string }) => r.id)).toEqual([revenue.body.data.id]);
    expect((await owner.get(`/clients/${clientId}/overview`)).body.data.financial.map((r: { id: string }) => r.id)).toContain(revenue.body.data.id);
    expectError(await seller.get(`/financial?vehicle_id=${carId}`), 403, 'FORBIDDEN');
    await h.services.teams.setPreview(teamId, { enable: ['financial'] });
    const api = await h.key(teamId, ['financial:read']);
    const apiMargin = (await api.get(`/financial/summary?from=${today}&to=${today}`)).body.data.by_vehicle[0];
    expect(Object.keys(apiMargin).sort()).toEqual(['costs', 'margin', 'purchase_price', 'sale_revenue', 'vehicle_id']);
  });

  it("wins with the deal's own case_id, or without a car; refuses a car not in stock, an unknown one and a deal not active, changing nothing", async () => {
    const carId = await vehicle('Mobi Like');
    const own = await deal('Mobi', { case_id: carId });
    expect((await owner.post(`/deals/${own}/win`, { vehicle_id: carId, value: 60000 })).body.data.vehicle).toMatchObject({ id: carId, status: 'vendido' });

    const other = await deal('Outro negócio do Mobi');
    expectError(
      await owner.post(`/deals/${other}/win`, { vehicle_id: carId, value: 1 }),
      422,
      'VALIDATION_ERROR',
      'Este veículo não está em estoque (vendido ou arquivado)',
      {
        field: 'vehicle_id',
      },
    );
    expectError(
      await owner.post(`/deals/${other}/win`, { vehicle_id: '00000000-0000-4000-8000-000000000001', value: 1 }),
      400,
      'VALIDATION_ERROR',
      'Veículo não encontrado',
      {
        field: 'vehicle_id',
      },
    );
    expectError(await owner.post(`/deals/${other}/win`, { vehicle_id: 'nope', value: 1 }), 400, 'VALIDATION_ERROR', 'Veículo não encontrado');
    expect((await owner.get(`/deals/${other}`)).body.data).toMatchObject({ status: 'ativo', value: 70000, case_id: null });
    expect(await eventsOf(other)).toEqual(['deal.created']);

    const alone = await owner.post(`/deals/${other}/win`, { vehicle_id: null, value: 1500.5 });
    expect(alone.body.data).toMatchObject({ deal: { status: 'ganho', value: 1500.5 }, vehicle: null });
    expectError(
      await owner.post(`/deals/${other}/win`, { vehicle_id: null, value: 1 }),
      422,
      'VALIDATION_ERROR',
      'Só um negócio em andamento pode ser marcado como ganho',
    );
    expectError(await owner.post(`/deals/${other}/win`, { value: 1 }), 400, 'VALIDATION_ERROR');
  });

  it('a lost deal needs a reason in the panel (the API keeps free text); the list of reasons: defaults, edited by a manager, read by a seller', async () => {
    const lost = await deal('Perdido');
    for (const loss_reason of [undefined, '', '  \u200b ']) {
      expectError(await seller.put(`/deals/${lost}`, { status: 'perdido', loss_reason }), 400, 'VALIDATION_ERROR', 'Informe o motivo da perda', {
        field: 'loss_reason',
      });
    }
    expect((await seller.put(`/deals/${lost}`, { status: 'perdido', loss_reason: 'Comprou em outra loja' })).body.data).toMatchObject({
      status: 'perdido',
      loss_reason: 'Comprou em outra loja',
    });
    const api = await h.key(teamId);
    expect((await api.put(`/deals/${await deal('Pela API')}`, { status: 'perdido', loss_reason: '' })).status).toBe(200);

    expect((await seller.get('/loss-reasons')).body.data.reasons).toEqual([
      'Preço',
      'Financiamento recusado',
      'Comprou em outra loja',
      'Desistiu da compra',
      'Sem retorno do cliente',
      'Veículo vendido a outro cliente',
    ]);
    expectError(await seller.put('/loss-reasons', { reasons: ['Preço'] }), 403, 'FORBIDDEN');
    const manager = (await signedIn(h, 'manager', teamId)).browser;
    const saved = await manager.put('/loss-reasons', { reasons: ['  Preço  alto ', 'Sem crédito', 'outro', 'Troca recusada'] });
    expect(saved.body.data.reasons).toEqual(['Preço alto', 'Sem crédito', 'Troca recusada']);
    expectError(await manager.put('/loss-reasons', { reasons: ['Preço', 'preco '] }), 400, 'VALIDATION_ERROR', "Motivo de perda repetido: 'preco'");
    expectError(await manager.put('/loss-reasons', { reasons: ['Preço', ' '] }), 400, 'VALIDATION_ERROR', 'Um motivo de perda não pode ser vazio');
    expect((await seller.get('/loss-reasons')).body.data.reasons).toEqual(['Preço alto', 'Sem crédito', 'Troca recusada']);
  });
});
