import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../support/clock.js';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Harness } from '../support/harness.js';
import { signedIn, TEST_HASHING } from '../support/panel.js';

const DAY = 86_400_000;

/**
 * Issue 25, point 4 (server side): the vehicle board and list by status (em estoque = ativo,
 * vendidos, arquivados), days in stock on every vehicle answer, and an archived car brought back.
 */
describe.each(DIALECTS)('panel stock: sold and archived vehicles (%s)', (dialect) => {
  let h: Harness;
  const clock = fakeClock('2026-11-01T12:00:00.000Z', { step: 1 });
  beforeAll(async () => {
    h = await createHarness(dialect, { passwordHashing: TEST_HASHING, clock });
  });
  afterAll(() => h.close());

  it('board and list by status, days in stock until the sale, the archiving or now; restore brings a car back in its phase', async () => {
    const first = await signedIn(h, 'manager');
    let browser = first.browser;
    // Sessions end after 12 idle hours: a fresh one after each jump of the clock.
    const later = async (days: number) => {
      clock.advance(days * DAY);
      browser = (await signedIn(h, 'manager', first.teamId)).browser;
    };
    const create = async (title: string, phase: string) =>
      (await browser.post('/vehicles', { title, brand: 'Fiat', model: 'Argo', phase, price: 70000 })).body.data.id as string;
    const kept = await create('Argo em estoque', 'disponivel');
    const sold = await create('Argo vendido', 'reservado');
    const archived = await create('Argo arquivado', 'preparacao');
    await later(10);
    expect((await browser.put(`/vehicles/${sold}`, { status: 'vendido' })).status).toBe(200);
    await later(5);
    expect((await browser.delete(`/vehicles/${archived}`)).status).toBe(200);
    await later(5);

    const board = async (status?: string) => {
      const columns = (await browser.get(`/vehicles/board${status ? `?status=${status}` : ''}`)).body.data.columns;
      return columns
        .filter((c: { count: number }) => c.count > 0)
        .map((c: { phase: string; items: Array<{ id: string }> }) => [c.phase, c.items.map((i) => i.id)]);
    };
    expect(await board()).toEqual([['disponivel', [kept]]]);
    expect(await board('ativo')).toEqual([['disponivel', [kept]]]);
    expect(await board('vendido')).toEqual([['reservado', [sold]]]);
    expect(await board('arquivado')).toEqual([['preparacao', [archived]]]);
    expect((await browser.get('/vehicles/board/reservado?status=vendido')).body.data.items.map((i: { id: string }) => i.id)).toEqual([sold]);

    const list = async (status: string) =>
      (await browser.get(`/vehicles?status=${status}`)).body.data.map((v: { id: string; days_in_stock: number }) => [v.id, v.days_in_stock]);
    expect(await list('ativo')).toEqual([[kept, 20]]);
    expect(await list('vendido')).toEqual([[sold, 10]]);
    expect(await list('arquivado')).toEqual([[archived, 15]]);
    expect((await browser.get(`/vehicles/${kept}`)).body.data.days_in_stock).toBe(20);

    const restored = await browser.post(`/vehicles/${archived}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.data).toMatchObject({ id: archived, status: 'ativo', phase: 'preparacao', sold_at: null });
    expect(await list('arquivado')).toEqual([]);
    expect((await browser.post(`/vehicles/${kept}/restore`)).body.data).toMatchObject({ id: kept, status: 'ativo' });
    const events = await h.testDb.db.kysely.selectFrom('events').select(['type']).where('type', 'like', 'vehicle.%').orderBy('created_at').execute();
    expect(events.map((e) => e.type).slice(-2)).toEqual(['vehicle.removed', 'vehicle.updated']);
  });
});
