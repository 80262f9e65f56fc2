import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERIES_CHANNEL } from '../../src/domain/events/delivery-signal.js';
import { createServices } from '../../src/app/services.js';
import { listenForDeliveries } from '../../src/worker/delivery-listener.js';
import type { DeliveryWorker } from '../../src/worker/delivery-worker.js';
import { ensureBuilt, killAllChildren } from '../support/cli.js';
import { DIALECTS, openTestDb, type TestDb } from '../support/dialects.js';
import type { HttpsReceiver } from '../support/https-receiver.js';
import { startHttpsReceiver } from '../support/https-receiver.js';
import { seedWebhookTeam, startWorker, type WorkerProcess } from '../support/processes.js';
import { sleep, waitUntil } from '../support/wait.js';
import { captureLogger, createWebhookRig, payloadOf, type WebhookRig } from '../support/webhooks.js';

/**
 * Issue 6: a commit that queues deliveries wakes the worker (in-process signal on SQLite, NOTIFY
 * on PostgreSQL, also for a separate `autosales worker`), and the worker reuses connections.
 *
 * No speed assertions: the poll interval is set to 60 s, so that a delivery arriving well inside
 * that window can only have been claimed because of the wake. Every bound below is far below 60 s
 * and far above what the work takes, so a loaded machine only makes the tests slower. The few
 * sleeps let a worker finish its start-up claims (an internal state with nothing to wait on), so that
 * what arrives afterwards can only be the wake's doing, or check that nothing comes after a close.
 */

const LONG_POLL_MS = 60_000;
/** Arrivals must come before this much time has passed since the worker's first claim (< LONG_POLL_MS, with margin). */
const WAKE_WINDOW_MS = 40_000;

describe.each(DIALECTS)('delivery worker wake-up and connection reuse (%s)', (dialect) => {
  let rig: WebhookRig;
  const started: DeliveryWorker[] = [];

  beforeAll(async () => {
    rig = await createWebhookRig(dialect);
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((w) => w.stop()));
    await rig.settle();
  });

  afterAll(async () => {
    await rig?.close();
  });

  function startLocalWorker(options: Parameters<WebhookRig['makeWorker']>[0] = {}): { worker: DeliveryWorker; startedAt: number } {
    const worker = rig.makeWorker({ pollMs: LONG_POLL_MS, ...options });
    const startedAt = Date.now();
    worker.start();
    started.push(worker);
    return { worker, startedAt };
  }

  it('a deal created through the API reaches the receiver without waiting for the poll interval', async () => {
    const receiver = await rig.receiver();
    const t = await rig.team();
    const hook = await rig.hook(t.teamId, receiver.url, ['deal.created']);
    const { startedAt } = startLocalWorker();
    // The start-up claims (first poll, and on PostgreSQL the catch-up after LISTEN) find nothing;
    // after them the next poll is 60 s away.
    await sleep(1_000);

    for (let i = 1; i <= 3; i += 1) {
      const created = await t.post('/deals', { title: `Onix Plus ${i} — acordado agora` });
      expect(created.status).toBe(201);
      const left = startedAt + WAKE_WINDOW_MS - Date.now();
      expect(left, 'time left before the 60 s poll could explain an arrival').toBeGreaterThan(0);
      const arrived = await receiver.waitFor(i, left);
      const body = payloadOf(arrived[i - 1]!);
      expect(body).toMatchObject({ type: 'deal.created', webhook_id: hook.id });
      expect(body.data.object.id).toBe(created.body.data.id);
    }
  }, 50_000);

  it('a wake that comes while every slot is busy is kept and served when a slot frees', async () => {
    const receiver = await rig.receiver();
    receiver.respond(() => ({ status: 200, body: 'ok', delayMs: 400 }));
    const t = await rig.team();
    await rig.hook(t.teamId, receiver.url, ['deal.created']);
    const { startedAt } = startLocalWorker({ concurrency: 1 });
    await sleep(1_000);

    expect((await t.post('/deals', { title: 'HB20 primeiro' })).status).toBe(201);
    await receiver.waitFor(1, startedAt + WAKE_WINDOW_MS - Date.now());
    // The only slot is busy (the receiver holds the answer 400 ms): this commit's wake must not be lost.
    expect((await t.post('/deals', { title: 'HB20 segundo' })).status).toBe(201);
    const both = await receiver.waitFor(2, startedAt + WAKE_WINDOW_MS - Date.now());
    expect(both.map((r) => (payloadOf(r).data.object as { title: string }).title)).toEqual(['HB20 primeiro', 'HB20 segundo']);
  }, 50_000);

  it('several deliveries to one receiver use fewer connections than deliveries (at most one per slot)', async () => {
    const receiver = await rig.receiver();
    const t = await rig.team();
    const hook = await rig.hook(t.teamId, receiver.url, ['deal.created']);
    const total = 12;
    for (let i = 0; i < total; i += 1) expect((await t.post('/deals', { title: `Negócio ${i}` })).status).toBe(201);

    const concurrency = 3;
    startLocalWorker({ concurrency, pollMs: 20 });
    const arrived = await receiver.waitFor(total, 20_000);
    expect(new Set(arrived.map((r) => payloadOf(r).id)).size).toBe(total);
    expect(arrived.every((r) => payloadOf(r).webhook_id === hook.id)).toBe(true);
    expect(receiver.connectionCount()).toBeGreaterThanOrEqual(1);
    expect(receiver.connectionCount()).toBeLessThanOrEqual(concurrency);
  });

  it('keeps the SSRF guard with pooled connections: a private target stays blocked on every attempt', async () => {
    const receiver = await rig.receiver();
    const t = await rig.team();
    const hook = await rig.hook(t.teamId, `https://127.0.0.1:${receiver.port}/hook`, ['deal.created']);
    // The permissive default worker has just delivered elsewhere: its pool must not matter to a guarded one.
    const guarded = rig.makeWorker({ allowPrivateTargets: false });
    started.push(guarded);
    for (let i = 0; i < 3; i += 1) expect((await t.post('/deals', { title: `Bloqueado ${i}` })).status).toBe(201);
    expect(await rig.drain({ worker: guarded })).toBe(true);
    const rows = await rig.db.kysely.selectFrom('delivery_attempts').select(['error_class', 'status_code']).where('webhook_id', '=', hook.id).execute();
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toMatchObject({ error_class: 'blocked', status_code: null });
    expect(receiver.requests).toHaveLength(0);
    expect(receiver.connectionCount()).toBe(0);
  });
});

describe.runIf(DIALECTS.includes('postgres'))('PostgreSQL LISTEN/NOTIFY', () => {
  const databases = new Set<TestDb>();
  const receivers = new Set<HttpsReceiver>();
  const workers = new Set<WorkerProcess>();

  beforeAll(() => {
    ensureBuilt();
  }, 200_000);

  afterEach(async () => {
    for (const w of workers) await w.stop('SIGKILL', 5_000).catch(() => undefined);
    workers.clear();
    for (const r of receivers) await r.close();
    receivers.clear();
    for (const db of databases) await db.close().catch(() => undefined);
    databases.clear();
  });

  afterAll(() => {
    killAllChildren();
  });

  it('a separate `autosales worker` process is woken by NOTIFY when a transaction queuing deliveries commits', async () => {
    const db = await openTestDb('postgres');
    databases.add(db);
    const receiver = await startHttpsReceiver();
    receivers.add(receiver);
    const seeded = await seedWebhookTeam(db.db, receiver.url, { events: ['deal.created'] });
    const proc = startWorker(db.url, {
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_POLL_MS: String(LONG_POLL_MS),
      NODE_EXTRA_CA_CERTS: receiver.caFile,
      LOG_LEVEL: 'debug',
    });
    workers.add(proc);
    // Its first poll and its catch-up claim after LISTEN are done once it logs that it listens.
    await waitUntil(() => proc.output().includes('escutando NOTIFY'), 20_000, 'the worker to LISTEN');
    const listeningAt = Date.now();
    await sleep(300);

    // Written by this process (another one than the worker): only NOTIFY can tell the worker.
    const { deals } = createServices(db.db);
    for (let i = 1; i <= 2; i += 1) {
      const deal = await deals.create(seeded.teamId, { title: `Corolla ${i} — via NOTIFY` });
      const left = listeningAt + WAKE_WINDOW_MS - Date.now();
      expect(left, 'time left before the 60 s poll could explain an arrival').toBeGreaterThan(0);
      const arrived = await receiver.waitFor(i, left);
      expect(payloadOf(arrived[i - 1]!).data.object.id).toBe(deal.id);
    }

    const exit = await proc.stop('SIGTERM', 10_000);
    expect(exit, proc.output()).toEqual({ code: 0, signal: null });
    expect(proc.output()).not.toContain(seeded.secret);
  }, 90_000);

  it('the LISTEN connection comes back after it is cut, catches up, and stops for good on close', async () => {
    const db = await openTestDb('postgres');
    databases.add(db);
    const logger = captureLogger();
    let signals = 0;
    const listener = listenForDeliveries({ url: db.url, onSignal: () => void (signals += 1), logger, retryMs: 100 });
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const firstPid = await waitUntil(() => listener.backendPid(), 10_000, 'the first LISTEN connection');
      expect(signals).toBe(1); // the catch-up after connecting

      await admin.query('select pg_notify($1, $2)', [DELIVERIES_CHANNEL, '']);
      await waitUntil(() => signals >= 2, 10_000, 'the NOTIFY');

      await admin.query('select pg_terminate_backend($1)', [firstPid]);
      const secondPid = await waitUntil(
        () => {
          const pid = listener.backendPid();
          return pid !== null && pid !== firstPid ? pid : null;
        },
        15_000,
        'the LISTEN connection to come back',
      );
      expect(secondPid).not.toBe(firstPid);
      expect(signals).toBeGreaterThanOrEqual(3); // caught up on reconnecting
      expect(logger.calls.some((c) => c.level === 'warn' && /LISTEN/.test(c.msg))).toBe(true);
      expect(logger.text()).not.toContain('postgres://');

      const before = signals;
      await admin.query('select pg_notify($1, $2)', [DELIVERIES_CHANNEL, '']);
      await waitUntil(() => signals > before, 10_000, 'a NOTIFY on the new connection');

      await listener.close();
      expect(listener.backendPid()).toBeNull();
      await waitUntil(
        async () => (await admin.query('select count(*)::int as n from pg_stat_activity where pid = $1', [secondPid])).rows[0].n === 0,
        10_000,
        'the LISTEN backend to go away',
      );
      const afterClose = signals;
      await admin.query('select pg_notify($1, $2)', [DELIVERIES_CHANNEL, '']);
      await sleep(300);
      expect(signals).toBe(afterClose);
      expect(listener.backendPid()).toBeNull();
    } finally {
      await listener.close();
      await admin.end();
    }
  }, 60_000);
});
