import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { bearerMatches, metricsAccessFor } from '../../src/http/request-observability.js';
import { createMetrics, outcomeOf } from '../../src/observability/metrics.js';
import { requestIdFor } from '../../src/http/request-id.js';
import { sample } from '../support/observability.js';

const TOKEN = 'mt_0123456789abcdef';

function problems(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('metrics configuration', () => {
  it.each([
    [{}, 'open', null, null],
    [{ NODE_ENV: 'development' }, 'open', null, null],
    [{ NODE_ENV: 'production' }, 'off', null, null],
    [{ METRICS_PORT: '9464' }, 'off', 9464, null],
    [{ METRICS_TOKEN: TOKEN }, 'token', null, TOKEN],
    [{ METRICS_TOKEN: TOKEN, NODE_ENV: 'production' }, 'token', null, TOKEN],
    [{ METRICS_TOKEN: TOKEN, METRICS_PORT: '9464', NODE_ENV: 'production' }, 'token', 9464, TOKEN],
    [{ METRICS_TOKEN: '', METRICS_PORT: '' }, 'open', null, null],
  ] as Array<[NodeJS.ProcessEnv, string, number | null, string | null]>)('%j: main port %s, private port %s', (env, mainPort, port, token) => {
    const config = loadConfig(env);
    expect(config.metrics).toEqual({ mainPort, port, token, host: '127.0.0.1' });
    expect(Object.isFrozen(config.metrics)).toBe(true);
  });

  it('METRICS_HOST is read (loopback by default)', () => {
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }).metrics.host).toBe('0.0.0.0');
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '::1' }).metrics.host).toBe('::1');
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: 'metrics.internal' }).metrics.host).toBe('metrics.internal');
  });

  it.each([
    [{ METRICS_PORT: 'abc' }, "METRICS_PORT must be an integer from 1 to 65535 (got 'abc')"],
    [{ METRICS_PORT: '0' }, "METRICS_PORT must be an integer from 1 to 65535 (got '0')"],
    [{ METRICS_PORT: '70000' }, 'METRICS_PORT must be an integer from 1 to 65535'],
    [{ METRICS_PORT: '3000' }, 'METRICS_PORT must differ from PORT (both 3000)'],
    [{ PORT: '8080', METRICS_PORT: '8080' }, 'METRICS_PORT must differ from PORT (both 8080)'],
    [{ METRICS_HOST: 'a host' }, "METRICS_HOST must be a host name or an IP address (got 'a host')"],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN must be 16 to 256 printable ASCII characters without spaces (got 5 characters'],
    [{ METRICS_TOKEN: 'with a space inside it' }, 'METRICS_TOKEN must be 16 to 256 printable ASCII characters'],
  ])('%j is refused with a message naming the variable', (env, message) => {
    expect(problems(env)).toContain(message);
  });

  it('never echoes a bad METRICS_TOKEN', () => {
    const bad = 'sekrit with spaces 123';
    expect(problems({ METRICS_TOKEN: bad })).not.toContain('sekrit');
  });

  it('metricsAccessFor maps the configuration to the route rule', () => {
    expect(metricsAccessFor(loadConfig({ METRICS_TOKEN: TOKEN }).metrics)).toEqual({ token: TOKEN });
    expect(metricsAccessFor(loadConfig({}).metrics)).toBe('open');
    expect(metricsAccessFor(loadConfig({ NODE_ENV: 'production' }).metrics)).toBe('off');
    expect(metricsAccessFor(loadConfig({ METRICS_PORT: '9464' }).metrics)).toBe('off');
  });
});

describe('bearerMatches', () => {
  it.each([
    [`Bearer ${TOKEN}`, true],
    [`bearer ${TOKEN}`, true],
    [`Bearer ${TOKEN} `, false],
    [`Bearer  ${TOKEN}`, false],
    [`Bearer ${TOKEN}x`, false],
    [`Bearer ${TOKEN.slice(1)}`, false],
    [TOKEN, false],
    ['Bearer ', false],
    ['', false],
    [undefined, false],
  ])('%j → %s', (header, expected) => {
    expect(bearerMatches(header, TOKEN)).toBe(expected);
  });
});

describe('requestIdFor', () => {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  it.each(['a', 'A-Z.a_z:0-9', 'x'.repeat(128)])('keeps %s', (id) => {
    expect(requestIdFor({ headers: { 'x-request-id': id } })).toBe(id);
  });
  it.each([undefined, '', 'x'.repeat(129), 'a b', 'a,b', 'é', 'a\tb', '../x'])('replaces %j with a UUID', (id) => {
    expect(requestIdFor({ headers: id === undefined ? {} : { 'x-request-id': id } })).toMatch(uuid);
  });
});

describe('metrics', () => {
  it('maps a delivery result to its outcome label', () => {
    expect(outcomeOf({ ok: true, errorClass: null })).toBe('success');
    expect(outcomeOf({ ok: false, errorClass: 'http' })).toBe('http');
    expect(outcomeOf({ ok: false, errorClass: 'redirect' })).toBe('redirect');
    expect(outcomeOf({ ok: false, errorClass: null })).toBe('connection');
  });

  it('without a database: request counters and process metrics, no queue or pool gauges', async () => {
    const metrics = createMetrics();
    metrics.observeRequest('GET', '/health', 200, 0.003);
    metrics.rateLimitRejected('plan');
    metrics.webhookAttempt({ ok: false, errorClass: 'dns' });
    const text = await metrics.render();
    expect(sample(text, 'http_requests_total', { method: 'GET', route: '/health', status: '200' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_bucket', { route: '/health', le: '0.005' })).toBe(1);
    expect(sample(text, 'rate_limit_rejections_total', { kind: 'plan' })).toBe(1);
    expect(sample(text, 'rate_limit_rejections_total', { kind: 'unauthenticated' })).toBe(0);
    expect(sample(text, 'webhook_deliveries_total', { outcome: 'dns' })).toBe(1);
    expect(text).not.toContain('webhook_delivery_queue_depth');
    expect(text).not.toContain('db_pool_');
    expect(text).toContain('process_resident_memory_bytes');
    expect(text.endsWith('\n')).toBe(true);
  });

  it('an unreadable database makes the queue gauges NaN (unknown) instead of failing the scrape', async () => {
    const failing = { queueStats: () => Promise.reject(new Error('down')) };
    const text = await createMetrics({ queue: failing }).render();
    expect(text).toContain('# TYPE webhook_delivery_queue_depth gauge');
    expect(sample(text, 'webhook_delivery_queue_depth')).toBeNaN();
    expect(sample(text, 'webhook_delivery_oldest_due_age_seconds')).toBeNaN();
  });
});
