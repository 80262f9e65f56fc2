import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aucWithInterval, brier, calibrationByDecile } from '../../src/domain/ai/metrics.js';
import { generateHistories, type SyntheticHistory } from '../../src/domain/ai/synthetic-histories.js';
import { insertSyntheticHistory } from '../../src/domain/ai/synthetic.repository.js';
import { DEFAULT_PHASES } from '../../src/domain/teams/teams.service.js';
import { fakeClock } from '../support/clock.js';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';

const PHASE_PROBABILITY = new Map(DEFAULT_PHASES.map((p) => [p.name, p.probability]));

describe.each(DIALECTS)('ai_win_probability served on every deal answer (%s)', (dialect) => {
  let h: Harness;
  const clock = fakeClock('2026-11-22T12:00:00.000Z');
  beforeAll(async () => {
    h = await createHarness(dialect, { clock });
  });
  afterAll(async () => {
    await h?.close();
  });

  /** A team holding a generated history, trained at the history's end. */
  async function trainedTeam(g: SyntheticHistory): Promise<{ t: Caller; ids: Map<string, string> }> {
    clock.set(new Date(g.now));
    const t = await h.team();
    const ids = await insertSyntheticHistory(h.testDb.db.kysely, t.teamId, g);
    await h.services.ai.train(t.teamId);
    return { t, ids };
  }

  async function storedDeals(teamId: string) {
    return h.testDb.db.kysely.selectFrom('deals').select(['id', 'status', 'phase', 'ai_win_probability', 'ai_summary']).where('team_id', '=', teamId).execute();
  }

  it('where the outcome depends on the features: the open deals answer the model, ranking how they end 0.1+ AUC above the phase and calibrated per decile', async () => {
    const g = generateHistories({ seed: 5, deals: 3000, signal: 1 });
    const { t, ids } = await trainedTeam(g);
    expect((await h.services.ai.show(t.teamId))!.used).toBe('model');
    const generated = new Map([...ids].map(([gid, id]) => [id, gid]));
    const rows = await storedDeals(t.teamId);
    const open = rows.filter((r) => r.status === 'ativo');
    expect(open.length).toBeGreaterThan(150);
    for (const r of rows.filter((r) => r.status !== 'ativo')) expect(r.ai_win_probability).toBeNull();
    for (const r of open) {
      expect(Number.isInteger(r.ai_win_probability)).toBe(true);
      expect(r.ai_win_probability).toBeGreaterThanOrEqual(0);
      expect(r.ai_win_probability).toBeLessThanOrEqual(100);
    }
    const served = open.map((r) => r.ai_win_probability! / 100);
    const baseline = open.map((r) => PHASE_PROBABILITY.get(r.phase)! / 100);
    const won = open.map((r) => (g.outcome.get(generated.get(r.id)!) ? 1 : 0));
    expect(aucWithInterval(served, won).auc).toBeGreaterThanOrEqual(aucWithInterval(baseline, won).auc + 0.1);
    expect(brier(served, won)).toBeLessThan(brier(baseline, won));
    const bins = calibrationByDecile(served, won).filter((b) => b.count >= 30);
    expect(bins.length).toBeGreaterThan(0);
    for (const b of bins) expect(Math.abs(b.predicted - b.observed)).toBeLessThanOrEqual(0.1);

    // Every answer carries what the row keeps: by id, the default list.
    const one = open[0]!;
    const byId = await t.get(`/deals/${one.id}`);
    expect(byId.body.data.ai_win_probability).toBe(one.ai_win_probability);
    expect(byId.body.data.ai_summary).toBe(one.ai_summary);
    const list = await t.get('/deals');
    for (const d of list.body.data) expect(d.ai_win_probability).toBe(rows.find((r) => r.id === d.id)!.ai_win_probability);
  }, 120_000);

  it('where nothing predicts the outcome: the open deals answer their phase’s probability', async () => {
    const { t } = await trainedTeam(generateHistories({ seed: 7, deals: 1500, signal: 0 }));
    expect((await h.services.ai.show(t.teamId))!.used).toBe('phase');
    const open = (await storedDeals(t.teamId)).filter((r) => r.status === 'ativo');
    expect(open.length).toBeGreaterThan(50);
    for (const r of open) expect(r.ai_win_probability).toBe(PHASE_PROBABILITY.get(r.phase));
  }, 120_000);

  it('a PUT recomputes both fields in its own answer and event, writing them is ignored, and their change emits no event', async () => {
    const { t } = await trainedTeam(generateHistories({ seed: 8, deals: 600, signal: 1 }));
    const open = (await storedDeals(t.teamId)).filter((r) => r.status === 'ativo');
    const deal = open[0]!;
    const events = async () => (await h.testDb.db.kysely.selectFrom('events').select('id').where('team_id', '=', t.teamId).execute()).length;
    const before = await events();
    // A refresh that changes nothing but the AI fields (a new day) emits nothing.
    clock.advance(3 * 86_400_000);
    await h.services.aiServing.refreshTeam(t.teamId);
    expect(await events()).toBe(before);

    const put = await t.put(`/deals/${deal.id}`, { priority: 'alta', ai_win_probability: 3, ai_summary: 'escrito pela API' });
    expect(put.status).toBe(200);
    expect(put.body.data).not.toHaveProperty('ai_win_probability');
    const after = (await t.get(`/deals/${deal.id}`)).body.data;
    expect(after.ai_summary).not.toBe('escrito pela API');
    expect(after.ai_summary).toMatch(/^Cliente \d+/);
    const [event] = await h.testDb.db.kysely
      .selectFrom('events')
      .select(['object', 'previous_attributes'])
      .where('team_id', '=', t.teamId)
      .where('type', '=', 'deal.updated')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .execute();
    const object = JSON.parse(event!.object);
    expect(object.ai_win_probability).toBe(after.ai_win_probability);
    expect(object.ai_summary).toBe(after.ai_summary);
    expect(Object.keys(JSON.parse(event!.previous_attributes!))).toEqual(['priority']);

    // Closing it: no probability; archiving it: neither field.
    const won = await t.put(`/deals/${deal.id}`, { status: 'ganho' });
    expect(won.status).toBe(200);
    const closed = (await t.get(`/deals/${deal.id}`)).body.data;
    expect(closed.ai_win_probability).toBeNull();
    expect(closed.ai_summary).toContain('Ganho.');
    await t.delete(`/deals/${deal.id}`);
    const archived = (await t.get(`/deals/${deal.id}`)).body.data;
    expect(archived).toMatchObject({ status: 'arquivado', ai_win_probability: null, ai_summary: null });
  }, 120_000);

  it('under 40 closed deals: no probability, yet a summary that follows activities and the client', async () => {
    clock.set('2026-11-22T12:00:00.000Z');
    const t = await h.team();
    const client = (await t.post('/clients', { type: 'PF', name: 'Ana Lima' })).body.data;
    const deal = (await t.post('/deals', { title: 'SUV', value: 98500, phase: 'negociacao', client_id: client.id })).body.data;
    expect(deal.ai_win_probability).toBeNull();
    expect(deal.ai_summary).toBe('Ana Lima, R$ 98.500. Em Negociação desde hoje. Nenhum contato registrado; nada agendado.');
    clock.advance(2 * 86_400_000);
    // Activities are a preview area of the API: written through the service the routes call.
    const call = await h.services.activities.create(t.teamId, { type: 'call', title: 'Ligar', due_at: '2026-11-24T15:00:00.000Z', deal_id: deal.id });
    await h.services.activities.complete(t.teamId, call.id);
    await h.services.activities.create(t.teamId, { type: 'meeting', title: 'Test drive', due_at: '2026-11-27T13:00:00.000Z', deal_id: deal.id });
    await t.put(`/clients/${client.id}`, { name: 'Ana Lima Souza' });
    const read = (await t.get(`/deals/${deal.id}`)).body.data;
    expect(read.ai_win_probability).toBeNull();
    expect(read.ai_summary).toBe('Ana Lima Souza, R$ 98.500. Em Negociação há 2 dias. Último contato hoje (ligação); próximo: reunião em 27/11.');
  });

  it("names the team's own car, never another team's", async () => {
    const t = await h.team();
    const other = await h.team();
    const own = (await t.post('/vehicles', { title: 'Onix LT 2021', brand: 'Chevrolet', model: 'Onix', price: 82900 })).body.data;
    const foreign = (await other.post('/vehicles', { title: 'Carro de outra loja', brand: 'Fiat', model: 'Argo' })).body.data;
    const mine = (await t.post('/deals', { title: 'Onix', value: 80000, case_id: own.id })).body.data;
    expect(mine.ai_summary).toBe('Cliente não informado, Onix LT 2021 por R$ 80.000. Em Lead desde hoje. Nenhum contato registrado; nada agendado.');
    const theirs = (await t.post('/deals', { title: 'Argo', value: 60000, case_id: foreign.id })).body.data;
    expect(theirs.ai_summary).toBe('Cliente não informado, R$ 60.000. Em Lead desde hoje. Nenhum contato registrado; nada agendado.');
    await h.services.aiServing.refreshTeam(t.teamId);
    expect((await t.get(`/deals/${theirs.id}`)).body.data.ai_summary).not.toContain('outra loja');
  });

  it('retrains after 20 newly closed deals (the scheduler’s look)', async () => {
    const { t } = await trainedTeam(generateHistories({ seed: 9, deals: 400, signal: 1 }));
    const first = (await h.services.ai.show(t.teamId))!;
    expect(await h.services.ai.trainDue()).not.toContain(t.teamId);
    const open = (await storedDeals(t.teamId)).filter((r) => r.status === 'ativo').slice(0, 20);
    expect(open).toHaveLength(20);
    for (const d of open.slice(0, 19)) await t.put(`/deals/${d.id}`, { status: 'perdido' });
    expect(await h.services.ai.trainDue()).not.toContain(t.teamId);
    await t.put(`/deals/${open[19]!.id}`, { status: 'ganho' });
    expect(await h.services.ai.trainDue()).toContain(t.teamId);
    expect((await h.services.ai.show(t.teamId))!.version).toBe(first.version + 1);
  }, 120_000);
});
