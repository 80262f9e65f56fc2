import { describe, expect, it } from 'vitest';
import { Prng } from '../../bench/prng.js';
import { spreadByIdScenario } from '../../bench/scenarios.js';
import type { SeededTeam } from '../../bench/seed.js';
import { PLAN_LIMITS } from '../../src/domain/ratelimit/plans.js';

/**
 * The bench's limiter runs (plan limits on) must never be answered 429: a 429 fails the run. Teams are
 * taken in turn, and the budget is spent before any team reaches its plan's requests per minute, with
 * room for the requests still in flight when the runner stops the load.
 */

const team = (i: number): SeededTeam =>
  ({ id: `team-${i}`, key: `key-${i}`, deals: 20, samples: { dealIds: [`deal-${i}-a`, `deal-${i}-b`] } }) as unknown as SeededTeam;

describe('bench: the spread by-id load under plan limits', () => {
  it('gives every team the same share and is spent at 90% of every team’s per-minute limit', () => {
    const teams = Array.from({ length: 10 }, (_, i) => team(i));
    const sc = spreadByIdScenario(teams, new Prng('budget'), 'memory');
    const perTeam = new Map<string, number>();
    let sent = 0;
    while (!sc.budget!.spent) {
      const key = sc.next().headers!.authorization!;
      perTeam.set(key, (perTeam.get(key) ?? 0) + 1);
      sent++;
    }
    const limit = PLAN_LIMITS.autoshopping.perMinute;
    expect(sent).toBe(0.9 * 10 * limit);
    expect([...perTeam.values()]).toEqual(Array(10).fill(0.9 * limit));
    // What a stopping load may still send (one request in flight per connection, also taken in turn)
    // stays under the limit, even with 200 connections.
    expect(Math.max(...perTeam.values()) + Math.ceil(200 / 10)).toBeLessThan(limit);
  });

  it('a warm-up uses a quarter; the budget starts over with the limiter’s windows; no budget with limits off', () => {
    const sc = spreadByIdScenario([team(1), team(2)], new Prng('budget'), 'redis');
    const budget = sc.budget!;
    while (!budget.warm) sc.next();
    expect(budget.spent).toBe(false);
    while (!budget.spent) sc.next();
    budget.reset();
    expect(budget.warm).toBe(false);
    expect(spreadByIdScenario([team(1)], new Prng('budget'), 'off').budget).toBeUndefined();
  });
});
