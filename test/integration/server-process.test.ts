import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/storage/db.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { DIALECTS } from '../support/dialects.js';
import { waitUntil } from '../support/wait.js';
import { api, ensureBuilt, countDeals, killAllChildren, processDb, seedTeam, runCli, startServe, type ProcessDb, type ServerProcess } from '../support/cli.js';

/**
 * `autosales serve` as a real process: migrations on start, health/readiness, configuration errors,
 * durability across `kill -9`, graceful SIGTERM with requests in flight, and no secrets in the logs.
 */

beforeAll(() => {
  ensureBuilt();
}, 200_000);

// Every server a test starts is stopped (SIGKILL) afterwards, even when the test failed half-way.
const running = new Set<ServerProcess>();
const tempDirs: string[] = [];
async function serve(url: string | undefined, options?: Parameters<typeof startServe>[1]): Promise<ServerProcess> {
  const server = await startServe(url, options);
  running.add(server);
  return server;
}
afterEach(async () => {
  for (const server of running) await server.stop('SIGKILL', 5_000).catch(() => undefined);
  running.clear();
});
afterAll(() => {
  killAllChildren();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'autosales-serve-'));
  tempDirs.push(dir);
  return dir;
}

interface Outcome {
  status?: number;
  body?: any;
  error?: string;
}

/**
 * POST /api/v1/deals over a raw connection. The first `sendFirst` bytes of the body go out with the
 * headers; the rest only when `finish()` is called (all of it at once when `sendFirst` is omitted).
 */
function postDeal(port: number, key: string, agent: http.Agent, deal: object, sendFirst?: number) {
  const body = JSON.stringify(deal);
  const cut = sendFirst ?? body.length;
  let request!: http.ClientRequest;
  let connected!: Promise<void>;
  const outcome = new Promise<Outcome>((resolve) => {
    request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/v1/deals',
        agent,
        timeout: 20_000,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode, body: text }));
        res.on('error', (e) => resolve({ error: String(e) }));
      },
    );
    connected = new Promise<void>((ok) => {
      request.on('socket', (socket) => {
        if (!socket.connecting) ok();
        else socket.once('connect', () => ok());
      });
      request.on('error', () => ok());
    });
    request.on('error', (e) => resolve({ error: String(e) }));
    request.on('timeout', () => request.destroy(new Error('client timeout')));
  });
  request.write(body.slice(0, cut));
  if (cut >= body.length) request.end();
  return { outcome, connected, finish: () => request.end(body.slice(cut)) };
}

describe.each(DIALECTS)('autosales serve on %s', (dialect) => {
  let db: ProcessDb;
  beforeAll(async () => {
    db = await processDb(dialect);
  });
  afterAll(async () => {
    await db?.cleanup();
  });

  it('applies the migrations on start (brand-new database) and serves /health and /ready', async () => {
    let url = db.url;
    let file: string | undefined;
    if (dialect === 'sqlite') {
      // A file in directories that do not exist yet.
      file = join(tempDir(), 'nested', 'dir', 'new.db');
      url = `sqlite:${file}`;
    }
    const server = await serve(url);
    const health = await api(server.url, null, 'GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ success: true, data: { status: 'ok' } });
    const ready = await api(server.url, null, 'GET', '/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ success: true, data: { status: 'ready' } });
    if (file) expect(existsSync(file)).toBe(true);

    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    // The server applied every migration: nothing is left pending.
    const check = createDb(url, { poolMax: 1 });
    try {
      expect(await migrateToLatest(check)).toEqual([]);
    } finally {
      await check.close();
    }
  });

  it('durability: a deal answered 201 (and a 200 update) survives kill -9 and a restart', async () => {
    const { key } = await seedTeam(db.url);
    const first = await serve(db.url);
    const created = await api(first.url, key, 'POST', '/api/v1/deals', { title: 'Toyota Corolla XEi 2024', value: 152990.9, phase: 'proposta' });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as string;
    const updated = await api(first.url, key, 'PUT', `/api/v1/deals/${id}`, { phase: 'negociacao' });
    expect(updated.status, updated.text).toBe(200);

    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

    const second = await serve(db.url);
    const read = await api(second.url, key, 'GET', `/api/v1/deals/${id}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.data).toMatchObject({ id, title: 'Toyota Corolla XEi 2024', value: 152990.9, phase: 'negociacao', probability: 75 });
  });

  it('durability under concurrency: kill -9 while creates are in flight keeps every deal answered 201 (group commit on SQLite)', async () => {
    const { teamId, key } = await seedTeam(db.url);
    const server = await serve(db.url);
    // Concurrent creates share COMMITs on SQLite: a 201 may only leave once its own COMMIT is done.
    const answered: Array<{ id: string; title: string }> = [];
    let killed = false;
    const sends = Array.from({ length: 40 }, (_, i) =>
      api(server.url, key, 'POST', '/api/v1/deals', { title: `Negócio antes do kill ${i}`, value: 100 + i }).then(
        (res) => {
          if (killed || res.status !== 201) return;
          answered.push({ id: res.body.data.id, title: res.body.data.title });
          // Killed at once, with the other requests still in flight (some of them inside a batch).
          if (answered.length === 12) {
            killed = true;
            server.child.kill('SIGKILL');
          }
        },
        () => undefined,
      ),
    );
    await Promise.all(sends);
    if (!killed) server.child.kill('SIGKILL');
    expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(answered.length).toBeGreaterThanOrEqual(12);

    const second = await serve(db.url);
    for (const { id, title } of answered) {
      const read = await api(second.url, key, 'GET', `/api/v1/deals/${id}`);
      expect(read.status, read.text).toBe(200);
      expect(read.body.data.title).toBe(title);
    }
    // Requests cut by the kill are either wholly there or not at all: each stored deal has its event.
    const stored = await countDeals(db.url, teamId);
    expect(stored).toBeGreaterThanOrEqual(answered.length);
    const check = createDb(db.url, { poolMax: 1 });
    try {
      const events = await check.kysely.selectFrom('events').select('object').where('team_id', '=', teamId).where('type', '=', 'deal.created').execute();
      expect(events).toHaveLength(stored);
    } finally {
      await check.close();
    }
  });

  it('graceful shutdown: SIGTERM with 20 requests in flight; all complete (201) and the process exits 0', async () => {
    const { teamId, key } = await seedTeam(db.url);
    // Debug level: the server logs each request it accepts ("incoming request"), which the test waits on.
    const server = await serve(db.url, { env: { LOG_LEVEL: 'debug' } });
    const agent = new http.Agent({ keepAlive: true });
    try {
      // Each request sends its headers and the start of its body now, the rest after the signal.
      const inFlight = Array.from({ length: 20 }, (_, i) => postDeal(server.port, key, agent, { title: `Negócio em voo ${i}`, value: 1000 + i }, 10));
      // All 20 connections are established and their headers sent; the server has read and routed
      // them (logged each), so they are accepted and waiting for their bodies when the signal comes.
      await Promise.all(inFlight.map((r) => r.connected));
      await waitUntil(() => server.output().split('incoming request').length - 1 >= 20, 10_000, 'the 20 requests to be accepted');

      server.child.kill('SIGTERM');
      await waitUntil(() => server.output().includes('"signal":"SIGTERM"'), 10_000, 'the server to begin closing');
      expect(server.child.exitCode, 'the server exited with requests in flight').toBeNull();
      for (const r of inFlight) r.finish();

      const outcomes = await Promise.all(inFlight.map((r) => r.outcome));
      expect(
        outcomes.map((o) => o.status ?? o.error),
        server.output(),
      ).toEqual(Array(20).fill(201));
      // The client keeps its keep-alive connections open, as real clients and proxies do.
      const answeredAt = Date.now();
      const exit = await server.waitExit(15_000);
      expect(exit, server.output()).toEqual({ code: 0, signal: null });
      expect(Date.now() - answeredAt, 'ms from the last answer to the exit').toBeLessThan(9_000); // below the 10 s force-exit
      expect(await countDeals(db.url, teamId)).toBe(20);
    } finally {
      agent.destroy();
    }
  });

  it('graceful shutdown: 20 requests sent and SIGTERM at once; no answer is 5xx, every 201 is kept, exit 0', async () => {
    const { teamId, key } = await seedTeam(db.url);
    const server = await serve(db.url);
    const agent = new http.Agent({ keepAlive: true });
    try {
      const fired = Array.from({ length: 20 }, (_, i) => postDeal(server.port, key, agent, { title: `Disparo ${i}`, value: 500 + i }));
      // Every connection is established (accepted by the server) and its whole request written; then signal.
      await Promise.all(fired.map((r) => r.connected));
      server.child.kill('SIGTERM');
      const outcomes = await Promise.all(fired.map((r) => r.outcome));
      // A request the server never took (connection refused or reset before it was read) may fail;
      // every request it answered must have been served, not refused with a 5xx.
      const summary = JSON.stringify(outcomes.map((o) => o.status ?? o.error));
      expect(
        outcomes.filter((o) => o.status !== undefined && o.status >= 500),
        summary,
      ).toEqual([]);
      expect(
        outcomes.filter((o) => o.status !== undefined && o.status !== 201),
        summary,
      ).toEqual([]);
      const exit = await server.waitExit(15_000);
      expect(exit, server.output()).toEqual({ code: 0, signal: null });
      expect(await countDeals(db.url, teamId)).toBe(outcomes.filter((o) => o.status === 201).length);
    } finally {
      agent.destroy();
    }
  });

  it('no secrets in logs: with LOG_LEVEL=trace the API key never appears in stdout or stderr', async () => {
    const { key } = await seedTeam(db.url);
    const wrongKey = `ask_${'Zx9-_'.repeat(9).slice(0, 43)}`;
    const server = await serve(db.url, { env: { LOG_LEVEL: 'trace' } });
    expect((await api(server.url, key, 'GET', '/api/v1/deals?search=civic')).status).toBe(200);
    expect((await api(server.url, key, 'POST', '/api/v1/deals', { title: 'Log test', value: 10 })).status).toBe(201);
    expect((await api(server.url, key, 'POST', '/api/v1/deals', { priority: 'urgente' })).status).toBe(400);
    expect((await api(server.url, key, 'GET', '/api/v1/deals/0190a000-0000-7000-8000-000000000000')).status).toBe(404);
    expect((await api(server.url, key, 'GET', '/api/v1/clients')).status).toBe(200);
    expect((await api(server.url, key, 'GET', '/api/v1/financial')).status).toBe(501);
    expect((await api(server.url, wrongKey, 'GET', '/api/v1/deals')).status).toBe(401);
    const lowercase = await fetch(`${server.url}/api/v1/deals`, { headers: { authorization: `bearer ${key}` }, signal: AbortSignal.timeout(5_000) });
    await lowercase.body?.cancel();
    const notJson = await fetch(`${server.url}/api/v1/deals`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' },
      body: 'x',
      signal: AbortSignal.timeout(5_000),
    });
    expect(notJson.status).toBe(415);
    await notJson.body?.cancel();
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });

    const output = server.output();
    expect(output, 'requests were logged (trace logging really was on)').toContain('/api/v1/deals');
    expect(output.includes(key), 'the API key appears in the server output').toBe(false);
    expect(output.includes(key.slice(4)), 'the secret part of the key appears in the server output').toBe(false);
    expect(output.includes(wrongKey.slice(4)), 'a presented (wrong) key appears in the server output').toBe(false);
  });
});

describe('autosales serve configuration (SQLite)', () => {
  it('without DATABASE_URL it uses ./data/autosales.db relative to the working directory', async () => {
    const cwd = tempDir();
    const server = await serve(undefined, { cwd });
    expect((await api(server.url, null, 'GET', '/ready')).status).toBe(200);
    expect(existsSync(join(cwd, 'data', 'autosales.db'))).toBe(true);
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });
  });

  it.each([
    ['PORT', 'abc'],
    ['LOG_LEVEL', 'loud'],
  ])('%s=%s: exits non-zero naming the variable, before touching the database', async (name, value) => {
    const dir = tempDir();
    const result = await runCli(`sqlite:${join(dir, 'x.db')}`, ['serve'], { env: { [name]: value }, timeoutMs: 15_000 });
    expect(result.signal, result.stderr).toBeNull();
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(name);
    expect(result.stderr).toContain(value);
    expect(result.stderr).not.toMatch(/^\s+at .+[:(]/m);
    expect(existsSync(join(dir, 'x.db'))).toBe(false);
  });

  it('DATABASE_URL=mysql://x: exits non-zero naming DATABASE_URL', async () => {
    const result = await runCli('mysql://x', ['serve'], { timeoutMs: 15_000 });
    expect(result.signal, result.stderr).toBeNull();
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('DATABASE_URL');
  });

  it('an unreachable PostgreSQL: exits non-zero promptly instead of serving', async () => {
    const started = Date.now();
    const result = await runCli('postgres://postgres@127.0.0.1:1/autosales', ['serve'], { timeoutMs: 20_000 });
    expect(result.signal, result.stderr).toBeNull();
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/ECONNREFUSED|connect|conectar/i);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
