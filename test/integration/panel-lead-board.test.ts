import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../support/clock.js';
import { DIALECTS } from '../support/dialects.js';
import { expectError } from '../support/expect.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';
import { signedIn, TEST_HASHING } from '../support/panel.js';

const MIN = 60_000;

/**
 * Response time in the panel (DECISIONS.md, Leads), on both databases with an injected clock: the
 * board's untouched leads with their waiting time, the responsible's unseen notices, and Início's
 * response times per seller for a period.
 */
describe.each(DIALECTS)('leads on the board, in the header and on Início (%s)', (dialect) => {
  let h: Harness;
  const clock = fakeClock('2026-11-22T12:00:00.000Z');
  beforeAll(async () => {
    h = await createHarness(dialect, { passwordHashing: TEST_HASHING, clock });
  });
  afterAll(() => h.close());

  let seq = 0;
  const lead = async (api: Caller, body: Record<string, unknown> = {}) => {
    const res = await api.post('/leads', { name: `Lead ${++seq}`, email: `lead${seq}.${dialect}@example.com.br`, source: 'site', ...body });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body.data as { deal: { id: string; title: string }; responsible_id: string | null; duplicate: boolean };
  };
  const callOf = async (dealId: string) =>
    (await h.testDb.db.kysely.selectFrom('activities').select('id').where('deal_id', '=', dealId).where('type', '=', 'call').executeTakeFirstOrThrow()).id;

  /** A team whose leads go, in turn, to two sellers; a manager who takes none. */
  async function store() {
    const manager = await signedIn(h, 'manager');
    const ana = await signedIn(h, 'seller', manager.teamId);
    const bruno = await signedIn(h, 'seller', manager.teamId);
    await h.services.leads.updateSettings(manager.teamId, { distribution: 'fixed', user_id: ana.user.id });
    return { manager, ana, bruno, api: await h.key(manager.teamId) };
  }

  it('the board lists the untouched leads oldest first with their waiting time by the server clock; an answer takes them off', async () => {
    clock.set('2026-11-22T12:00:00.000Z');
    const { manager, ana, bruno, api } = await store();
    const first = await lead(api, { name: 'Carla Dias' });
    clock.advance(5 * MIN);
    await h.services.leads.updateSettings(manager.teamId, { user_id: bruno.user.id });
    const second = await lead(api, { name: 'Davi Reis', source: 'webmotors' });
    const plain = (await api.post('/deals', { title: 'Venda de balcão' })).body.data.id;
    clock.advance(7 * MIN);

    const waiting = (await ana.browser.get('/leads/waiting')).body.data;
    expect(waiting.response_minutes).toBe(15);
    expect(waiting.items.map((i: any) => [i.deal_id, i.waiting_minutes, i.late])).toEqual([
      [first.deal.id, 12, false],
      [second.deal.id, 7, false],
    ]);
    expect(waiting.items[0]).toMatchObject({
      title: 'Lead site — Carla Dias',
      phase: 'lead',
      responsible: { id: ana.user.id },
      client: { name: 'Carla Dias' },
    });
    expect(waiting.items.map((i: any) => i.deal_id)).not.toContain(plain);
    // The board's filters apply.
    const mine = (await ana.browser.get(`/leads/waiting?responsible_id=${ana.user.id}`)).body.data.items;
    expect(mine.map((i: any) => i.deal_id)).toEqual([first.deal.id]);
    expect((await ana.browser.get('/leads/waiting?source=webmotors')).body.data.items.map((i: any) => i.deal_id)).toEqual([second.deal.id]);
    expect((await ana.browser.get('/leads/waiting?search=Davi')).body.data.items.map((i: any) => i.deal_id)).toEqual([second.deal.id]);

    // Past the target: marked late.
    clock.advance(3 * MIN);
    expect((await manager.browser.get('/leads/waiting')).body.data.items.map((i: any) => [i.waiting_minutes, i.late])).toEqual([
      [15, true],
      [10, false],
    ]);
    // A completed call answers the first; a phase change the second.
    expect((await ana.browser.post(`/activities/${await callOf(first.deal.id)}/complete`, {})).status).toBe(200);
    expect((await bruno.browser.put(`/deals/${second.deal.id}`, { phase: 'qualificado' })).status).toBe(200);
    expect((await manager.browser.get('/leads/waiting')).body.data.items).toEqual([]);
    // Another team's leads never show.
    const other = await signedIn(h, 'owner');
    await lead(await h.key(other.teamId));
    expect((await manager.browser.get('/leads/waiting')).body.data.items).toEqual([]);
  });

  it("the responsible's notices: a badge count and a list of unseen leads; opening one marks it seen; only one's own", async () => {
    clock.set('2026-11-23T09:00:00.000Z');
    const { manager, ana, bruno, api } = await store();
    const a1 = await lead(api, { name: 'Eva Lima', phone: '11 98888-0001' });
    clock.advance(MIN);
    const a2 = await lead(api, { name: 'Fábio Melo' });
    // The same person again from the same source within 30 days: a duplicate joins a1's deal, no new notice.
    expect((await lead(api, { name: 'Eva Lima', phone: '11 98888-0001' })).duplicate).toBe(true);

    clock.advance(4 * MIN);
    const notices = (await ana.browser.get('/leads/notices')).body.data;
    expect(notices.count).toBe(2);
    expect(notices.items.map((n: any) => n.waiting_minutes)).toEqual([4, 5]);
    expect(notices.items.map((n: any) => [n.deal_id, n.title, n.client_name, n.source])).toEqual([
      [a2.deal.id, 'Lead site — Fábio Melo', 'Fábio Melo', 'site'],
      [a1.deal.id, 'Lead site — Eva Lima', 'Eva Lima', 'site'],
    ]);
    expect((await bruno.browser.get('/leads/notices')).body.data).toEqual({ count: 0, items: [] });
    expect((await manager.browser.get('/leads/notices')).body.data.count).toBe(0);

    const first = notices.items[1].id;
    expectError(await bruno.browser.post(`/leads/${first}/seen`, {}), 404, 'NOT_FOUND', 'Lead não encontrado');
    expectError(await ana.browser.post('/leads/nao-e-um-id/seen', {}), 404, 'NOT_FOUND', 'Lead não encontrado');
    expect((await ana.browser.post(`/leads/${first}/seen`, {})).body.data).toEqual({ seen: true });
    const seenAt = (await h.testDb.db.kysely.selectFrom('leads').select('seen_at').where('id', '=', first).executeTakeFirstOrThrow()).seen_at;
    expect(new Date(seenAt!).toISOString()).toBe('2026-11-23T09:05:00.000Z');
    clock.advance(MIN);
    // Again: still seen, at the first time.
    expect((await ana.browser.post(`/leads/${first}/seen`, {})).status).toBe(200);
    const again = (await h.testDb.db.kysely.selectFrom('leads').select('seen_at').where('id', '=', first).executeTakeFirstOrThrow()).seen_at;
    expect(new Date(again!).toISOString()).toBe('2026-11-23T09:05:00.000Z');
    expect((await ana.browser.get('/leads/notices')).body.data).toMatchObject({ count: 1, items: [{ deal_id: a2.deal.id }] });
  });

  it('Início: per seller, leads received in the period, the median response time and the share answered within the target', async () => {
    clock.set('2026-11-10T13:00:00.000Z');
    const { manager, ana, bruno, api } = await store();
    await h.services.leads.updateSettings(manager.teamId, { response_minutes: 10 });
    // Ana: answered after 4, 8 and 30 minutes; Bruno: one answered after 6, one never (past the target), one still within it.
    const answerAfter = async (minutes: number | null) => {
      const l = await lead(api);
      if (minutes !== null) {
        clock.advance(minutes * MIN);
        await h.services.activities.complete(manager.teamId, await callOf(l.deal.id));
        clock.advance(-minutes * MIN);
      }
      clock.advance(60 * MIN);
    };
    for (const m of [4, 8, 30]) await answerAfter(m);
    await h.services.leads.updateSettings(manager.teamId, { user_id: bruno.user.id });
    await answerAfter(6);
    await answerAfter(null);
    // A lead of another month is not counted.
    clock.set('2026-10-31T12:00:00.000Z');
    await lead(api);
    clock.set('2026-11-30T20:55:00.000Z');
    await lead(api);
    clock.advance(2 * MIN);
    // Sessions signed in three weeks ago have lapsed: a seller and a manager sign in now.
    const seller = (await signedIn(h, 'seller', manager.teamId)).browser;
    const reader = (await signedIn(h, 'manager', manager.teamId)).browser;

    const stats = (await seller.get('/leads/stats')).body.data;
    expect(stats).toMatchObject({ from: '2026-11-01', to: '2026-11-30', response_minutes: 10 });
    expect(stats.sellers).toEqual([
      {
        responsible: { id: ana.user.id, name: ana.user.name },
        received: 3,
        answered: 3,
        answered_within_target: 2,
        median_response_minutes: 8,
        within_target_rate: 66.7,
      },
      {
        responsible: { id: bruno.user.id, name: bruno.user.name },
        received: 3,
        answered: 1,
        answered_within_target: 1,
        median_response_minutes: 6,
        within_target_rate: 50,
      },
    ]);
    // A period of one day (team time zone): Ana's three and Bruno's first two.
    const day = (await reader.get('/leads/stats?from=2026-11-10&to=2026-11-10')).body.data;
    expect(day.sellers).toEqual([
      {
        responsible: { id: ana.user.id, name: ana.user.name },
        received: 3,
        answered: 3,
        answered_within_target: 2,
        median_response_minutes: 8,
        within_target_rate: 66.7,
      },
      {
        responsible: { id: bruno.user.id, name: bruno.user.name },
        received: 2,
        answered: 1,
        answered_within_target: 1,
        median_response_minutes: 6,
        within_target_rate: 50,
      },
    ]);
    const october = (await reader.get('/leads/stats?from=2026-10-01&to=2026-10-31')).body.data.sellers;
    expect(october).toEqual([
      {
        responsible: { id: bruno.user.id, name: bruno.user.name },
        received: 1,
        answered: 0,
        answered_within_target: 0,
        median_response_minutes: null,
        within_target_rate: 0,
      },
    ]);
    expectError(
      await reader.get('/leads/stats?from=2026-11-30&to=2026-11-01'),
      400,
      'VALIDATION_ERROR',
      'Período inválido: a data inicial deve ser anterior ou igual à final',
    );
    expectError(await reader.get('/leads/stats?from=ontem'), 400, 'VALIDATION_ERROR');
  });
});
