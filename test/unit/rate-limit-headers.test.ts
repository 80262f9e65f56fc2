import { describe, expect, it } from 'vitest';
import { PLAN_LIMITS } from '../../src/domain/ratelimit/plans.js';
import { createRateLimiter, rateLimitHeaders, type Decision, type WindowState } from '../../src/domain/ratelimit/rate-limiter.js';

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers) as the API writes them:
 * `RateLimit-Policy` lists every window of the plan as `"<name>";q=<quota>;w=<seconds>`, and
 * `RateLimit` reports `"<name>";r=<remaining>;t=<seconds to reset>` of the window closest to exhaustion.
 */

const STARTER_POLICY = [
  { name: 'minute', quota: 60, windowSeconds: 60 },
  { name: 'day', quota: 1000, windowSeconds: 86_400 },
];

const win = (name: string, quota: number, windowSeconds: number, remaining: number, resetSeconds: number): WindowState => ({
  name,
  quota,
  windowSeconds,
  remaining,
  resetSeconds,
});

function decision(windows: WindowState[], policy = STARTER_POLICY, allowed = true): Decision {
  return { allowed, policy, windows, retryAfterSeconds: allowed ? 0 : 1 };
}

describe('the contract plans', () => {
  it('starter 60/min and 1000/day, professional 300/min and 10000/day, autoshopping 1000/min and no daily cap', () => {
    expect(PLAN_LIMITS).toEqual({
      starter: { perMinute: 60, perDay: 1000 },
      professional: { perMinute: 300, perDay: 10_000 },
      autoshopping: { perMinute: 1000, perDay: null },
    });
  });
});

describe('rateLimitHeaders', () => {
  it('writes the starter policy exactly as the README shows it', () => {
    const headers = rateLimitHeaders(decision([win('minute', 60, 60, 42, 17), win('day', 1000, 86_400, 958, 80_000)]));
    expect(headers).toEqual({
      'ratelimit-policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
      ratelimit: '"minute";r=42;t=17',
    });
  });

  it('header names are lower-case (HTTP/2-safe) and there are exactly two of them', () => {
    const headers = rateLimitHeaders(decision([win('minute', 60, 60, 1, 1), win('day', 1000, 86_400, 2, 2)]));
    expect(Object.keys(headers).sort()).toEqual(['ratelimit', 'ratelimit-policy']);
  });

  it('a policy with one window (autoshopping) lists only "minute"', () => {
    const policy = [{ name: 'minute', quota: 1000, windowSeconds: 60 }];
    expect(rateLimitHeaders(decision([win('minute', 1000, 60, 999, 60)], policy))).toEqual({
      'ratelimit-policy': '"minute";q=1000;w=60',
      ratelimit: '"minute";r=999;t=60',
    });
  });

  it('RateLimit reports the day window when it has fewer requests left than the minute window', () => {
    const headers = rateLimitHeaders(decision([win('minute', 60, 60, 59, 60), win('day', 1000, 86_400, 3, 7200)]));
    expect(headers.ratelimit).toBe('"day";r=3;t=7200');
    expect(headers['ratelimit-policy']).toBe('"minute";q=60;w=60, "day";q=1000;w=86400');
  });

  it('RateLimit reports the minute window when it is the tighter one', () => {
    const headers = rateLimitHeaders(decision([win('minute', 60, 60, 0, 12), win('day', 1000, 86_400, 500, 40_000)]));
    expect(headers.ratelimit).toBe('"minute";r=0;t=12');
  });

  it('the window order in the decision does not change the choice', () => {
    const headers = rateLimitHeaders(decision([win('day', 1000, 86_400, 500, 40_000), win('minute', 60, 60, 4, 12)]));
    expect(headers.ratelimit).toBe('"minute";r=4;t=12');
  });

  it('on equal remaining, the window that resets first is reported', () => {
    expect(rateLimitHeaders(decision([win('minute', 60, 60, 5, 30), win('day', 1000, 86_400, 5, 600)])).ratelimit).toBe('"minute";r=5;t=30');
    expect(rateLimitHeaders(decision([win('minute', 60, 60, 5, 30), win('day', 1000, 86_400, 5, 10)])).ratelimit).toBe('"day";r=5;t=10');
  });

  it('a rejected request counted only the exhausted window: the policy still lists both', () => {
    const headers = rateLimitHeaders(decision([win('minute', 60, 60, 0, 45)], STARTER_POLICY, false));
    expect(headers).toEqual({ 'ratelimit-policy': '"minute";q=60;w=60, "day";q=1000;w=86400', ratelimit: '"minute";r=0;t=45' });
  });

  it('no window counted: no headers at all', () => {
    expect(rateLimitHeaders(decision([]))).toEqual({});
  });

  it('RateLimit values are non-negative integers (structured-field integers, no fractions)', () => {
    const headers = rateLimitHeaders(decision([win('minute', 60, 60, 0, 0), win('day', 1000, 86_400, 0, 1)]));
    expect(headers.ratelimit).toMatch(/^"(minute|day)";r=\d+;t=\d+$/);
  });
});

describe('createRateLimiter decisions (in memory)', () => {
  const limiter = () => createRateLimiter({ planLimits: true, unauthenticatedPerMinute: 3, keyPrefix: `unit-${Math.random()}` });

  it('starter: both windows in the policy; the first request leaves 59 of the minute and 999 of the day', async () => {
    const d = (await limiter().consume('team-a', 'starter'))!;
    expect(d.allowed).toBe(true);
    expect(d.policy).toEqual(STARTER_POLICY);
    expect(d.windows.map((w) => [w.name, w.remaining])).toEqual([
      ['minute', 59],
      ['day', 999],
    ]);
    expect(d.windows[0]!.resetSeconds).toBeGreaterThanOrEqual(59);
    expect(d.windows[0]!.resetSeconds).toBeLessThanOrEqual(60);
    expect(rateLimitHeaders(d)).toEqual({ 'ratelimit-policy': '"minute";q=60;w=60, "day";q=1000;w=86400', ratelimit: '"minute";r=59;t=60' });
  });

  it('professional and autoshopping policies', async () => {
    const l = limiter();
    expect(rateLimitHeaders((await l.consume('team-p', 'professional'))!)['ratelimit-policy']).toBe('"minute";q=300;w=60, "day";q=10000;w=86400');
    expect(rateLimitHeaders((await l.consume('team-x', 'autoshopping'))!)['ratelimit-policy']).toBe('"minute";q=1000;w=60');
  });

  it('plan limits off: no decision (no headers, never a 429)', async () => {
    const l = createRateLimiter({ planLimits: false, unauthenticatedPerMinute: 3 });
    for (let i = 0; i < 70; i++) expect(await l.consume('team-off', 'starter')).toBeNull();
  });

  it('plan limits off still limits failed authentications per IP', async () => {
    const l = createRateLimiter({ planLimits: false, unauthenticatedPerMinute: 2 });
    expect((await l.consumeUnauthenticated('10.0.0.1')).allowed).toBe(true);
    expect((await l.consumeUnauthenticated('10.0.0.1')).allowed).toBe(true);
    const blocked = await l.consumeUnauthenticated('10.0.0.1');
    expect(blocked.allowed).toBe(false);
    expect(blocked.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect((await l.consumeUnauthenticated('10.0.0.2')).allowed).toBe(true);
  });
});
