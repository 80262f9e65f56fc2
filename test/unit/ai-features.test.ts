import { describe, expect, it } from 'vitest';
import { DAY_MS, type DealHistory } from '../../src/domain/ai/ai.types.js';
import { buildContext } from '../../src/domain/ai/context.js';
import { featuresAt, trainingMoments } from '../../src/domain/ai/features.js';
import { fitLogistic, fitPlatt, sigmoid } from '../../src/domain/ai/logistic.js';
import { aucDifference, aucWithInterval, brier, calibrationByDecile, midranks } from '../../src/domain/ai/metrics.js';
import { generateHistories, prng } from '../../src/domain/ai/synthetic-histories.js';
import { DEFAULT_PHASES } from '../../src/domain/teams/teams.service.js';

describe('features as of a moment', () => {
  const g = generateHistories({ seed: 11, deals: 300 });
  const ctxOf = (histories: DealHistory[]) => buildContext({ histories, phases: DEFAULT_PHASES, clients: g.clients, vehicles: g.vehicles });

  it("nothing known only after the moment (the close included) reaches a closed deal's training rows", () => {
    const closed = g.histories.filter((h) => h.closed_at !== null && trainingMoments(h).length >= 2);
    const before = ctxOf(g.histories);
    // Everything after a deal's close: its outcome flipped, a reopening into a new phase with another
    // responsible, value and source, activities created, completed and cancelled after it, and 50 later closes.
    const mutate = (h: DealHistory): DealHistory => {
      const end = h.closed_at!;
      const last = h.states[h.states.length - 1]!;
      return {
        ...h,
        won: !h.won,
        states: [
          ...h.states,
          { ...last, at: end + DAY_MS, status: 'ativo', phase: 'fechamento', responsible_id: 'outro', value_cents: 1, source: 'indicacao' },
        ],
        activities: [
          ...h.activities.map((a) => (a.completed_at === null ? { ...a, completed_at: end + 2 * DAY_MS } : a)),
          { type: 'call', created_at: end + DAY_MS, due_at: end + 3 * DAY_MS, completed_at: end + 3 * DAY_MS, cancelled_at: null },
        ],
      };
    };
    const extra = Array.from({ length: 50 }, (_, i): DealHistory => ({
      ...closed[i]!,
      id: `later-${i}`,
      created_at: g.now + DAY_MS,
      closed_at: g.now + 2 * DAY_MS,
      won: true,
      states: closed[i]!.states.map((s) => ({ ...s, at: g.now + DAY_MS })),
    }));
    let compared = 0;
    for (const h of closed.slice(0, 60)) {
      const changed = mutate(h);
      const ctxAfter = ctxOf([...g.histories.map((x) => (x === h ? changed : x)), ...extra]);
      for (const t of trainingMoments(h)) {
        expect(featuresAt(changed, t, ctxAfter)).toEqual(featuresAt(h, t, before));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(150);
  });

  it('an activity counts as done only once completed, and as overdue only while due, open and not cancelled', () => {
    const h = g.histories.find((x) => x.closed_at !== null)!;
    const t0 = h.created_at + 10 * DAY_MS;
    const one: DealHistory = {
      ...h,
      activities: [{ type: 'call', created_at: h.created_at, due_at: t0 - DAY_MS, completed_at: t0 + DAY_MS, cancelled_at: null }],
    };
    const ctx = ctxOf(g.histories);
    expect(featuresAt(one, t0, ctx)).toMatchObject({ log_activities_done: 0, never_contacted: 1, log_overdue: Math.log1p(1) });
    const later = featuresAt(one, t0 + 2 * DAY_MS, ctx);
    expect(later).toMatchObject({ log_activities_done: Math.log1p(1), log_overdue: 0, log_days_without_contact: Math.log1p(1) });
  });
});

describe('metrics', () => {
  it('midranks average ties; AUC counts ties as half', () => {
    expect(Array.from(midranks([3, 1, 3, 2]))).toEqual([3.5, 1, 3.5, 2]);
    expect(aucWithInterval([0.9, 0.8, 0.3, 0.1], [1, 1, 0, 0]).auc).toBe(1);
    expect(aucWithInterval([0.5, 0.5], [1, 0]).auc).toBe(0.5);
    expect(aucWithInterval([0.2, 0.9, 0.4, 0.6], [1, 0, 0, 1]).auc).toBe(0.25);
  });

  it("DeLong's paired interval: a clearly better score's low end is above zero, a copy's difference is exactly zero", () => {
    const rnd = prng(5);
    const y: number[] = [];
    const good: number[] = [];
    const noisy: number[] = [];
    for (let i = 0; i < 400; i++) {
      const label = rnd() < 0.4 ? 1 : 0;
      y.push(label);
      good.push(label + rnd() * 1.2);
      noisy.push(label * 0.3 + rnd());
    }
    const d = aucDifference(good, noisy, y);
    expect(d.difference).toBeGreaterThan(0.1);
    expect(d.low).toBeGreaterThan(0);
    expect(aucDifference(good, good, y)).toEqual({ difference: 0, low: 0, high: 0 });
    const single = aucWithInterval(noisy, y);
    expect(single.low).toBeLessThan(single.auc);
    expect(single.high).toBeGreaterThan(single.auc);
  });

  it('Brier score and calibration per decile', () => {
    expect(brier([1, 0, 0.5], [1, 0, 1])).toBeCloseTo(0.25 / 3);
    expect(calibrationByDecile([0.05, 0.15, 0.12, 1], [0, 1, 0, 1])).toEqual([
      { decile: 0, count: 1, predicted: 0.05, observed: 0 },
      { decile: 1, count: 2, predicted: 0.135, observed: 0.5 },
      { decile: 9, count: 1, predicted: 1, observed: 1 },
    ]);
  });
});

describe('logistic regression and Platt scaling', () => {
  it('recovers known coefficients from generated data', () => {
    const rnd = prng(9);
    const n = 20_000;
    const x = new Float64Array(n * 2);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      x[2 * i] = rnd() * 4 - 2;
      x[2 * i + 1] = rnd() * 4 - 2;
      y[i] = rnd() < sigmoid(-0.5 + 1.5 * x[2 * i]! - 0.8 * x[2 * i + 1]!) ? 1 : 0;
    }
    const fit = fitLogistic({ x, n, p: 2 }, y, { lambda: 0 });
    expect(fit.intercept).toBeCloseTo(-0.5, 1);
    expect(fit.weights[0]).toBeCloseTo(1.5, 1);
    expect(fit.weights[1]).toBeCloseTo(-0.8, 1);
  });

  it('Platt scaling maps an over-confident score back; one class leaves the identity', () => {
    const rnd = prng(10);
    const scores: number[] = [];
    const y: number[] = [];
    for (let i = 0; i < 5000; i++) {
      const z = rnd() * 6 - 3;
      scores.push(3 * z);
      y.push(rnd() < sigmoid(z) ? 1 : 0);
    }
    const platt = fitPlatt(scores, y);
    expect(platt.a).toBeCloseTo(1 / 3, 1);
    expect(fitPlatt([1, 2], [1, 1])).toEqual({ a: 1, b: 0 });
  });
});
