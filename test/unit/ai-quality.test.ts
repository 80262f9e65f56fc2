import { describe, expect, it } from 'vitest';
import { DEFAULT_PHASES } from '../../src/domain/teams/teams.service.js';
import { buildContext, ratesOf } from '../../src/domain/ai/context.js';
import { generateHistories } from '../../src/domain/ai/synthetic-histories.js';
import { trainModel } from '../../src/domain/ai/training.js';

/** Small generated histories (the bench runs the large ones): each fit takes well under a second. */
function train(seed: number, deals: number, signal: number) {
  const g = generateHistories({ seed, deals, signal });
  const ctx = buildContext({ histories: g.histories, phases: DEFAULT_PHASES, clients: g.clients, vehicles: g.vehicles });
  return trainModel(g.histories, ctx, ratesOf(ctx));
}

describe('win-probability model on generated histories (issue 28 "done when")', () => {
  it('where the outcome depends on the features: ranks later deals 0.1+ AUC above the phase, calibrated within 10 points per decile of 30+ deals, and is used', () => {
    const out = train(1, 1500, 1);
    const m = out.metrics!;
    expect(m.method).toBe('holdout');
    expect(m.model.auc).toBeGreaterThanOrEqual(m.baseline.auc + 0.1);
    expect(m.auc_difference_low).toBeGreaterThan(0);
    for (const bin of m.model.calibration.filter((b) => b.count >= 30)) expect(Math.abs(bin.predicted - bin.observed)).toBeLessThanOrEqual(0.1);
    expect(m.model.brier).toBeLessThan(m.baseline.brier);
    expect(out.used).toBe('model');
  });

  it('where nothing predicts the outcome: the interval straddles no gain and the phase is used', () => {
    const out = train(2, 1500, 0);
    expect(out.metrics!.auc_difference_low).toBeLessThanOrEqual(0);
    expect(out.used).toBe('phase');
  });

  it('a small team is judged by cross-validation, and with under 40 closed deals there is no model', () => {
    const small = train(3, 220, 1);
    expect(small.metrics!.method).toBe('cross_validation');
    expect(small.metrics!.evaluated_deals).toBe(small.closedDeals);
    const tiny = train(4, 35, 1);
    expect(tiny.closedDeals).toBeLessThan(40);
    expect(tiny).toMatchObject({ model: null, metrics: null, used: 'none' });
  });
});
