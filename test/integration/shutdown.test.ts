import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/services.js';
import { spawnChild, type ChildHandle } from '../support/child.js';
import { BIN, ROOT, childEnv, ensureBuilt, freePort } from '../support/cli.js';
import { DIALECTS, openTestDb, type TestDb } from '../support/dialects.js';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver.js';
import { waitUntil } from '../support/wait.js';

/**
 * Graceful shutdown of a real `autosales serve` under load: four keep-alive clients (load-client.mjs,
 * 256 connections of slow uploads and quick reads) keep ~250 requests in flight, 20 more requests
 * accepted long before are still uploading their body, and a webhook delivery is in progress when
 * SIGTERM arrives. Every request the server accepted (logged "incoming request" at
 * debug level, by its X-Request-Id) must be answered, none with a 5xx; a request may fail only if
 * the server never accepted it (connection refused once it stopped listening). The delivery is
 * finished and recorded, and the process exits 0.
 */

const CLIENTS = 4;
const SOCKETS_PER_CLIENT = 64;
const SLOW_UPLOADS = 20;
const LOAD_CLIENT = fileURLToPath(new URL('../support/load-client.mjs', import.meta.url));

beforeAll(() => {
  ensureBuilt();
}, 200_000);

interface Rec {
  id: string;
  method: string;
  path?: string;
  /** When the headers were written (load client only). */
  startedAt?: number;
  /** When the whole request had been written to the socket. */
  sentAt?: number;
  /** Sent on a keep-alive connection that had already served a request (load client only). */
  reused?: boolean;
  doneAt?: number;
  status?: number;
  error?: string;
}

function fire(agent: http.Agent, port: number, key: string, method: string, path: string, id: string, body?: object, sendFirst?: number) {
  const rec: Rec = { id, method, path };
  const payload = body === undefined ? undefined : JSON.stringify(body);
  let request!: http.ClientRequest;
  const done = new Promise<Rec>((resolve) => {
    const finish = (patch: Partial<Rec>) => {
      if (rec.doneAt !== undefined) return;
      Object.assign(rec, patch, { doneAt: Date.now() });
      resolve(rec);
    };
    request = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        timeout: 30_000,
        headers: {
          authorization: `Bearer ${key}`,
          'x-request-id': id,
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => finish({ status: res.statusCode }));
        res.on('error', (e) => finish({ error: String(e) }));
      },
    );
    request.on('finish', () => (rec.sentAt = Date.now()));
    request.on('error', (e) => finish({ error: `${(e as NodeJS.ErrnoException).code ?? ''} ${e.message}` }));
    request.on('timeout', () => request.destroy(new Error('client timeout')));
  });
  if (payload === undefined) request.end();
  else if (sendFirst === undefined) request.end(payload);
  else request.write(payload.slice(0, sendFirst));
  return { rec, done, finishBody: () => request.end(payload!.slice(sendFirst)) };
}

interface Serve extends ChildHandle {
  port: number;
}

/** `autosales serve` with its output in a file; resolves once GET /health answers. */
async function serve(databaseUrl: string, dir: string, env: Record<string, string>): Promise<Serve> {
  const port = await freePort();
  // The log goes to a file: a pipe the busy test process reads late would slow the server down.
  const started: Serve = {
    ...spawnChild(process.execPath, [BIN, 'serve'], {
      cwd: ROOT,
      env: childEnv({ DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', ...env }),
      logFile: join(dir, 'serve.log'),
      name: 'autosales serve',
    }),
    port,
  };
  await waitUntil(
    async () => {
      if (!started.running()) throw new Error(`autosales serve exited early:\n${started.output()}`);
      const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1_000) }).catch(() => null);
      return res?.status === 200;
    },
    20_000,
    'GET /health',
  );
  return started;
}

/** Whether a new connection to the port is refused (an accepted probe is closed at once). */
function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** The request ids the server accepted ("incoming request", debug) and the status it logged for each answer. */
function requestLog(text: string) {
  const accepted = new Set<string>();
  const completed = new Map<string, number>();
  const times = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.includes('"msg":"incoming request"')) accepted.add(String(JSON.parse(line).reqId));
    else if (line.includes('"msg":"request completed"')) {
      const parsed = JSON.parse(line) as { reqId: string; status: number; time: number };
      completed.set(String(parsed.reqId), parsed.status);
      times.set(String(parsed.reqId), parsed.time);
    }
  }
  return { accepted, completed, times };
}

describe.each(DIALECTS)('graceful shutdown under load (%s)', (dialect) => {
  let testDb: TestDb;
  let receiver: HttpsReceiver;
  let server: Serve | undefined;
  let dir: string;
  beforeAll(async () => {
    testDb = await openTestDb(dialect);
    receiver = await startHttpsReceiver();
    dir = mkdtempSync(join(tmpdir(), 'autosales-shutdown-'));
  });
  let load: ChildHandle | undefined;
  afterEach(async () => {
    if (load?.running()) await load.stop('SIGKILL');
    if (server?.running()) await server.stop('SIGKILL');
  });
  afterAll(async () => {
    await receiver?.close();
    await testDb?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('SIGTERM with 200+ requests in flight and a delivery in progress: every accepted request answered (no 5xx), the delivery recorded, exit 0', async () => {
    const { teams, keys, webhooks } = createServices(testDb.db, { allowPrivateWebhookTargets: true });
    const team = await teams.create({ name: `Loja carga ${dialect}`, plan: 'autoshopping' });
    const { key } = await keys.create({ teamId: team.id });
    // Only client.created goes to the receiver, which takes 2 s to answer: in progress at SIGTERM.
    const hook = await webhooks.create({ teamId: team.id, url: receiver.url, events: ['client.created'] });
    receiver.respond(() => ({ status: 200, body: 'ok', delayMs: 2_000 }));

    server = await serve(testDb.url, dir, {
      LOG_LEVEL: 'debug',
      RATE_LIMITS: 'off', // the load exceeds every plan; limits are tested elsewhere
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_TIMEOUT_MS: '10000',
      NODE_EXTRA_CA_CERTS: receiver.caFile,
    });
    const port = server.port;
    const setup = new http.Agent({ keepAlive: true });
    const seedDeal = await fire(setup, port, key, 'POST', '/api/v1/deals', 'seed-deal', { title: 'Semente' }).done;
    expect(seedDeal.status).toBe(201);
    const client = await fire(setup, port, key, 'POST', '/api/v1/clients', 'seed-client', { type: 'PF', name: 'Ana Beatriz Souza' }).done;
    expect(client.status).toBe(201);
    setup.destroy();
    const dealId = await testDb.db.kysely.selectFrom('deals').select('id').where('team_id', '=', team.id).executeTakeFirstOrThrow();

    // A few uploads that will still be sending their body when the signal comes. Started before the
    // load: under load the server's (asynchronous) log lags by seconds, and the test waits on it here.
    const uploadAgent = new http.Agent({ keepAlive: true });
    const uploads = Array.from({ length: SLOW_UPLOADS }, (_, i) =>
      fire(uploadAgent, port, key, 'POST', '/api/v1/deals', `upload-${i}`, { title: `Upload lento ${i}`, value: 77 }, 10),
    );
    await waitUntil(
      () => {
        const { accepted } = requestLog(server!.output());
        return uploads.every((u) => accepted.has(u.rec.id));
      },
      15_000,
      'the uploads to be accepted',
      { intervalMs: 100 },
    );

    // Load: CLIENTS keep-alive agents with SOCKETS_PER_CLIENT loops each, in a process of their own.
    const loadFile = join(dir, `load-${dialect}.json`);
    const loadClient = spawnChild(process.execPath, [LOAD_CLIENT, String(port), key, dealId.id, String(CLIENTS), String(SOCKETS_PER_CLIENT), loadFile], {
      name: 'load client',
    });
    load = loadClient;
    const loadExited = loadClient.exited.then(({ code }) => code);
    await waitUntil(() => loadClient.stdout().includes('warm'), 30_000, 'the load to warm up');
    await receiver.waitFor(1, 15_000); // the delivery is in progress (the receiver holds its answer for 2 s)

    const signalAt = Date.now();
    server.child.kill('SIGTERM');
    // The uploads finish once the shutdown has begun: the port refuses new connections.
    await waitUntil(() => refuses(port), 10_000, 'the port to refuse connections');
    for (const u of uploads) u.finishBody();

    const exit = await Promise.race([server.exited, new Promise((r) => setTimeout(() => r('no exit within 15 s'), 15_000))]);
    const exitedAt = Date.now();
    const uploaded = await Promise.all(uploads.map((u) => u.done));
    uploadAgent.destroy();
    expect(await loadExited, loadClient.output()).toBe(0);
    const records = JSON.parse(readFileSync(loadFile, 'utf8')) as Rec[];
    const all = [...records, ...uploaded];
    const output = server.output();
    expect(exit, output.slice(-3000)).toEqual({ code: 0, signal: null });
    // Exit code 0 proves the shutdown finished before the 10 s force-exit (which exits 1); no wall-clock target here.

    const { accepted, completed, times } = requestLog(output);
    const shutdownAt = JSON.parse(output.split('\n').find((l) => l.includes('"signal":"SIGTERM"'))!).time as number;
    for (const u of uploads) expect(times.get(u.rec.id)!, 'an upload answered after the shutdown began').toBeGreaterThan(shutdownAt);
    const summary = (rs: Rec[]) => JSON.stringify(rs.slice(0, 10));

    // Load really was in flight: sent before the signal, answered after it.
    const inFlight = all.filter((r) => (r.startedAt ?? r.sentAt ?? Infinity) <= signalAt && r.status !== undefined && r.doneAt! > signalAt);
    const stats = JSON.stringify({
      total: all.length,
      answered: all.filter((r) => r.status !== undefined).length,
      inFlight: inFlight.length,
      failed: all.filter((r) => r.error !== undefined).length,
      errors: [...new Set(all.map((r) => r.error?.split(' ')[0]).filter(Boolean))],
      msToExit: exitedAt - signalAt,
    });
    expect(inFlight.length, `requests in flight at SIGTERM (${stats})`).toBeGreaterThanOrEqual(200);
    // Every request begun before the signal on an established connection was answered (all the load's
    // connections had served a request before the signal: see load-client.mjs, "warm").
    const begunBefore = all.filter((r) => (r.startedAt ?? r.sentAt ?? Infinity) <= signalAt && r.reused !== false);
    expect(
      begunBefore.filter((r) => r.status === undefined).map((r) => `${r.id}: ${r.error}`),
      stats,
    ).toEqual([]);
    // No 5xx at all; the uploads were all created.
    expect(summary(all.filter((r) => r.status !== undefined && r.status >= 500))).toBe('[]');
    expect(summary(all.filter((r) => r.status !== undefined && r.status !== 200 && r.status !== 201))).toBe('[]');
    expect(uploaded.map((u) => u.status)).toEqual(Array(SLOW_UPLOADS).fill(201));
    // Every request the server accepted was answered, and logged with that answer.
    const byId = new Map(all.map((r) => [r.id, r]));
    const unanswered = [...accepted].filter((id) => byId.has(id) && byId.get(id)!.status === undefined);
    expect(unanswered).toEqual([]);
    for (const r of all.filter((x) => x.status !== undefined)) expect(completed.get(r.id), r.id).toBe(r.status);
    // A failed request is one the server never accepted (refused or closed before it was read).
    const failed = all.filter((r) => r.error !== undefined);
    expect(failed.filter((r) => accepted.has(r.id)).map((r) => `${r.id}: ${r.error}`)).toEqual([]);
    for (const r of failed) expect(r.error).toMatch(/ECONNREFUSED|ECONNRESET|EPIPE|socket hang up/);
    // What was answered 201 is in the database, and nothing else.
    const created = all.filter((r) => r.method === 'POST' && r.status === 201).length + 1;
    const row = await testDb.db.kysely
      .selectFrom('deals')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('team_id', '=', team.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.n)).toBe(created);

    // The delivery in progress was finished and recorded before the database closed.
    expect(receiver.requests).toHaveLength(1);
    const attempts = await testDb.db.kysely.selectFrom('delivery_attempts').selectAll().where('webhook_id', '=', hook.id).execute();
    expect(attempts.map((a) => [a.attempt, a.status_code])).toEqual([[1, 200]]);
    const delivery = await testDb.db.kysely.selectFrom('deliveries').select('status').where('webhook_id', '=', hook.id).executeTakeFirstOrThrow();
    expect(delivery.status).toBe('succeeded');
  }, 120_000);
});
