import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/app/services.js';
import type { FinancialCreateInput } from '../../src/domain/financial/financial.types.js';
import { fakeClock } from '../support/clock.js';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Harness } from '../support/harness.js';
import { createVehicleForSummary } from '../support/agenda.js';

/**
 * GET /financial/summary's figures (issue 12 point 4) against totals computed by hand below: totals per
 * type, net, count and amount per status with overdue apart, per category, per month, margin per
 * vehicle. Money is summed in integer cents (ten times 0.10 is 1.00, not 0.9999999999999999).
 */

describe.each(DIALECTS)('financial summary (%s)', (dialect) => {
  let h: Harness;
  let s: Services;
  let teamId: string;
  let vehicle: { id: string; purchasePrice: number };

  beforeAll(async () => {
    // 2026-11-24 09:00 in São Paulo.
    h = await createHarness(dialect, { clock: fakeClock('2026-11-24T12:00:00.000Z') });
    s = h.services;
    teamId = (await h.team()).teamId;
    vehicle = await createVehicleForSummary(h, teamId);
    const add = (r: Omit<FinancialCreateInput, 'description'> & { description?: string }) => s.financial.create(teamId, { description: 'x', ...r });
    const v = vehicle.id;
    await add({
      type: 'revenue',
      category: 'venda-veiculo',
      amount: 65990.9,
      due_date: '2026-11-05',
      status: 'paid',
      payment_method: 'financiamento',
      vehicle_id: v,
    });
    await add({ type: 'revenue', category: 'comissao', amount: 0.1, due_date: '2026-11-10' }); // overdue
    await add({ type: 'revenue', category: 'financiamento', amount: 0.2, due_date: '2026-11-30' });
    await add({ type: 'expense', category: 'aluguel', amount: 8500, due_date: '2026-11-01', status: 'paid', payment_method: 'boleto' });
    await add({ type: 'expense', category: 'marketing', amount: 1234.56, due_date: '2026-11-24' }); // due today: not overdue yet
    await add({ type: 'cost', category: 'funilaria', amount: 2500.33, due_date: '2026-11-15', status: 'paid', payment_method: 'pix', vehicle_id: v });
    await add({ type: 'cost', category: 'mecanica', amount: 799.99, due_date: '2026-11-20', vehicle_id: v }); // overdue
    const cancelled = await add({ type: 'cost', category: 'higienizacao', amount: 150, due_date: '2026-11-21', vehicle_id: v });
    await s.financial.cancel(teamId, cancelled.id);
    await add({ type: 'revenue', category: 'venda-veiculo', amount: 1000, due_date: '2026-10-31' }); // October
    await add({ type: 'revenue', category: 'seguro', amount: 0.7, due_date: '2026-12-01' }); // December
  });
  afterAll(() => h?.close());

  it('November (the default period: the current month in the team time zone), by hand', async () => {
    const sum = await s.financial.summary(teamId);
    expect(sum.period).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    // revenue 65990.90 + 0.10 + 0.20; expense 8500 + 1234.56; cost 2500.33 + 799.99 (the cancelled 150 is out)
    expect(sum.totals).toEqual({ revenue: 65991.2, expense: 9734.56, cost: 3300.32, net: 52956.32 });
    expect(sum.by_status).toEqual({
      paid: { count: 3, amount: 76991.23 }, // 65990.90 + 8500 + 2500.33
      pending: { count: 2, amount: 1234.76 }, // 0.20 + 1234.56
      overdue: { count: 2, amount: 800.09 }, // 0.10 + 799.99
      cancelled: { count: 1, amount: 150 },
    });
    // Money in and money out never added together (the panel's "Recebido" and "Pago").
    expect(sum.by_direction).toEqual({
      in: { paid: { count: 1, amount: 65990.9 }, pending: { count: 1, amount: 0.2 }, overdue: { count: 1, amount: 0.1 } },
      out: { paid: { count: 2, amount: 11000.33 }, pending: { count: 1, amount: 1234.56 }, overdue: { count: 1, amount: 799.99 } },
    });
    expect(sum.by_category).toEqual([
      { type: 'cost', category: 'funilaria', count: 1, amount: 2500.33 },
      { type: 'cost', category: 'mecanica', count: 1, amount: 799.99 },
      { type: 'expense', category: 'aluguel', count: 1, amount: 8500 },
      { type: 'expense', category: 'marketing', count: 1, amount: 1234.56 },
      { type: 'revenue', category: 'comissao', count: 1, amount: 0.1 },
      { type: 'revenue', category: 'financiamento', count: 1, amount: 0.2 },
      { type: 'revenue', category: 'venda-veiculo', count: 1, amount: 65990.9 },
    ]);
    expect(sum.by_month).toEqual([{ month: '2026-11', revenue: 65991.2, expense: 9734.56, cost: 3300.32, net: 52956.32 }]);
    // sale 65990.90 − purchase 52000.00 − costs 3300.32 (2500.33 + 799.99) = 10690.58
    expect(sum.by_vehicle).toEqual([{ vehicle_id: vehicle.id, sale_revenue: 65990.9, purchase_price: 52000, costs: 3300.32, margin: 10690.58 }]);
  });

  it('October to December: per month, and the totals of the three', async () => {
    const sum = await s.financial.summary(teamId, { from: '2026-10-01', to: '2026-12-31' });
    expect(sum.by_month).toEqual([
      { month: '2026-10', revenue: 1000, expense: 0, cost: 0, net: 1000 },
      { month: '2026-11', revenue: 65991.2, expense: 9734.56, cost: 3300.32, net: 52956.32 },
      { month: '2026-12', revenue: 0.7, expense: 0, cost: 0, net: 0.7 },
    ]);
    // 65991.20 + 1000 + 0.70; net 66991.90 − 9734.56 − 3300.32
    expect(sum.totals).toEqual({ revenue: 66991.9, expense: 9734.56, cost: 3300.32, net: 53957.02 });
    expect(sum.by_status.overdue).toEqual({ count: 3, amount: 1800.09 }); // + the October sale, pending past its date
  });

  it('exact cents: ten records of 0.10 sum to 1.00; a period with nothing is all zeros', async () => {
    const other = (await h.team()).teamId;
    for (let i = 0; i < 10; i++)
      await s.financial.create(other, { type: 'expense', category: 'tecnologia', description: 'SaaS', amount: 0.1, due_date: '2026-11-30' });
    const sum = await s.financial.summary(other);
    expect(sum.totals).toEqual({ revenue: 0, expense: 1, cost: 0, net: -1 });
    expect(sum.by_status.pending).toEqual({ count: 10, amount: 1 });
    const empty = await s.financial.summary(other, { from: '2025-01-01', to: '2025-01-31' });
    expect(empty.totals).toEqual({ revenue: 0, expense: 0, cost: 0, net: 0 });
    expect(empty.by_category).toEqual([]);
    expect(empty.by_month).toEqual([]);
    expect(empty.by_vehicle).toEqual([]);
  });

  it('refuses a period that ends before it starts', async () => {
    await expect(s.financial.summary(teamId, { from: '2026-12-01', to: '2026-11-01' })).rejects.toMatchObject({ statusCode: 400, extras: { field: 'from' } });
  });
});
