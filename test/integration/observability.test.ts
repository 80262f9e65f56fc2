import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { register as globalRegistry } from 'prom-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createRateLimiter } from '../../src/domain/ratelimit/rate-limiter.js';
import { createServices, type Services } from '../../src/app/services.js';
import type { MetricsAccess } from '../../src/http/request-observability.js';
import { createMetrics, metricsSources, type Metrics } from '../../src/observability/metrics.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { createDeliveryWorker } from '../../src/worker/delivery-worker.js';
import type { SendResult } from '../../src/worker/webhook-sender.js';
import { freePort } from '../support/cli.js';
import { DIALECTS, openTestDb, type TestDb } from '../support/dialects.js';
import { injectJson as send } from '../support/harness.js';
import { captureLogs, sample, type CapturedLogs } from '../support/observability.js';

/**
 * Issue 5, point 5: X-Request-Id on every answer, one structured log line per request, no secret in
 * any log line, and GET /metrics (content, per-app registries, token, separate listener, production).
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const UNKNOWN_DEAL = '0190a000-0000-7000-8000-000000000000';
const TOKEN = 'mt_0123456789abcdef0123456789abcdef';

/** A fake receiver: answers each attempt with the next outcome of the list (success when it runs out). */
function fakeSender(outcomes: Array<Partial<SendResult>>) {
  const seen: Array<Record<string, string>> = [];
  return {
    seen,
    async send(_url: string, _body: string, headers: Record<string, string>): Promise<SendResult> {
      seen.push(headers);
      const next = outcomes.shift() ?? {};
      const ok = next.ok ?? true;
      return { ok, statusCode: ok ? 200 : null, errorClass: null, durationMs: 3, responseBody: null, ...next };
    },
  };
}

describe.each(DIALECTS)('observability (%s)', (dialect) => {
  let testDb: TestDb;
  let services: Services;
  let teams: Services['teams'];
  let keys: Services['keys'];
  let webhooks: Services['webhooks'];
  const apps: FastifyInstance[] = [];
  let seq = 0;

  beforeAll(async () => {
    testDb = await openTestDb(dialect);
    services = createServices(testDb.db);
    ({ teams, keys, webhooks } = services);
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });
  afterAll(async () => {
    await testDb?.close();
  });

  const workerServices = () => ({ deliveries: services.deliveries, teams, dialect: testDb.db.dialect });

  async function team(options: { plan?: string; scopes?: string[] } = {}): Promise<{ teamId: string; key: string }> {
    const created = await teams.create({ name: `Loja obs ${++seq} ${dialect}`, plan: options.plan });
    return { teamId: created.id, key: (await keys.create({ teamId: created.id, scopes: options.scopes })).key };
  }

  async function app(
    options: { level?: 'info' | 'debug' | 'trace'; metricsAccess?: MetricsAccess; metrics?: Metrics; limits?: { unauthenticatedPerMinute: number } } = {},
  ): Promise<{ app: FastifyInstance; logs: CapturedLogs; metrics: Metrics }> {
    const logs = captureLogs(options.level ?? 'info');
    const metrics = options.metrics ?? createMetrics(metricsSources(testDb.db, services));
    const rateLimiter = options.limits
      ? createRateLimiter({ planLimits: true, unauthenticatedPerMinute: options.limits.unauthenticatedPerMinute, keyPrefix: `obs:${randomUUID()}` })
      : null;
    const built = await buildApp({
      db: testDb.db,
      logger: logs.logger,
      metrics,
      rateLimiter,
      ...(options.metricsAccess ? { metricsAccess: options.metricsAccess } : {}),
    });
    apps.push(built);
    return { app: built, logs, metrics };
  }

  const authed = (key: string, method: InjectOptions['method'], url: string, payload?: object, headers: Record<string, string> = {}): InjectOptions => ({
    method,
    url,
    headers: { authorization: `Bearer ${key}`, ...headers },
    ...(payload === undefined ? {} : { payload }),
  });

  describe('X-Request-Id', () => {
    it.each([['abc'], ['A.b_c:d-9'], ['x'.repeat(128)], ['0190f5c2-7e1a-7b3c-8d4e-5f6a7b8c9d0e'], ['req:1.2_3']])('echoes a sane id (%s)', async (id) => {
      const { app: a } = await app();
      const res = await send(a, { method: 'GET', url: '/health', headers: { 'x-request-id': id } });
      expect(res.status).toBe(200);
      expect(res.headers['x-request-id']).toBe(id);
    });

    it.each([
      ['absent', undefined],
      ['empty', ''],
      ['too long (129)', 'x'.repeat(129)],
      ['a space', 'a b'],
      ['a slash', 'a/b'],
      ['a semicolon', 'a;b'],
      ['markup', '<script>'],
      ['a CRLF-free but quoted value', '"abc"'],
      ['a repeated header', ['a', 'b']],
    ] as Array<[string, string | string[] | undefined]>)('generates a UUID when the sent id is %s', async (_label, id) => {
      const { app: a } = await app();
      const headers = id === undefined ? {} : { 'x-request-id': id };
      const first = await send(a, { method: 'GET', url: '/health', headers });
      const second = await send(a, { method: 'GET', url: '/health', headers });
      expect(first.headers['x-request-id']).toMatch(UUID);
      expect(second.headers['x-request-id']).toMatch(UUID);
      expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
    });

    it('is on every kind of answer: 2xx, 4xx of each source (auth, validation, router, 404, 405, 413, 415, 429, 501)', async () => {
      const { key } = await team();
      const readOnly = await team({ scopes: ['deals:read'] });
      const { app: a } = await app({ limits: { unauthenticatedPerMinute: 1 } });
      const cases: Array<[number, InjectOptions]> = [
        [200, { method: 'GET', url: '/health' }],
        [200, authed(key, 'GET', '/api/v1/deals')],
        [201, authed(key, 'POST', '/api/v1/deals', { title: 'Honda Civic 2024', value: 150000 })],
        [400, authed(key, 'POST', '/api/v1/deals', {})],
        [400, authed(key, 'GET', '/api/v1/deals?limit=abc')],
        [400, { method: 'GET', url: '/api/v1/deals/%E0%A4%A' }],
        [403, authed(readOnly.key, 'POST', '/api/v1/deals', { title: 'x' })],
        [404, authed(key, 'GET', `/api/v1/deals/${UNKNOWN_DEAL}`)],
        [404, { method: 'GET', url: '/nada/aqui' }],
        [405, authed(key, 'PATCH', '/api/v1/deals')],
        [
          413,
          {
            ...authed(key, 'POST', '/api/v1/deals'),
            payload: JSON.stringify({ title: 'x'.repeat(1024 * 1024 + 10) }),
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          },
        ],
        [415, { ...authed(key, 'POST', '/api/v1/deals'), payload: 'x', headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' } }],
        [501, authed(key, 'GET', '/api/v1/financial')],
        [401, { method: 'GET', url: '/api/v1/deals' }],
        [429, { method: 'GET', url: '/api/v1/deals' }],
      ];
      for (const [status, options] of cases) {
        const id = `case-${status}-${randomUUID()}`;
        const sent = await send(a, { ...options, headers: { ...(options.headers ?? {}), 'x-request-id': id } });
        expect(sent.status, `${options.method} ${JSON.stringify(options.url)}: ${sent.text.slice(0, 200)}`).toBe(status);
        expect(sent.headers['x-request-id'], `${options.method} ${JSON.stringify(options.url)} (${status})`).toBe(id);
      }
      // And generated on the same kinds of answer when the caller sends none.
      const unsent = await send(a, authed(key, 'PATCH', '/api/v1/deals'));
      expect(unsent.status).toBe(405);
      expect(unsent.headers['x-request-id']).toMatch(UUID);
    });
  });

  describe('request logs', () => {
    it('one JSON line per request at info, with reqId, method, route pattern, status and duration; nothing else', async () => {
      const { key } = await team();
      const { app: a, logs } = await app({ level: 'info' });
      const created = await send(a, authed(key, 'POST', '/api/v1/deals', { title: 'Jeep Compass 2025', value: 210000 }, { 'x-request-id': 'log-create' }));
      expect(created.status).toBe(201);
      const dealId = created.body.data.id as string;
      const calls: Array<[string, InjectOptions, string, number]> = [
        ['log-read', authed(key, 'GET', `/api/v1/deals/${dealId}?x=1`), '/api/v1/deals/:id', 200],
        ['log-missing', authed(key, 'GET', `/api/v1/deals/${UNKNOWN_DEAL}`), '/api/v1/deals/:id', 404],
        ['log-search', authed(key, 'GET', '/api/v1/deals?search=compass'), '/api/v1/deals', 200],
        ['log-invalid', authed(key, 'POST', '/api/v1/deals', { priority: 'urgente' }), '/api/v1/deals', 400],
        ['log-anon', { method: 'GET', url: '/api/v1/clients' }, '/api/v1/clients', 401],
        ['log-nowhere', { method: 'GET', url: '/nada/aqui' }, 'unmatched', 404],
        ['log-health', { method: 'GET', url: '/health' }, '/health', 200],
      ];
      for (const [id, options] of calls) await send(a, { ...options, headers: { ...(options.headers ?? {}), 'x-request-id': id } });

      const lines = logs.lines();
      for (const [id, options, route, status] of [['log-create', { method: 'POST' }, '/api/v1/deals', 201] as const, ...calls]) {
        const mine = lines.filter((l) => l.reqId === id);
        expect(mine, `log lines of ${id}: ${JSON.stringify(mine)}`).toHaveLength(1);
        const line = mine[0]!;
        expect(line).toMatchObject({ level: 30, msg: 'request completed', reqId: id, method: options.method, route, status });
        expect(typeof line.durationMs).toBe('number');
        expect(line.durationMs).toBeGreaterThanOrEqual(0);
        expect(line.durationMs).toBeLessThan(10_000);
        expect(typeof line.time).toBe('number');
        // Exactly these fields, in this order (written without the redaction pass: none of them can carry a secret).
        expect(Object.keys(line)).toEqual(['level', 'time', 'pid', 'hostname', 'reqId', 'method', 'route', 'status', 'durationMs', 'msg']);
        // Fastify's own request lines (raw URL, headers serializer) are off.
        expect(Object.keys(line)).not.toEqual(expect.arrayContaining(['req']));
        expect(line).not.toHaveProperty('res');
        expect(line).not.toHaveProperty('url');
      }
      const text = logs.text();
      expect(text).not.toContain('incoming request');
      // The route pattern, never the raw URL: no ids, no search text, no query.
      expect(text).not.toContain(dealId);
      expect(text).not.toContain(UNKNOWN_DEAL);
      expect(text).not.toContain('compass');
      // Every line is JSON with a request id; the total is one per request.
      expect(lines.filter((l) => l.msg === 'request completed')).toHaveLength(calls.length + 1);
    });

    it('at debug level an "incoming request" line (id, method, route) precedes each answer', async () => {
      const { app: a, logs } = await app({ level: 'debug' });
      await send(a, { method: 'GET', url: '/health', headers: { 'x-request-id': 'dbg-1' } });
      const mine = logs.lines().filter((l) => l.reqId === 'dbg-1');
      expect(mine.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
      expect(mine[0]).toMatchObject({ level: 20, method: 'GET', route: '/health' });
    });

    it('no API key, Authorization header or webhook secret reaches a log line (trace level, auth failures, 429, webhooks)', async () => {
      const { teamId, key } = await team();
      const wrongKey = `ask_${'Qw7-_'.repeat(9).slice(0, 43)}`;
      const { app: a, logs } = await app({ level: 'trace', limits: { unauthenticatedPerMinute: 5 } });

      // A webhook for the team: its secret signs every delivery the worker makes below.
      const hook = await webhooks.create({ teamId, url: 'https://hooks.example.com.br/autosales' });

      const requests: InjectOptions[] = [
        authed(key, 'GET', '/api/v1/deals?search=civic'),
        authed(key, 'POST', '/api/v1/deals', { title: 'Log test', value: 10 }),
        authed(key, 'POST', '/api/v1/deals', { priority: 'urgente' }),
        authed(key, 'GET', `/api/v1/deals/${UNKNOWN_DEAL}`),
        authed(key, 'POST', '/api/v1/clients', { type: 'PF', name: 'Ana Souza', cpf: '935.411.347-80' }),
        authed(key, 'GET', '/api/v1/financial'),
        { ...authed(key, 'POST', '/api/v1/deals'), payload: 'x', headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' } },
        { method: 'GET', url: '/api/v1/deals', headers: { authorization: `bearer ${key}` } },
        { method: 'GET', url: '/api/v1/deals', headers: { authorization: key } },
        { method: 'GET', url: `/api/v1/deals?api_key=${key}`, headers: { 'x-api-key': key, cookie: `key=${key}` } },
        authed(wrongKey, 'GET', '/api/v1/deals'),
        authed(wrongKey, 'GET', '/api/v1/deals'),
        authed(wrongKey, 'GET', '/api/v1/deals'), // the sixth failed authentication of this IP: 429
      ];
      const statuses: number[] = [];
      for (const options of requests) statuses.push((await send(a, options)).status);
      expect(statuses).toEqual([200, 201, 400, 404, 201, 501, 415, 401, 401, 401, 401, 401, 429]);

      // The worker delivers the three events with the app's logger at trace level.
      const sender = fakeSender([{ ok: false, statusCode: 500, errorClass: 'http' }]);
      const worker = createDeliveryWorker({
        ...workerServices(),
        sender,
        mailer: { webhookDisabled: async () => undefined },
        config: { timeoutMs: 1000, retrySchedule: [0, 0], pollMs: 20, concurrency: 8 },
        logger: a.log,
      });
      while ((await worker.runOnce()) > 0);
      expect(sender.seen.length).toBeGreaterThanOrEqual(2);

      // A careless log statement with the request's headers is redacted too.
      a.log.info({ req: { headers: { authorization: `Bearer ${key}` } }, headers: { authorization: `Bearer ${key}` }, secret: hook.secret, key }, 'careless');
      a.log.info({ webhook: { secret: hook.secret }, apiKey: { key } }, 'careless nested');

      const text = logs.text();
      expect(text).toContain('request completed'); // logging really was on
      expect(text).toContain('careless');
      expect(text.includes(key), 'the API key appears in a log line').toBe(false);
      expect(text.includes(key.slice(4)), 'the secret part of the key appears in a log line').toBe(false);
      expect(text.includes(wrongKey.slice(4)), 'a presented (wrong) key appears in a log line').toBe(false);
      expect(text.includes(hook.secret), 'the webhook secret appears in a log line').toBe(false);
      expect(text.includes(hook.secret.slice(6)), 'the webhook secret (without prefix) appears in a log line').toBe(false);
      expect(text).not.toMatch(/bearer /i);
      await webhooks.setStatus(hook.id, 'disabled');
    });
  });

  describe('GET /metrics', () => {
    it('counts requests by method, route pattern and status, with latency histograms and process metrics', async () => {
      const { key } = await team();
      const { app: a } = await app({ metricsAccess: 'open' });
      for (let i = 0; i < 3; i++) expect((await send(a, authed(key, 'POST', '/api/v1/deals', { title: `Carro ${i}`, value: 1000 + i }))).status).toBe(201);
      const created = await send(a, authed(key, 'POST', '/api/v1/deals', { title: 'Fiat Pulse' }));
      const id = created.body.data.id as string;
      expect((await send(a, authed(key, 'GET', `/api/v1/deals/${id}`))).status).toBe(200);
      expect((await send(a, authed(key, 'GET', `/api/v1/deals/${UNKNOWN_DEAL}`))).status).toBe(404);
      expect((await send(a, authed(key, 'GET', `/api/v1/deals/${randomUUID()}`))).status).toBe(404);
      expect((await send(a, { method: 'GET', url: '/api/v1/deals' })).status).toBe(401);
      expect((await send(a, { method: 'GET', url: '/sem/rota' })).status).toBe(404);

      const res = await send(a, { method: 'GET', url: '/metrics' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(res.headers['x-request-id']).toMatch(UUID);
      const m = res.text;
      expect(sample(m, 'http_requests_total', { method: 'POST', route: '/api/v1/deals', status: '201' })).toBe(4);
      expect(sample(m, 'http_requests_total', { method: 'GET', route: '/api/v1/deals/:id', status: '200' })).toBe(1);
      expect(sample(m, 'http_requests_total', { method: 'GET', route: '/api/v1/deals/:id', status: '404' })).toBe(2);
      expect(sample(m, 'http_requests_total', { method: 'GET', route: '/api/v1/deals', status: '401' })).toBe(1);
      expect(sample(m, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
      expect(sample(m, 'http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/deals' })).toBe(4);
      expect(sample(m, 'http_request_duration_seconds_bucket', { method: 'POST', route: '/api/v1/deals', le: '+Inf' })).toBe(4);
      expect(sample(m, 'http_request_duration_seconds_sum', { method: 'POST', route: '/api/v1/deals' })).toBeGreaterThan(0);
      // No raw ids in any label.
      expect(m).not.toContain(id);
      expect(m).not.toContain(UNKNOWN_DEAL);
      // Zero series exist before the first event.
      expect(sample(m, 'rate_limit_rejections_total', { kind: 'plan' })).toBe(0);
      expect(sample(m, 'webhook_deliveries_total', { outcome: 'timeout' })).toBe(0);
      // prom-client's default process metrics.
      expect(sample(m, 'process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0); // counted from the first scrape
      expect(sample(m, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
      expect(m).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
      // Pool usage on PostgreSQL; SQLite has no pool.
      if (dialect === 'postgres') {
        expect(sample(m, 'db_pool_max_clients')).toBe(5);
        expect(sample(m, 'db_pool_clients')).toBeGreaterThanOrEqual(1);
        expect(sample(m, 'db_pool_idle_clients')).toBeGreaterThanOrEqual(0);
        // The scrape's own queue query may be waiting for a connection being opened.
        expect(sample(m, 'db_pool_waiting_requests')).toBeGreaterThanOrEqual(0);
        expect(m).not.toContain('db_sqlite_');
      } else {
        expect(m).not.toContain('db_pool_');
        // Group commit: the writes of this test so far (creating its team and key) went through COMMITs of batches.
        expect(sample(m, 'db_sqlite_commits_total')).toBeGreaterThan(0);
        expect(sample(m, 'db_sqlite_committed_transactions_total')).toBeGreaterThan(0);
      }
      // The scrape itself is counted on the next one.
      const again = await send(a, { method: 'GET', url: '/metrics' });
      expect(sample(again.text, 'http_requests_total', { method: 'GET', route: '/metrics', status: '200' })).toBe(1);
    });

    it('each app has a registry of its own; the global prom-client registry stays empty', async () => {
      const first = await app({ metricsAccess: 'open' });
      const second = await app({ metricsAccess: 'open' });
      for (let i = 0; i < 3; i++) await send(first.app, { method: 'GET', url: '/health' });
      await send(second.app, { method: 'GET', url: '/health' });
      expect(sample((await send(first.app, { method: 'GET', url: '/metrics' })).text, 'http_requests_total', { route: '/health' })).toBe(3);
      expect(sample((await send(second.app, { method: 'GET', url: '/metrics' })).text, 'http_requests_total', { route: '/health' })).toBe(1);
      expect(globalRegistry.getSingleMetric('http_requests_total')).toBeUndefined();
      // buildApp without metrics options still works (and has no /metrics route).
      const plain = await buildApp({ db: testDb.db });
      apps.push(plain);
      expect((await send(plain, { method: 'GET', url: '/health' })).status).toBe(200);
      expect((await send(plain, { method: 'GET', url: '/metrics' })).status).toBe(404);
    });

    it('counts rate-limit rejections by kind; /metrics needs no key and is not limited', async () => {
      const { key } = await team({ plan: 'starter' });
      const { app: a } = await app({ metricsAccess: 'open', limits: { unauthenticatedPerMinute: 2 } });
      const statuses: number[] = [];
      for (let i = 0; i < 62; i++) statuses.push((await send(a, authed(key, 'GET', '/api/v1/deals?limit=1'))).status);
      expect(statuses.filter((s) => s === 429)).toHaveLength(2); // starter: 60 a minute
      for (let i = 0; i < 4; i++) await send(a, { method: 'GET', url: '/api/v1/deals' });
      for (let i = 0; i < 5; i++) {
        const res = await send(a, { method: 'GET', url: '/metrics' });
        expect(res.status).toBe(200);
        expect(res.headers.ratelimit).toBeUndefined();
      }
      const m = (await send(a, { method: 'GET', url: '/metrics' })).text;
      expect(sample(m, 'rate_limit_rejections_total', { kind: 'plan' })).toBe(2);
      expect(sample(m, 'rate_limit_rejections_total', { kind: 'unauthenticated' })).toBe(2); // 2 allowed (401), then 2 refused
      expect(sample(m, 'http_requests_total', { method: 'GET', route: '/api/v1/deals', status: '429' })).toBe(4);
      expect(sample(m, 'http_requests_total', { method: 'GET', route: '/metrics', status: '200' })).toBe(5);
    });

    it('webhook deliveries by outcome; queue depth and age of the oldest due delivery at scrape time', async () => {
      const { teamId, key } = await team();
      const metrics = createMetrics(metricsSources(testDb.db, services));
      const { app: a } = await app({ metricsAccess: 'open', metrics });
      const scrape = async () => (await send(a, { method: 'GET', url: '/metrics' })).text;
      const worker = (outcomes: Array<Partial<SendResult>>) =>
        createDeliveryWorker({
          ...workerServices(),
          sender: fakeSender(outcomes),
          mailer: { webhookDisabled: async () => undefined },
          config: { timeoutMs: 1000, retrySchedule: [0, 3_600_000], pollMs: 20, concurrency: 10 },
          logger: a.log,
          onAttempt: (result) => metrics.webhookAttempt(result),
        });
      // Nothing left due from earlier tests.
      const settle = worker([]);
      while ((await settle.runOnce()) > 0);
      const base = await scrape();
      expect(sample(base, 'webhook_delivery_queue_depth')).toBe(0);
      expect(sample(base, 'webhook_delivery_oldest_due_age_seconds')).toBe(0);
      const before = Object.fromEntries(
        ['success', 'http', 'timeout', 'tls', 'dns', 'blocked', 'redirect', 'connection'].map((o) => [
          o,
          sample(base, 'webhook_deliveries_total', { outcome: o })!,
        ]),
      );

      const hook = await webhooks.create({ teamId, url: 'https://hooks.example.com.br/metrics', events: ['deal.created'] });
      for (let i = 0; i < 4; i++) expect((await send(a, authed(key, 'POST', '/api/v1/deals', { title: `Fila ${i}` }))).status).toBe(201);
      // Make one of them two minutes overdue.
      const twoMinutesAgo = new Date(Date.now() - 120_000).toISOString();
      const oldest = await testDb.db.kysely.selectFrom('deliveries').select('id').where('webhook_id', '=', hook.id).limit(1).executeTakeFirstOrThrow();
      await testDb.db.kysely.updateTable('deliveries').set({ next_attempt_at: twoMinutesAgo }).where('id', '=', oldest.id).execute();

      const queued = await scrape();
      expect(sample(queued, 'webhook_delivery_queue_depth')).toBe(4);
      expect(sample(queued, 'webhook_delivery_oldest_due_age_seconds')).toBeGreaterThanOrEqual(119);
      expect(sample(queued, 'webhook_delivery_oldest_due_age_seconds')).toBeLessThan(180);
      // While the webhook is disabled its deliveries are not due work: the worker does not claim them.
      await webhooks.setStatus(hook.id, 'disabled');
      const paused = await scrape();
      expect(sample(paused, 'webhook_delivery_queue_depth')).toBe(0);
      expect(sample(paused, 'webhook_delivery_oldest_due_age_seconds')).toBe(0);
      await webhooks.setStatus(hook.id, 'enabled');
      expect(sample(await scrape(), 'webhook_delivery_queue_depth')).toBe(4);

      await worker([
        { ok: true },
        { ok: false, statusCode: 503, errorClass: 'http' },
        { ok: false, errorClass: 'timeout' },
        { ok: false, errorClass: 'tls' },
      ]).runOnce();
      const after = await scrape();
      expect(sample(after, 'webhook_deliveries_total', { outcome: 'success' })).toBe(before.success! + 1);
      expect(sample(after, 'webhook_deliveries_total', { outcome: 'http' })).toBe(before.http! + 1);
      expect(sample(after, 'webhook_deliveries_total', { outcome: 'timeout' })).toBe(before.timeout! + 1);
      expect(sample(after, 'webhook_deliveries_total', { outcome: 'tls' })).toBe(before.tls! + 1);
      expect(sample(after, 'webhook_deliveries_total', { outcome: 'dns' })).toBe(before.dns);
      // The three failures are retried in an hour: pending, not due.
      expect(sample(after, 'webhook_delivery_queue_depth')).toBe(0);
      expect(sample(after, 'webhook_delivery_oldest_due_age_seconds')).toBe(0);
      await webhooks.setStatus(hook.id, 'disabled');
    });

    describe('protection', () => {
      it("with a token: 401 envelope without it or with a wrong one, 200 with 'Bearer <token>'", async () => {
        const { app: a } = await app({ metricsAccess: { token: TOKEN } });
        const cases: Array<[Record<string, string>, number]> = [
          [{}, 401],
          [{ authorization: 'Bearer wrong-token-0123456789' }, 401],
          [{ authorization: `Bearer ${TOKEN}x` }, 401],
          [{ authorization: `Bearer ${TOKEN.slice(0, -1)}` }, 401],
          [{ authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` }, 401],
          [{ authorization: TOKEN }, 401],
          [{ authorization: 'Bearer ' }, 401],
          [{ authorization: `Bearer ${TOKEN}` }, 200],
        ];
        for (const [headers, status] of cases) {
          const res = await send(a, { method: 'GET', url: '/metrics', headers });
          expect(res.status, JSON.stringify(headers)).toBe(status);
          expect(res.headers['x-request-id']).toMatch(UUID);
          if (status === 401) {
            expect(res.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: 'Token de métricas ausente ou inválido' } });
            expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
          } else {
            expect(res.text).toContain('# TYPE http_requests_total counter');
          }
        }
      });

      it("'off': 404 envelope like any unknown route; 'open': other methods are 405", async () => {
        const off = await app({ metricsAccess: 'off' });
        const res = await send(off.app, { method: 'GET', url: '/metrics' });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'Rota não encontrada' } });
        expect((await send(off.app, { method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
        const open = await app({ metricsAccess: 'open' });
        const post = await send(open.app, { method: 'POST', url: '/metrics', payload: {} });
        expect(post.status).toBe(405);
        expect(post.headers.allow).toMatch(/GET/);
      });
    });
  });

  describe('startServer: /metrics from the configuration', () => {
    const servers: RunningServer[] = [];
    afterEach(async () => {
      for (const s of servers.splice(0)) await s.close();
    });

    async function start(env: Record<string, string>): Promise<RunningServer> {
      const port = await freePort();
      const config = loadConfig({ DATABASE_URL: testDb.url, PORT: String(port), LOG_LEVEL: 'silent', WEBHOOK_WORKER: 'off', ...env });
      const server = await startServer(config);
      servers.push(server);
      return server;
    }
    const get = async (url: string, headers: Record<string, string> = {}) => {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(5_000) });
      return { status: res.status, text: await res.text(), headers: res.headers };
    };

    it('METRICS_PORT: served without a token on its own listener (loopback), 404 on the main port', async () => {
      const metricsPort = await freePort();
      const server = await start({ METRICS_PORT: String(metricsPort) });
      expect((await get(`${server.address}/health`)).status).toBe(200);
      expect((await get(`${server.address}/metrics`)).status).toBe(404);
      const scraped = await get(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(scraped.status).toBe(200);
      expect(scraped.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(sample(scraped.text, 'http_requests_total', { method: 'GET', route: '/health', status: '200' })).toBe(1);
      expect(sample(scraped.text, 'http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
      expect((await get(`http://127.0.0.1:${metricsPort}/api/v1/deals`)).status).toBe(404);
      await server.close();
      await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
    });

    it('METRICS_TOKEN and METRICS_PORT together: the main port wants the token, the private port does not', async () => {
      const metricsPort = await freePort();
      const server = await start({ METRICS_PORT: String(metricsPort), METRICS_TOKEN: TOKEN, NODE_ENV: 'production' });
      expect((await get(`${server.address}/metrics`)).status).toBe(401);
      expect((await get(`${server.address}/metrics`, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
      expect((await get(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(200);
    });

    it('NODE_ENV=production without token or port: 404; outside production: open on the main port', async () => {
      const production = await start({ NODE_ENV: 'production' });
      expect((await get(`${production.address}/metrics`)).status).toBe(404);
      const development = await start({ NODE_ENV: 'development' });
      const res = await get(`${development.address}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toMatch(UUID);
    });

    it('a METRICS_PORT already in use: startServer fails and leaves nothing listening', async () => {
      const first = await start({ METRICS_PORT: String(await freePort()) });
      const busy = Number(new URL(first.address).port);
      const port = await freePort();
      await expect(
        startServer(loadConfig({ DATABASE_URL: testDb.url, PORT: String(port), LOG_LEVEL: 'silent', WEBHOOK_WORKER: 'off', METRICS_PORT: String(busy) })),
      ).rejects.toThrow(/EADDRINUSE/);
      await expect(fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
    });
  });
});
