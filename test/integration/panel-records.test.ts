import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/shared/ids.js';
import { fakeClock } from '../support/clock.js';
import { DIALECTS } from '../support/dialects.js';
import { expectError } from '../support/expect.js';
import { createHarness, type Harness } from '../support/harness.js';
import { signedIn, TEST_HASHING } from '../support/panel.js';

/**
 * The panel's vehicle board and records, clients, agenda and financial routes (PANEL2.md): every
 * write through the records' own services, so the API's messages (with error.field) and events.
 * The clock is fixed at 2026-11-22 12:00 UTC (09:00 in São Paulo, the team's default zone).
 */
describe.each(DIALECTS)('panel records (%s)', (dialect) => {
  let h: Harness;
  const clock = fakeClock('2026-11-22T12:00:00.000Z', { step: 1 });
  beforeAll(async () => {
    h = await createHarness(dialect, { passwordHashing: TEST_HASHING, clock });
  });
  afterAll(() => h.close());

  const eventTypes = async (teamId: string) =>
    (await h.testDb.db.kysely.selectFrom('events').select('type').where('team_id', '=', teamId).orderBy('created_at').orderBy('id').execute()).map(
      (e) => e.type,
    );

  it('vehicle board: columns per phase with cards (days in stock); move, mark sold, archive; duplicate plate on the field', async () => {
    // A manager: marking sold and archiving by hand are not a seller's (panel-roles.test.ts).
    const { browser, teamId, email } = await signedIn(h, 'manager');
    const gol = await browser.post('/vehicles', {
      title: 'Gol 1.0',
      brand: 'Volkswagen',
      model: 'Gol',
      plate: 'ABC1D23',
      price: 45000,
      model_year: 2020,
      manufacture_year: 2020,
      mileage: 50000,
    });
    expect(gol.status, gol.text).toBe(201);
    clock.advance(3 * 86_400_000);
    // Three days later the session has idled out: sign in again.
    expect((await browser.signIn(email)).status).toBe(200);
    const onix = (await browser.post('/vehicles', { title: 'Onix', brand: 'Chevrolet', model: 'Onix' })).body.data;
    const duplicate = await browser.post('/vehicles', { title: 'Outro', brand: 'Fiat', model: 'Uno', plate: 'abc-1d23' });
    expectError(duplicate, 422, 'DUPLICATE_ENTRY', 'Placa já cadastrada');
    expect(duplicate.body.error.field).toBe('plate');
    const badPlate = await browser.post('/vehicles', { title: 'X', brand: 'Fiat', model: 'Uno', plate: '12' });
    expect(badPlate.status).toBe(400);
    expect(badPlate.body.error.field).toBe('plate');

    const board = (await browser.get('/vehicles/board')).body.data.columns;
    expect(board[0].phase).toBe(gol.body.data.phase);
    expect(board[0]).toMatchObject({ count: 2, has_more: false });
    expect(board[0].items[0]).toEqual({
      id: gol.body.data.id,
      title: 'Gol 1.0',
      brand: 'Volkswagen',
      model: 'Gol',
      price: 45000,
      plate: 'ABC1D23',
      model_year: 2020,
      mileage: 50000,
      phase: board[0].phase,
      status: 'ativo',
      days_in_stock: 3,
      created_at: gol.body.data.created_at,
    });
    expect((await browser.get('/vehicles/board?brand=chevrolet')).body.data.columns[0].items.map((c: any) => c.id)).toEqual([onix.id]);
    const page = (await browser.get(`/vehicles/board/${board[0].phase}?offset=1&limit=1`)).body.data;
    expect(page).toMatchObject({ has_more: false, items: [{ id: onix.id, days_in_stock: 0 }] });

    const moved = await browser.put(`/vehicles/${onix.id}`, { phase: board[2].phase });
    expect(moved.body.data).toMatchObject({ id: onix.id, phase: board[2].phase, brand: 'Chevrolet' });
    expect(await eventTypes(teamId)).toContain('vehicle.phase_changed');
    const sold = await browser.put(`/vehicles/${gol.body.data.id}`, { status: 'vendido' });
    expect(sold.body.data.status).toBe('vendido');
    expect(await eventTypes(teamId)).toContain('vehicle.sold');
    const after = (await browser.get('/vehicles/board')).body.data.columns;
    expect(after.reduce((n: number, c: any) => n + c.count, 0)).toBe(1);
    expect((await browser.delete(`/vehicles/${onix.id}`)).body.data).toMatchObject({ id: onix.id, status: 'arquivado' });
    expect((await browser.get('/vehicles?status=arquivado')).body.pagination.total).toBe(1);
    expectError(await browser.get(`/vehicles/${newId()}`), 404, 'NOT_FOUND', 'Veículo não encontrado');
  });

  it('clients: search by CPF with or without punctuation, CPF validation on the field, overview, deactivate and reactivate', async () => {
    const { browser, teamId } = await signedIn(h, 'manager');
    const bad = await browser.post('/clients', { type: 'PF', name: 'Zé', cpf: '111.111.111-11' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'cpf' });
    const ana = (
      await browser.post('/clients', {
        type: 'PF',
        name: 'Ana Lima',
        email: 'ana@exemplo.com.br',
        cpf: '529.982.247-25',
        address: { city: 'Campinas', state: 'SP' },
      })
    ).body.data;
    expect(ana.address).toMatchObject({ city: 'Campinas' });
    expect((await browser.get('/clients?search=52998224725')).body.data.map((c: any) => c.id)).toEqual([ana.id]);
    expect((await browser.get('/clients?search=529.982.247-25')).body.data.map((c: any) => c.id)).toEqual([ana.id]);

    const deal = (await browser.post('/deals', { title: 'Compra', client_id: ana.id })).body.data;
    await browser.post('/activities', { type: 'call', title: 'Ligar', client_id: ana.id, due_at: '2026-11-21T12:00:00Z' });
    await browser.post('/financial', {
      type: 'revenue',
      category: 'comissao',
      description: 'Comissão',
      amount: 500,
      due_date: '2026-11-20',
      client_id: ana.id,
    });
    const overview = (await browser.get(`/clients/${ana.id}/overview`)).body.data;
    expect(overview.client.id).toBe(ana.id);
    expect(overview.deals.map((d: any) => d.id)).toEqual([deal.id]);
    expect(overview.activities).toMatchObject([{ title: 'Ligar', is_overdue: true, is_due_soon: false }]);
    expect(overview.financial).toMatchObject([{ description: 'Comissão', is_overdue: true }]);

    expect((await browser.delete(`/clients/${ana.id}`)).body.data).toMatchObject({ id: ana.id, status: 'inactive' });
    const back = await browser.post(`/clients/${ana.id}/reactivate`);
    expect(back.body.data).toMatchObject({ id: ana.id, status: 'active' });
    expect(await eventTypes(teamId)).toEqual(expect.arrayContaining(['client.created', 'client.deactivated', 'client.updated']));
    expectError(await browser.get(`/clients/${newId()}/overview`), 404, 'NOT_FOUND', 'Cliente não encontrado');
  });

  it('agenda: today, overdue and upcoming in the team time zone with the due-soon mark; create from a deal; complete', async () => {
    const { browser, teamId, user } = await signedIn(h, 'seller');
    clock.set('2026-11-22T12:00:00.000Z');
    const deal = (await browser.post('/deals', { title: 'Negócio' })).body.data;
    const post = (title: string, due_at: string, extra = {}) => browser.post('/activities', { type: 'task', title, due_at, responsible_id: user.id, ...extra });
    const late = (await post('Atrasada', '2026-11-22T11:00:00Z', { deal_id: deal.id })).body.data;
    const soon = (await post('Hoje à tarde', '2026-11-22T18:00:00Z')).body.data;
    // 01:00 UTC on the 23rd is still the 22nd in São Paulo (22:00).
    await post('Hoje à noite', '2026-11-23T01:00:00Z');
    await post('Amanhã', '2026-11-23T15:00:00Z');
    expect(late).toMatchObject({ deal_id: deal.id, is_overdue: true, is_due_soon: false });
    expect(soon).toMatchObject({ is_overdue: false, is_due_soon: true });
    const titles = async (view: string) => (await browser.get(`/activities?view=${view}&responsible_id=${user.id}`)).body.data.map((a: any) => a.title);
    expect(await titles('today')).toEqual(['Atrasada', 'Hoje à tarde', 'Hoje à noite']);
    expect(await titles('overdue')).toEqual(['Atrasada']);
    expect(await titles('upcoming')).toEqual(['Amanhã']);
    expect(await titles('all')).toHaveLength(4);
    expect((await browser.get(`/activities?deal_id=${deal.id}`)).body.data.map((a: any) => a.id)).toEqual([late.id]);

    const missingType = await browser.post('/activities', { title: 'Sem tipo', due_at: '2026-11-23T15:00:00Z' });
    expectError(missingType, 400, 'VALIDATION_ERROR', "Campo 'type' é obrigatório. Use: task, deadline, meeting, call, email, note");
    expect(missingType.body.error.field).toBe('type');
    const done = await browser.post(`/activities/${late.id}/complete`);
    expect(done.body.data).toMatchObject({ status: 'completed', is_overdue: false });
    expect(await titles('overdue')).toEqual([]);
    expect((await eventTypes(teamId)).filter((t) => t === 'activity.completed')).toHaveLength(1);
  });

  it('financial: filters, overdue mark, pay with a method (financial.paid), the summary changes; categories', async () => {
    const { browser, teamId } = await signedIn(h, 'manager');
    clock.set('2026-11-22T12:00:00.000Z');
    const rent = (await browser.post('/financial', { type: 'expense', category: 'aluguel', description: 'Aluguel', amount: 3000, due_date: '2026-11-10' })).body
      .data;
    const sale = (await browser.post('/financial', { type: 'revenue', category: 'venda-veiculo', description: 'Venda', amount: 50000, due_date: '2026-11-25' }))
      .body.data;
    expect(rent.is_overdue).toBe(true);
    expect(sale.is_overdue).toBe(false);
    const wrong = await browser.post('/financial', { type: 'revenue', category: 'aluguel', description: 'X', amount: 1, due_date: '2026-11-25' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.field).toBe('category');

    const ids = async (query: string) => (await browser.get(`/financial?${query}`)).body.data.map((r: any) => r.id);
    expect(await ids('overdue=true')).toEqual([rent.id]);
    expect(await ids('type=revenue')).toEqual([sale.id]);
    expect(await ids('from=2026-11-20&to=2026-11-30')).toEqual([sale.id]);
    expect(await ids('category=aluguel&status=pending')).toEqual([rent.id]);

    const before = (await browser.get('/financial/summary?from=2026-11-01&to=2026-11-30')).body.data;
    const paid = await browser.post(`/financial/${sale.id}/pay`, { payment_method: 'pix' });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.data).toMatchObject({ status: 'paid', payment_method: 'pix', is_overdue: false });
    expect((await eventTypes(teamId)).filter((t) => t === 'financial.paid')).toHaveLength(1);
    const after = (await browser.get('/financial/summary?from=2026-11-01&to=2026-11-30')).body.data;
    expect(after.totals).toEqual(before.totals);
    expect(before.by_status.paid.amount).toBe(0);
    expect(after.by_status.paid.amount).toBe(50000);
    expect(after.by_status.pending.amount).toBe(before.by_status.pending.amount - 50000);
    const badMethod = await browser.post(`/financial/${rent.id}/pay`, { payment_method: 'bitcoin' });
    expect(badMethod.status).toBe(400);

    const categories = (await browser.get('/financial/categories')).body.data;
    expect(categories.revenue).toContain('venda-veiculo');
    expect(categories.payment_methods).toContain('pix');
    expect((await browser.delete(`/financial/${rent.id}`)).body.data.status).toBe('cancelled');
    expectError(await browser.get(`/financial/${newId()}`), 404, 'NOT_FOUND');
  });

  it('dashboard: pipeline by phase, won and lost this month (team time zone), conversion, stock and its age, overdue activities and receivables', async () => {
    const { browser, email } = await signedIn(h, 'manager');
    clock.set('2026-11-22T12:00:00.000Z');
    const empty = (await browser.get('/dashboard')).body.data;
    expect(empty).toMatchObject({ conversion_rate: null, average_days_in_stock: null, overdue_activities: 0, overdue_receivables: { count: 0, amount: 0 } });
    expect(empty.won_this_month).toEqual({ count: 0, value: 0 });

    await browser.post('/deals', { title: 'A', value: 1000 });
    await browser.post('/deals', { title: 'B', value: 500.25, phase: 'proposta' });
    const won = (await browser.post('/deals', { title: 'C', value: 70000 })).body.data;
    const lost = (await browser.post('/deals', { title: 'D', value: 10 })).body.data;
    await browser.put(`/deals/${won.id}`, { status: 'ganho' });
    await browser.put(`/deals/${lost.id}`, { status: 'perdido', loss_reason: 'Preço' });
    await browser.post('/vehicles', { title: 'Gol', brand: 'VW', model: 'Gol' });
    await browser.post('/activities', { type: 'call', title: 'Atrasada', due_at: '2026-11-20T12:00:00Z' });
    await browser.post('/activities', { type: 'call', title: 'Futura', due_at: '2026-11-30T12:00:00Z' });
    await browser.post('/financial', { type: 'revenue', category: 'comissao', description: 'A receber', amount: 250.5, due_date: '2026-11-01' });
    await browser.post('/financial', { type: 'expense', category: 'aluguel', description: 'A pagar', amount: 99, due_date: '2026-11-01' });
    clock.advance(2 * 86_400_000);
    expect((await browser.signIn(email)).status).toBe(200);

    const d = (await browser.get('/dashboard')).body.data;
    expect(d.pipeline.map((p: any) => [p.phase, p.count, p.total_value])).toEqual([
      ['lead', 1, 1000],
      ['qualificado', 0, 0],
      ['proposta', 1, 500.25],
      ['negociacao', 0, 0],
      ['fechamento', 0, 0],
    ]);
    expect(d.won_this_month).toEqual({ count: 1, value: 70000 });
    expect(d.lost_this_month).toEqual({ count: 1, value: 10 });
    expect(d.conversion_rate).toBe(50);
    expect(d.stock.reduce((n: number, s: any) => n + s.count, 0)).toBe(1);
    expect(d.average_days_in_stock).toBe(2);
    expect(d.overdue_activities).toBe(1);
    expect(d.overdue_receivables).toEqual({ count: 1, amount: 250.5 });
  });
});
