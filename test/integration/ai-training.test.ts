import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/services.js';
import * as aiRepo from '../../src/domain/ai/ai.repository.js';
import { loadTeamData } from '../../src/domain/ai/team-data.js';
import { generateHistories } from '../../src/domain/ai/synthetic-histories.js';
import { insertSyntheticHistory } from '../../src/domain/ai/synthetic.repository.js';
import { createDb } from '../../src/storage/db.js';
import { ensureBuilt, killAllChildren, processDb, runCliJson, type ProcessDb } from '../support/cli.js';
import { fakeClock } from '../support/clock.js';
import { DIALECTS, openTestDb, type TestDb } from '../support/dialects.js';

beforeAll(() => {
  ensureBuilt();
}, 200_000);

afterAll(() => {
  killAllChildren();
});

describe.each(DIALECTS)('win-probability training on %s', (dialect) => {
  let t: TestDb;
  const clock = fakeClock('2026-11-01T12:00:00.000Z');
  beforeAll(async () => {
    t = await openTestDb(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("rebuilds each deal's life from its events and activities in a few statements, exactly as it was", async () => {
    const s = createServices(t.db, { clock });
    const team = await s.teams.create({ name: 'Histórico', plan: 'starter', alertEmail: null });
    const g = generateHistories({ seed: 21, deals: 120 });
    const ids = await insertSyntheticHistory(t.db.kysely, team.id, g);
    const { histories, ctx } = await loadTeamData(t.db.kysely, team.id);
    expect(histories).toHaveLength(g.histories.length);
    const byId = new Map(histories.map((h) => [h.id, h]));
    const mapped = (id: string | null) => (id === null ? null : ids.get(id)!);
    for (const h of g.histories) {
      const loaded = byId.get(ids.get(h.id)!)!;
      expect(loaded.created_at).toBe(Math.floor(h.created_at));
      expect(loaded.closed_at).toBe(h.closed_at === null ? null : Math.floor(h.closed_at));
      expect(loaded.won).toBe(h.won);
      expect(loaded.states.map((s) => [s.phase, s.status, s.value_cents, s.source, s.client_id, s.case_id, s.responsible_id])).toEqual(
        h.states.map((s) => [s.phase, s.status, s.value_cents, s.source, mapped(s.client_id), mapped(s.case_id), s.responsible_id]),
      );
      expect(loaded.activities).toHaveLength(h.activities.length);
    }
    expect(ctx.phases.get('proposta')?.probability).toBe(50);
  });

  it('ai train stores the model with its metrics; under 40 closed deals there is none; ai show reads it back', async () => {
    const s = createServices(t.db, { clock });
    const empty = await s.teams.create({ name: 'Pequeno', plan: 'starter', alertEmail: null });
    const none = await s.ai.train(empty.id);
    expect(none).toMatchObject({ used: 'none', closed_deals: 0, auc: null, version: 1 });
    expect(none.reason).toContain('40');

    const team = await s.teams.create({ name: 'Loja com histórico', plan: 'starter', alertEmail: null });
    await insertSyntheticHistory(t.db.kysely, team.id, generateHistories({ seed: 22, deals: 400 }));
    const report = await s.ai.train(team.id);
    expect(report).toMatchObject({ team_id: team.id, version: 1, trained_at: '2026-11-01T12:00:00Z', used: 'model' });
    expect(report.closed_deals).toBeGreaterThan(300);
    expect(report.auc!).toBeGreaterThan(report.baseline_auc! + 0.1);
    expect(report.metrics!.method).toBe('cross_validation');
    expect(await s.ai.show(team.id)).toEqual(report);
    await expect(s.ai.show('not-a-team')).rejects.toMatchObject({ statusCode: 404 });
  });

  it('one training at a time per team, across processes (a lease in the database); the scheduler trains what is due', async () => {
    const s = createServices(t.db, { clock });
    const team = await s.teams.create({ name: 'Concorrência', plan: 'starter', alertEmail: null });
    await insertSyntheticHistory(t.db.kysely, team.id, generateHistories({ seed: 23, deals: 120 }));
    const now = clock.now().toISOString();
    const later = new Date(clock.now().getTime() + 60_000).toISOString();
    expect(await aiRepo.claimTraining(t.db.kysely, team.id, 'a', now, later)).toBe(true);
    expect(await aiRepo.claimTraining(t.db.kysely, team.id, 'b', now, later)).toBe(false);
    await expect(s.ai.train(team.id)).rejects.toMatchObject({ statusCode: 503 });
    await aiRepo.releaseTraining(t.db.kysely, team.id, 'a');

    // Never trained: due. Trained: not due until a day passes (or 20 more closes).
    expect(await s.ai.trainDue()).toContain(team.id);
    expect(await s.ai.trainDue()).not.toContain(team.id);
    clock.advance(86_400_000);
    expect(await s.ai.trainDue()).toContain(team.id);
    expect((await s.ai.show(team.id))!.version).toBe(2);
  });
});

describe.each(DIALECTS)('autosales ai train on %s (the built CLI, training on a worker thread)', (dialect) => {
  let pdb: ProcessDb;
  beforeAll(async () => {
    pdb = await processDb(dialect);
  });
  afterAll(async () => {
    await pdb?.cleanup();
  });

  it('prints trained_at, closed_deals, auc, baseline_auc and used; ai show prints the same model', async () => {
    const team = await runCliJson(pdb.url, ['teams', 'create', '--name', 'CLI IA', '--json']);
    // teams create migrated the database; the history goes in directly (the API would take minutes).
    const db = createDb(pdb.url);
    try {
      await insertSyntheticHistory(db.kysely, team.id, generateHistories({ seed: 24, deals: 300 }));
    } finally {
      await db.close();
    }
    const report = await runCliJson(pdb.url, ['ai', 'train', '--team', team.id, '--json'], { timeoutMs: 60_000 });
    expect(Object.keys(report)).toEqual(expect.arrayContaining(['trained_at', 'closed_deals', 'auc', 'baseline_auc', 'used']));
    expect(report.used).toBe('model');
    expect(await runCliJson(pdb.url, ['ai', 'show', '--team', team.id, '--json'])).toEqual(report);
  }, 90_000);
});
