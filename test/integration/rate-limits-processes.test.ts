import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, freePort, countDeals, killAllChildren, processDb, seedTeam, startServe, type ProcessDb, type ServerProcess } from '../support/cli.js';
import { waitUntil } from '../support/wait.js';
import { HAS_REDIS_SERVER, killAllRedis, startThrowawayRedis, type ThrowawayRedis } from '../support/redis.js';

/**
 * Issue 4, "Done when", with real `autosales serve` processes: a Starter key gets exactly 60 requests
 * in a minute and the 61st is a 429 with Retry-After; two processes on the same PostgreSQL and Redis
 * share that budget (and an Idempotency-Key retried on the other process creates one deal);
 * RATE_LIMITS=off is logged as a warning at start and serves without plan limits.
 */

beforeAll(() => {
  ensureBuilt();
}, 200_000);

const running = new Set<ServerProcess>();
const databases: ProcessDb[] = [];
const redisServers: ThrowawayRedis[] = [];

async function serve(url: string, env: Record<string, string | undefined>): Promise<ServerProcess> {
  // Whatever the outer environment says about limits, each test states its own.
  const server = await startServe(url, {
    env: {
      RATE_LIMITS: undefined,
      REDIS_URL: undefined,
      RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: undefined,
      TRUST_PROXY: undefined,
      WEBHOOK_WORKER: 'off',
      ...env,
    },
  });
  running.add(server);
  return server;
}
async function database(dialect: 'sqlite' | 'postgres'): Promise<ProcessDb> {
  const db = await processDb(dialect);
  databases.push(db);
  return db;
}
async function throwawayRedis(): Promise<ThrowawayRedis> {
  const redis = await startThrowawayRedis();
  redisServers.push(redis);
  return redis;
}

afterEach(async () => {
  for (const server of running) await server.stop('SIGKILL', 5_000).catch(() => undefined);
  running.clear();
  for (const redis of redisServers.splice(0)) await redis.dispose();
  for (const db of databases.splice(0)) await db.cleanup().catch(() => undefined);
});
afterAll(() => {
  killAllChildren();
  killAllRedis();
});

interface HttpRes {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

async function http(base: string, key: string | null, method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<HttpRes> {
  const headers: Record<string, string> = { ...extra };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

const RATELIMIT = /^"([a-z]+)";r=(\d+);t=(\d+)$/;
function remaining(res: HttpRes): number {
  const m = RATELIMIT.exec(res.headers.get('ratelimit') ?? '');
  if (!m) throw new Error(`no RateLimit header on a ${res.status}: ${res.headers.get('ratelimit')}`);
  return Number(m[2]);
}

function expect429(res: HttpRes) {
  expect(res.status, res.text).toBe(429);
  expect(res.body?.error?.code).toBe('RATE_LIMIT_EXCEEDED');
  expect(res.body?.error?.message).toMatch(/^Limite de requisições excedido/);
  const retryAfter = res.headers.get('retry-after');
  expect(retryAfter, 'Retry-After on a 429').toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(60);
}

describe('one `autosales serve` (SQLite, counters in the process)', () => {
  it('a new user: a Starter key gets exactly 60 requests in a minute, the 61st is a 429 with Retry-After', async () => {
    const db = await database('sqlite');
    const t = await seedTeam(db.url);
    const server = await serve(db.url, {});
    for (let i = 1; i <= 60; i++) {
      const res = await http(server.url, t.key, 'GET', '/deals?limit=1');
      if (res.status !== 200) expect.fail(`request ${i} answered ${res.status}: ${res.text}`);
      expect(res.headers.get('ratelimit-policy')).toBe('"minute";q=60;w=60, "day";q=1000;w=86400');
      expect(remaining(res)).toBe(60 - i);
    }
    const rejected = await http(server.url, t.key, 'POST', '/deals', { title: 'Venda 61' });
    expect429(rejected);
    expect(await countDeals(db.url, t.teamId)).toBe(0);
  }, 60_000);

  it('RATE_LIMITS=off: a warning at start, no plan limit and no RateLimit headers; failed authentications stay limited', async () => {
    const db = await database('sqlite');
    const t = await seedTeam(db.url);
    const server = await serve(db.url, { RATE_LIMITS: 'off', RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '3' });
    const line = await waitUntil(
      () =>
        server
          .output()
          .split('\n')
          .find((l) => l.includes('RATE_LIMITS=off')),
      5_000,
      'the RATE_LIMITS=off warning',
    );
    expect(JSON.parse(line).level, line).toBe(40); // pino "warn"
    for (let i = 1; i <= 70; i++) {
      const res = await http(server.url, t.key, 'GET', '/deals?limit=1');
      if (res.status !== 200) expect.fail(`request ${i} answered ${res.status}: ${res.text}`);
      expect(res.headers.get('ratelimit')).toBeNull();
      expect(res.headers.get('ratelimit-policy')).toBeNull();
    }
    for (let i = 0; i < 3; i++) expect((await http(server.url, 'errada', 'GET', '/deals')).status).toBe(401);
    expect429(await http(server.url, 'errada', 'GET', '/deals'));
  }, 60_000);

  it('REDIS_URL pointing at nothing: the server starts, serves (in-memory insurance) and logs a warning', async () => {
    const db = await database('sqlite');
    const t = await seedTeam(db.url);
    const port = await freePort();
    const server = await serve(db.url, { REDIS_URL: `redis://127.0.0.1:${port}` });
    for (let i = 1; i <= 60; i++) {
      const res = await http(server.url, t.key, 'GET', '/deals?limit=1');
      if (res.status !== 200) expect.fail(`request ${i} answered ${res.status}: ${res.text}`);
    }
    expect429(await http(server.url, t.key, 'GET', '/deals'));
    await waitUntil(() => server.output().includes('Redis indisponível'), 5_000, 'the Redis warning');
  }, 60_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL || !HAS_REDIS_SERVER)('two `autosales serve` on one PostgreSQL and one Redis', () => {
  it('a Starter key: 60 requests spread across both processes pass, the 61st is a 429 with Retry-After on either; an idempotent retry on the other process creates one deal', async () => {
    const redis = await throwawayRedis();
    const db = await database('postgres');
    const t = await seedTeam(db.url);
    const other = await seedTeam(db.url);
    const a = await serve(db.url, { REDIS_URL: redis.url });
    const b = await serve(db.url, { REDIS_URL: redis.url });

    // Requests 1 and 2: a POST with an Idempotency-Key on A, retried on B.
    const body = { title: 'Venda com retry', value: 75_000 };
    const first = await http(a.url, t.key, 'POST', '/deals', body, { 'idempotency-key': 'pedido-42' });
    expect(first.status, first.text).toBe(201);
    expect(remaining(first)).toBe(59);
    const retried = await http(b.url, t.key, 'POST', '/deals', body, { 'idempotency-key': 'pedido-42' });
    expect(retried.status, retried.text).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.text).toBe(first.text);
    expect(remaining(retried)).toBe(58);

    // Requests 3..60 alternate between the processes; the remaining count is one shared budget.
    for (let i = 3; i <= 60; i++) {
      const res = await http(i % 2 ? a.url : b.url, t.key, 'GET', '/deals?limit=1');
      if (res.status !== 200) expect.fail(`request ${i} (process ${i % 2 ? 'A' : 'B'}) answered ${res.status}: ${res.text}`);
      expect(remaining(res)).toBe(60 - i);
    }

    expect429(await http(a.url, t.key, 'POST', '/deals', { title: 'Venda 61' }));
    expect429(await http(b.url, t.key, 'GET', '/deals'));
    expect(await countDeals(db.url, t.teamId)).toBe(1);

    // Another team is unaffected, on either process.
    const elsewhere = await http(b.url, other.key, 'GET', '/deals');
    expect(elsewhere.status).toBe(200);
    expect(remaining(elsewhere)).toBe(59);

    expect(a.output() + b.output()).not.toMatch(/"level":50/);
  }, 90_000);
});
