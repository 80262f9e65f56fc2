import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createRateLimiter, type RateLimiterOptions } from '../../src/domain/ratelimit/rate-limiter.js';
import { createRedis } from '../../src/domain/ratelimit/redis-client.js';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, injectJson as send, type Caller, type Harness, type Response as Res } from '../support/harness.js';
import { HAS_REDIS_SERVER, killAllRedis, startThrowawayRedis, type ThrowawayRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait.js';

/**
 * Issue 4: limits per team by plan (minute and day windows), the IETF RateLimit headers, Retry-After
 * on every 429, the per-IP budget for failed authentications, and counters shared through Redis with
 * an in-memory insurance when Redis goes away. Every test builds its own app with its own limiter
 * (and a unique key prefix), so no counter leaks from one test to another.
 */

/**
 * The in-memory limiter (rate-limiter-flexible) reads Date.now(): a window passes when the faked date
 * moves on, with no sleeping. Only Date is faked; timers and I/O run as usual.
 */
function fakeDate(): { advance(ms: number): void } {
  vi.useFakeTimers({ toFake: ['Date'] });
  return { advance: (ms) => vi.setSystemTime(Date.now() + ms) };
}
const UNKNOWN_UUID = '0190f5c2-7e1a-7b3c-8d4e-5f6a7b8c9d0e';
const STARTER_POLICY = '"minute";q=60;w=60, "day";q=1000;w=86400';
const POLICIES: Record<string, string> = {
  starter: STARTER_POLICY,
  professional: '"minute";q=300;w=60, "day";q=10000;w=86400',
  autoshopping: '"minute";q=1000;w=60',
};
/** `"<policy>";r=<remaining>;t=<seconds>` */
const RATELIMIT = /^"([a-z]+)";r=(\d+);t=(\d+)$/;
const PT_RATE_LIMIT_MESSAGE = /^Limite de requisições excedido/;

function call(app: FastifyInstance, key: string | null, method: InjectOptions['method'], path: string, payload?: object, extra: Partial<InjectOptions> = {}) {
  return send(app, {
    method,
    url: `/api/v1${path}`,
    headers: key === null ? {} : { authorization: `Bearer ${key}` },
    ...(payload === undefined ? {} : { payload }),
    ...extra,
  });
}

/** The parsed RateLimit field: policy name, remaining, seconds to reset. */
function rateLimitOf(res: Res): { name: string; r: number; t: number } {
  const raw = res.headers.ratelimit;
  expect(typeof raw, `RateLimit header on a ${res.status}: ${JSON.stringify(res.headers)}`).toBe('string');
  const m = RATELIMIT.exec(raw as string);
  expect(m, `RateLimit '${String(raw)}' is not "<name>";r=<n>;t=<n>`).not.toBeNull();
  return { name: m![1]!, r: Number(m![2]), t: Number(m![3]) };
}

function expect429(res: Res, maxRetryAfter: number) {
  expect(res.status, res.text).toBe(429);
  expect(res.body?.success).toBe(false);
  expect(res.body?.error?.code).toBe('RATE_LIMIT_EXCEEDED');
  expect(res.body?.error?.message).toMatch(PT_RATE_LIMIT_MESSAGE);
  const retryAfter = res.headers['retry-after'];
  expect(typeof retryAfter, 'Retry-After on a 429').toBe('string');
  expect(retryAfter as string).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(maxRetryAfter);
}

let prefixSeq = 0;
const uniquePrefix = () => `autosales-test:${process.pid}:${randomBytes(4).toString('hex')}:${++prefixSeq}`;

describe.each(DIALECTS)('rate limits (%s)', (dialect) => {
  /** The long loops (300 and 1000 requests, the daily window) run on the first dialect only: the limiter does not depend on it. */
  const heavy = dialect === DIALECTS[0];
  let h: Harness;
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    h = await createHarness(dialect);
  });
  afterEach(async () => {
    vi.useRealTimers();
    for (const app of apps.splice(0)) await app.close();
  });
  afterAll(() => h.close());

  /** An app on the harness database with a limiter of its own (fresh counters). */
  async function limitedApp(options: Partial<RateLimiterOptions> = {}, trustProxy: boolean | string = false): Promise<FastifyInstance> {
    const rateLimiter = createRateLimiter({ planLimits: true, unauthenticatedPerMinute: 1000, keyPrefix: uniquePrefix(), ...options });
    const app = await buildApp({ db: h.testDb.db, rateLimiter, trustProxy });
    apps.push(app);
    return app;
  }

  async function dealCount(teamId: string): Promise<number> {
    const row = await h.testDb.db.kysely
      .selectFrom('deals')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('team_id', '=', teamId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  describe('minute limit of each plan, exactly', () => {
    it.each([
      ['starter', 60],
      ...(heavy
        ? [
            ['professional', 300],
            ['autoshopping', 1000],
          ]
        : []),
    ] as Array<[string, number]>)(
      '%s: the %i-th request passes, the next is 429 with Retry-After, nothing executed, another team unaffected',
      async (plan, quota) => {
        const app = await limitedApp();
        const t = await h.team({ plan });
        const other = await h.team({ plan });

        // Request 1 creates a deal (so "nothing executed" below is measured against a known count).
        const first = await call(app, t.key, 'POST', '/deals', { title: 'Venda dentro do limite' });
        expect(first.status, first.text).toBe(201);
        expect(first.headers['ratelimit-policy']).toBe(POLICIES[plan]);
        expect(rateLimitOf(first)).toMatchObject({ name: 'minute', r: quota - 1 });

        for (let i = 2; i <= quota; i++) {
          const res = await call(app, t.key, 'GET', '/deals?limit=1');
          if (res.status !== 200) expect.fail(`request ${i} of ${quota} (${plan}) answered ${res.status}: ${res.text}`);
          const rl = rateLimitOf(res);
          if (rl.name !== 'minute' || rl.r !== quota - i)
            expect.fail(`request ${i}: RateLimit ${String(res.headers.ratelimit)}, expected "minute";r=${quota - i}`);
        }

        const rejected = await call(app, t.key, 'POST', '/deals', { title: 'Venda acima do limite' });
        expect429(rejected, 60);
        expect(rejected.headers['ratelimit-policy']).toBe(POLICIES[plan]);
        expect(rateLimitOf(rejected)).toMatchObject({ name: 'minute', r: 0 });
        expect(await dealCount(t.teamId), 'a rejected POST creates nothing').toBe(1);

        // Still over the limit, reads too.
        expect429(await call(app, t.key, 'GET', '/deals'), 60);

        // Another team of the same plan has its own budget.
        const fresh = await call(app, other.key, 'GET', '/deals');
        expect(fresh.status, fresh.text).toBe(200);
        expect(rateLimitOf(fresh)).toMatchObject({ name: 'minute', r: quota - 1 });
      },
    );

    it('all keys of a team share its budget (starter: 20 + 20 + 20 with three keys, then every key is refused)', async () => {
      const app = await limitedApp();
      const t = await h.team({ plan: 'starter' });
      const k2 = await h.key(t.teamId);
      const k3 = await h.key(t.teamId, ['deals:read']);
      const keys: Caller[] = [t, k2, k3];
      for (let i = 0; i < 60; i++) {
        const res = await call(app, keys[i % 3]!.key, 'GET', '/deals?limit=1');
        if (res.status !== 200) expect.fail(`request ${i + 1} answered ${res.status}: ${res.text}`);
        expect(rateLimitOf(res).r).toBe(59 - i);
      }
      for (const k of keys) expect429(await call(app, k.key, 'GET', '/deals'), 60);
      const other = await h.team({ plan: 'starter' });
      expect((await call(app, other.key, 'GET', '/deals')).status).toBe(200);
    });

    it('the minute window resets: after it passes the team is served again', async () => {
      const app = await limitedApp();
      const t = await h.team({ plan: 'starter' });
      const date = fakeDate();
      for (let i = 0; i < 60; i++) expect((await call(app, t.key, 'GET', '/deals?limit=1')).status).toBe(200);
      const rejected = await call(app, t.key, 'GET', '/deals');
      expect429(rejected, 60);
      date.advance(Number(rejected.headers['retry-after']) * 1000 + 100);
      const again = await call(app, t.key, 'GET', '/deals');
      expect(again.status, again.text).toBe(200);
    });
  });

  describe.runIf(heavy)('daily window', () => {
    it('starter: 1000 requests a day even across many minute windows; then the day blocks after the minute window has reset', async () => {
      // The real windows, in faked time: 1000 requests need 17 minutes.
      const minuteSeconds = 60;
      const app = await limitedApp();
      const t = await h.team({ plan: 'starter' });
      const date = fakeDate();
      let passed = 0;
      let minuteRejections = 0;
      for (let windows = 0; passed < 1000; windows++) {
        if (windows > 30) expect.fail(`only ${passed} requests passed in ${windows} minute windows`);
        // One minute window's worth plus one, never more than the day has left.
        const batch = await Promise.all(Array.from({ length: Math.min(61, 1000 - passed) }, () => call(app, t.key, 'GET', '/deals?limit=1')));
        for (const res of batch) {
          if (res.status === 200) {
            passed++;
            continue;
          }
          expect429(res, 86_400);
          // Before the 1000th, only the minute window may refuse (a refused request spends no daily budget).
          const rl = rateLimitOf(res);
          if (rl.name !== 'minute') expect.fail(`after ${passed} requests the ${rl.name} window refused: ${String(res.headers.ratelimit)}`);
          minuteRejections++;
        }
        date.advance(minuteSeconds * 1000 + 20);
      }
      expect(passed).toBe(1000);
      expect(minuteRejections, 'the minute window refused in between').toBeGreaterThan(0);

      const dayRejected = await call(app, t.key, 'GET', '/deals');
      expect429(dayRejected, 86_400);
      expect(Number(dayRejected.headers['retry-after'])).toBeGreaterThan(80_000);
      expect(rateLimitOf(dayRejected)).toMatchObject({ name: 'day', r: 0 });

      // The minute window resets; the day window still refuses.
      date.advance(minuteSeconds * 1000 + 100);
      const still = await call(app, t.key, 'POST', '/deals', { title: 'Depois do limite diário' });
      expect429(still, 86_400);
      expect(rateLimitOf(still)).toMatchObject({ name: 'day', r: 0 });
      expect(await dealCount(t.teamId)).toBe(0);

      // The daily budget is the team's: another starter team is served.
      const other = await h.team({ plan: 'starter' });
      expect((await call(app, other.key, 'GET', '/deals')).status).toBe(200);
    }, 60_000);

    it('autoshopping has no daily window: the policy lists only "minute" and RateLimit always names it', async () => {
      const app = await limitedApp({ daySeconds: 1 });
      const t = await h.team({ plan: 'autoshopping' });
      for (let i = 0; i < 3; i++) {
        const res = await call(app, t.key, 'GET', '/deals');
        expect(res.headers['ratelimit-policy']).toBe('"minute";q=1000;w=60');
        expect(rateLimitOf(res)).toMatchObject({ name: 'minute', r: 999 - i });
      }
    });
  });

  describe('headers', () => {
    it('RateLimit-Policy and RateLimit on 2xx, 400, 403, 404 and 501 answers and on idempotent replays, remaining falling by one per request', async () => {
      const app = await limitedApp();
      const t = await h.team({ plan: 'starter' });
      const readOnly = await h.key(t.teamId, ['deals:read']);
      const created = await call(app, t.key, 'POST', '/deals', { title: 'Venda Civic' });
      const id = created.body?.data?.id as string;
      const answers: Array<[string, Res, number]> = [
        ['POST /deals', created, 201],
        ['GET /deals', await call(app, t.key, 'GET', '/deals'), 200],
        ['GET /deals/:id', await call(app, t.key, 'GET', `/deals/${id}`), 200],
        ['PUT /deals/:id', await call(app, t.key, 'PUT', `/deals/${id}`, { title: 'Venda Civic EXL' }), 200],
        ['GET unknown deal', await call(app, t.key, 'GET', `/deals/${UNKNOWN_UUID}`), 404],
        ['POST invalid body', await call(app, t.key, 'POST', '/deals', {}), 400],
        ['GET invalid query', await call(app, t.key, 'GET', '/deals?page=0'), 400],
        ['POST without scope', await call(app, readOnly.key, 'POST', '/deals', { title: 'x' }), 403],
        ['GET /clients', await call(app, t.key, 'GET', '/clients'), 200],
        ['GET /webhooks (announced, unavailable)', await call(app, t.key, 'GET', '/webhooks'), 501],
        [
          'POST /clients with Idempotency-Key',
          await call(app, t.key, 'POST', '/clients', { type: 'PF', name: 'Ana' }, { headers: { authorization: `Bearer ${t.key}`, 'idempotency-key': 'rl-1' } }),
          201,
        ],
        [
          'the same POST replayed',
          await call(app, t.key, 'POST', '/clients', { type: 'PF', name: 'Ana' }, { headers: { authorization: `Bearer ${t.key}`, 'idempotency-key': 'rl-1' } }),
          201,
        ],
        ['DELETE /deals/:id', await call(app, t.key, 'DELETE', `/deals/${id}`), 200],
      ];
      answers.forEach(([what, res, status], i) => {
        expect(res.status, `${what}: ${res.text}`).toBe(status);
        expect(res.headers['ratelimit-policy'], what).toBe(STARTER_POLICY);
        const rl = rateLimitOf(res);
        expect(rl.name, what).toBe('minute');
        expect(rl.r, what).toBe(59 - i);
        expect(rl.t, what).toBeGreaterThanOrEqual(1);
        expect(rl.t, what).toBeLessThanOrEqual(60);
        expect(res.headers['retry-after'], `${what}: Retry-After only on 429`).toBeUndefined();
      });
    });

    it('a 429 carries RateLimit-Policy, RateLimit with r=0 whose t matches Retry-After', async () => {
      const app = await limitedApp();
      const t = await h.team({ plan: 'starter' });
      for (let i = 0; i < 60; i++) await call(app, t.key, 'GET', '/deals?limit=1');
      const res = await call(app, t.key, 'GET', '/deals');
      expect429(res, 60);
      expect(res.headers['ratelimit-policy']).toBe(STARTER_POLICY);
      const rl = rateLimitOf(res);
      expect(rl).toMatchObject({ name: 'minute', r: 0 });
      expect(Math.abs(rl.t - Number(res.headers['retry-after']))).toBeLessThanOrEqual(1);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    });

    it('RATE_LIMITS=off (planLimits false): no RateLimit headers and no plan limit', async () => {
      const app = await limitedApp({ planLimits: false });
      const t = await h.team({ plan: 'starter' });
      for (let i = 0; i < 70; i++) {
        const res = await call(app, t.key, 'GET', '/deals?limit=1');
        if (res.status !== 200) expect.fail(`request ${i + 1} answered ${res.status}: ${res.text}`);
        expect(res.headers['ratelimit']).toBeUndefined();
        expect(res.headers['ratelimit-policy']).toBeUndefined();
      }
    });

    it('no limiter at all (the harness app): no RateLimit headers', async () => {
      const t = await h.team({ plan: 'starter' });
      const res = await t.get('/deals');
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit']).toBeUndefined();
    });
  });

  describe('unauthenticated traffic, per client IP', () => {
    it('the budget-th failed authentication is 401, the next is 429 with Retry-After; another IP is unaffected', async () => {
      const app = await limitedApp({ unauthenticatedPerMinute: 5 });
      const ip = '198.51.100.10';
      const bad = [null, 'nao-e-uma-chave', 'ask_live_0000000000000000000000000000000000', null, 'outra-chave-invalida'];
      for (const [i, key] of bad.entries()) {
        const res = await call(app, key, 'GET', '/deals', undefined, { remoteAddress: ip });
        expect(res.status, `failed authentication ${i + 1}: ${res.text}`).toBe(401);
        expect(res.body?.error?.code).toBe('UNAUTHORIZED');
      }
      const blocked = await call(app, 'mais-uma', 'GET', '/deals', undefined, { remoteAddress: ip });
      expect429(blocked, 60);

      // A second IP still gets its 401.
      const elsewhere = await call(app, 'mais-uma', 'GET', '/deals', undefined, { remoteAddress: '203.0.113.7' });
      expect(elsewhere.status).toBe(401);
      const t = await h.team({ plan: 'starter' });
      expect((await call(app, t.key, 'GET', '/deals', undefined, { remoteAddress: '203.0.113.7' })).status).toBe(200);

      // While over budget, that IP's requests without a valid key are refused; /health is not.
      expect429(await call(app, null, 'POST', '/deals', { title: 'x' }, { remoteAddress: ip }), 60);
      expect((await send(app, { method: 'GET', url: '/health', remoteAddress: ip })).status).toBe(200);
    });

    it('an address over its budget: a valid key is served as usual; missing, malformed, unknown and revoked keys get 429', async () => {
      const app = await limitedApp({ unauthenticatedPerMinute: 3 });
      const ip = '198.51.100.11';
      const t = await h.team({ plan: 'professional' });
      const { keys } = h.services;
      const revoked = await keys.create({ teamId: t.teamId, name: 'revogada' });
      await keys.revoke(revoked.id);
      // One tenant's revoked key, retried by the integrator, spends the shared address's budget...
      for (let i = 0; i < 3; i++) expect((await call(app, revoked.key, 'GET', '/deals', undefined, { remoteAddress: ip })).status).toBe(401);
      expect429(await call(app, revoked.key, 'GET', '/deals', undefined, { remoteAddress: ip }), 60);
      // ...but the other tenants' valid keys from that address keep working, reads and writes alike.
      const other = await h.team({ plan: 'starter' });
      const list = await call(app, t.key, 'GET', '/deals', undefined, { remoteAddress: ip });
      expect(list.status, list.text).toBe(200);
      expect(list.headers['ratelimit-policy']).toBe(POLICIES.professional);
      const created = await call(app, other.key, 'POST', '/deals', { title: 'Venda de outra loja' }, { remoteAddress: ip });
      expect(created.status, created.text).toBe(201);
      // Every kind of bad key from that address is still 429.
      for (const key of [null, 'nao-e-uma-chave', `ask_${'B'.repeat(43)}`, revoked.key]) {
        expect429(await call(app, key, 'GET', '/deals', undefined, { remoteAddress: ip }), 60);
      }
      // Scopes still apply to the valid key (403, not 429).
      const readOnly = await h.key(t.teamId, ['deals:read']);
      expect((await call(app, readOnly.key, 'POST', '/deals', { title: 'x' }, { remoteAddress: ip })).status).toBe(403);
    });

    it('bad keys cost no database lookup: a missing or malformed key never, a refused key only the first time', async () => {
      let queries = 0;
      const counting = h.testDb.db.kysely.withPlugin({
        transformQuery: (args) => {
          queries++;
          return args.node;
        },
        transformResult: async (args) => args.result,
      });
      const rateLimiter = createRateLimiter({ planLimits: true, unauthenticatedPerMinute: 2, keyPrefix: uniquePrefix() });
      const app = await buildApp({ db: { ...h.testDb.db, kysely: counting }, rateLimiter });
      apps.push(app);
      const ip = '198.51.100.12';
      const unknown = `ask_${'C'.repeat(43)}`;
      expect((await call(app, unknown, 'GET', '/deals', undefined, { remoteAddress: ip })).status).toBe(401);
      expect(queries, 'the first sight of a well-formed key is looked up').toBe(1);
      expect((await call(app, unknown, 'GET', '/deals', undefined, { remoteAddress: ip })).status).toBe(401);
      for (const key of [null, 'garbage', `ask_${'C'.repeat(42)}`, `${unknown}x`, unknown, unknown]) {
        expect429(await call(app, key, 'GET', '/deals', undefined, { remoteAddress: ip }), 60);
      }
      expect(queries, 'no lookup for missing, malformed or already refused keys').toBe(1);
      const t = await h.team({ plan: 'starter' });
      expect((await call(app, t.key, 'GET', '/deals?limit=1', undefined, { remoteAddress: ip })).status).toBe(200);
      expect(queries).toBeGreaterThan(1);
    });

    it('successful authentications do not spend the budget', async () => {
      const app = await limitedApp({ unauthenticatedPerMinute: 3 });
      const t = await h.team({ plan: 'professional' });
      const ip = '198.51.100.20';
      for (let i = 0; i < 10; i++) expect((await call(app, t.key, 'GET', '/deals', undefined, { remoteAddress: ip })).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await call(app, 'errada', 'GET', '/deals', undefined, { remoteAddress: ip })).status).toBe(401);
      expect429(await call(app, 'errada', 'GET', '/deals', undefined, { remoteAddress: ip }), 60);
    });

    it('without trustProxy, X-Forwarded-For cannot be rotated to escape the budget', async () => {
      const app = await limitedApp({ unauthenticatedPerMinute: 2 });
      const ip = '198.51.100.30';
      const at = (n: number) => ({ remoteAddress: ip, headers: { authorization: 'Bearer errada', 'x-forwarded-for': `192.0.2.${n}` } });
      expect((await send(app, { method: 'GET', url: '/api/v1/deals', ...at(1) })).status).toBe(401);
      expect((await send(app, { method: 'GET', url: '/api/v1/deals', ...at(2) })).status).toBe(401);
      const res = await send(app, { method: 'GET', url: '/api/v1/deals', ...at(3) });
      expect429(res, 60);
    });

    it('with trustProxy, each X-Forwarded-For client has its own budget', async () => {
      const app = await limitedApp({ unauthenticatedPerMinute: 2 }, true);
      const from = (client: string) => ({ remoteAddress: '10.0.0.1', headers: { authorization: 'Bearer errada', 'x-forwarded-for': client } });
      expect((await send(app, { method: 'GET', url: '/api/v1/deals', ...from('192.0.2.1') })).status).toBe(401);
      expect((await send(app, { method: 'GET', url: '/api/v1/deals', ...from('192.0.2.1') })).status).toBe(401);
      expect429(await send(app, { method: 'GET', url: '/api/v1/deals', ...from('192.0.2.1') }), 60);
      expect((await send(app, { method: 'GET', url: '/api/v1/deals', ...from('192.0.2.2') })).status).toBe(401);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Redis: one limit for every process, and an outage that does not take the API down

interface CapturedLog {
  level: 'info' | 'warn';
  msg: string;
}

function captureLogger(into: CapturedLog[]) {
  return {
    info: (_obj: object, msg: string) => void into.push({ level: 'info', msg }),
    warn: (_obj: object, msg: string) => void into.push({ level: 'warn', msg }),
  };
}

/** A pino logger for buildApp whose lines land in `lines` (warn and above). */
function captureAppLogger(lines: string[]) {
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return pino({ level: 'warn' }, stream);
}

async function waitReady(clients: Redis[], ms: number): Promise<void> {
  await waitUntil(() => clients.every((c) => c.status === 'ready'), ms, 'the Redis clients to be ready');
}

describe.skipIf(!HAS_REDIS_SERVER)('rate limits in Redis (throwaway redis-server, sqlite)', () => {
  let h: Harness;
  let server: ThrowawayRedis;
  const clients: Redis[] = [];
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    h = await createHarness('sqlite');
    server = await startThrowawayRedis();
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    for (const c of clients.splice(0)) c.disconnect();
    if (!server.running()) await server.start();
  });
  afterAll(async () => {
    await server?.dispose();
    killAllRedis();
    await h?.close();
  });

  /** Two separate apps on the same database, each with its own Redis connection and limiter, same Redis and prefix. */
  async function twoApps(log: CapturedLog[] = [], appLines: string[] = []) {
    const keyPrefix = uniquePrefix();
    const make = async () => {
      const redis = createRedis(server.url, captureLogger(log));
      clients.push(redis);
      const rateLimiter = createRateLimiter({ redis, planLimits: true, unauthenticatedPerMinute: 1000, keyPrefix });
      const app = await buildApp({ db: h.testDb.db, rateLimiter, logger: captureAppLogger(appLines) });
      apps.push(app);
      return app;
    };
    const a = await make();
    const b = await make();
    await waitReady(clients, 10_000);
    return [a, b] as const;
  }

  it('two apps on one Redis enforce ONE starter limit: 60 in total across both, then both refuse', async () => {
    const [a, b] = await twoApps();
    const t = await h.team({ plan: 'starter' });
    for (let i = 0; i < 60; i++) {
      const res = await call(i % 2 ? b : a, t.key, 'GET', '/deals?limit=1');
      if (res.status !== 200) expect.fail(`request ${i + 1} answered ${res.status}: ${res.text}`);
      expect(rateLimitOf(res)).toMatchObject({ name: 'minute', r: 59 - i });
    }
    expect429(await call(a, t.key, 'GET', '/deals'), 60);
    expect429(await call(b, t.key, 'POST', '/deals', { title: 'x' }), 60);
    const other = await h.team({ plan: 'starter' });
    expect((await call(b, other.key, 'GET', '/deals')).status).toBe(200);
  });

  it('the failed-authentication budget per IP is shared through Redis too', async () => {
    const keyPrefix = uniquePrefix();
    const limiters = [0, 1].map(() => {
      const redis = createRedis(server.url, captureLogger([]));
      clients.push(redis);
      return createRateLimiter({ redis, planLimits: true, unauthenticatedPerMinute: 4, keyPrefix });
    });
    const [a, b] = await Promise.all(limiters.map((rateLimiter) => buildApp({ db: h.testDb.db, rateLimiter })));
    apps.push(a!, b!);
    await waitReady(clients, 10_000);
    const ip = '198.51.100.77';
    for (let i = 0; i < 4; i++) expect((await call(i % 2 ? b! : a!, 'errada', 'GET', '/deals', undefined, { remoteAddress: ip })).status).toBe(401);
    expect429(await call(a!, 'errada', 'GET', '/deals', undefined, { remoteAddress: ip }), 60);
    expect429(await call(b!, 'errada', 'GET', '/deals', undefined, { remoteAddress: ip }), 60);
  });

  it('Redis stopped mid-test: no 500s, the in-memory insurance limits each app, a warning is logged; back on Redis after a restart', async () => {
    const log: CapturedLog[] = [];
    const appLines: string[] = [];
    const [a, b] = await twoApps(log, appLines);
    const t = await h.team({ plan: 'starter' });

    // Shared while Redis is up.
    for (let i = 0; i < 10; i++) expect((await call(i % 2 ? b : a, t.key, 'GET', '/deals?limit=1')).status).toBe(200);
    expect(rateLimitOf(await call(a, t.key, 'GET', '/deals?limit=1'))).toMatchObject({ name: 'minute', r: 49 });

    await server.stop();
    // Right away, while the clients may not have noticed yet: every request is answered, never a 500.
    const during: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await call(
        i % 2 ? b : a,
        t.key,
        i % 4 === 0 ? 'POST' : 'GET',
        i % 4 === 0 ? '/deals' : '/deals?limit=1',
        i % 4 === 0 ? { title: `Venda durante a queda ${i}` } : undefined,
      );
      during.push(res.status);
      expect(res.status, `request ${i + 1} during the outage: ${res.text}`).toBeLessThan(500);
      expect([200, 201]).toContain(res.status);
    }
    // The warning comes with the first failed reconnection attempt (a fraction of a second later): once per connection.
    const warnings = () => log.filter((l) => l.level === 'warn');
    await waitUntil(() => warnings().length >= 2, 5_000, 'two Redis warnings').catch(() => undefined);
    expect(warnings().length, `logged: ${JSON.stringify(log)}`).toBe(2);
    for (const w of warnings()) expect(w.msg).toMatch(/Redis indisponível/);

    // The insurance is a limiter, not an open door: app A alone allows a starter minute and refuses the next.
    let passedOnA = 0;
    for (let i = 0; i < 100; i++) {
      const res = await call(a, t.key, 'GET', '/deals?limit=1');
      expect(res.status).toBeLessThan(500);
      if (res.status === 429) {
        expect429(res, 60);
        break;
      }
      passedOnA++;
    }
    // 10 of the 20 requests above went through A's insurance already (or to Redis, before the client noticed).
    expect(passedOnA).toBeGreaterThanOrEqual(40);
    expect(passedOnA).toBeLessThanOrEqual(60);

    // Redis back on the same port (empty: nothing was persisted); both clients reconnect by themselves.
    await server.start();
    await waitReady(clients, 15_000);
    expect(
      log.some((l) => l.level === 'info' && /Redis de volta/.test(l.msg)),
      JSON.stringify(log),
    ).toBe(true);

    // Shared again: one budget of 60 across both apps (A's exhausted insurance no longer answers).
    for (let i = 0; i < 60; i++) {
      const res = await call(i % 2 ? a : b, t.key, 'GET', '/deals?limit=1');
      if (res.status !== 200) expect.fail(`after the restart, request ${i + 1} answered ${res.status}: ${res.text}`);
      expect(rateLimitOf(res)).toMatchObject({ name: 'minute', r: 59 - i });
    }
    expect429(await call(a, t.key, 'GET', '/deals'), 60);
    expect429(await call(b, t.key, 'GET', '/deals'), 60);
    expect(appLines.join('')).not.toMatch(/"level":50/); // no error logged by the apps
  }, 60_000);
});
