import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, openTestDb, type TestDb } from '../support/dialects.js';
import { api, ensureBuilt, freePort, killAllChildren, runCli, runCliJson, startServe, type ServerProcess } from '../support/cli.js';
import { startHttpsReceiver, type HttpsReceiver, type ReceivedRequest } from '../support/https-receiver.js';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.js';
import { killAllWorkers, seedWebhookTeam, startWorker, stockSignatureCheck, type WorkerProcess } from '../support/processes.js';
import { sleep, waitUntil } from '../support/wait.js';

/**
 * Issue 3, "Done when", tried as a new user would, with real processes only: `autosales serve` and
 * `autosales worker` as children of the built dist/, the CLI for teams, keys and webhooks, a real
 * HTTPS receiver (its self-signed CA handed over through NODE_EXTRA_CA_CERTS) and a real SMTP
 * listener. Retry schedule compressed to 0,200ms×5. Every wait is bounded; every child is killed.
 */

beforeAll(() => {
  ensureBuilt();
}, 200_000);

const EVENT_ID = /^evt_[0-9a-f]{32}$/;

/** Everything a test starts, stopped in afterEach even when the test failed half-way. */
const servers = new Set<ServerProcess>();
const workerProcs = new Set<WorkerProcess>();
const receivers = new Set<HttpsReceiver>();
const listeners = new Set<SmtpListener>();
const databases = new Set<TestDb>();

async function serve(url: string, env: Record<string, string | undefined>): Promise<ServerProcess> {
  const server = await startServe(url, { env });
  servers.add(server);
  return server;
}
function worker(url: string, env: Record<string, string | undefined>): WorkerProcess {
  const proc = startWorker(url, env);
  workerProcs.add(proc);
  return proc;
}
async function receiver(): Promise<HttpsReceiver> {
  const r = await startHttpsReceiver();
  receivers.add(r);
  return r;
}
async function smtpListener(): Promise<SmtpListener> {
  const l = await startSmtpListener();
  listeners.add(l);
  return l;
}
async function database(dialect: (typeof DIALECTS)[number]): Promise<TestDb> {
  const db = await openTestDb(dialect);
  databases.add(db);
  return db;
}

afterEach(async () => {
  for (const s of servers) await s.stop('SIGKILL', 5_000).catch(() => undefined);
  for (const w of workerProcs) await w.stop('SIGKILL', 5_000).catch(() => undefined);
  servers.clear();
  workerProcs.clear();
  for (const r of receivers) await r.close();
  receivers.clear();
  for (const l of listeners) await l.close();
  listeners.clear();
  // Only once no child uses them any more (on PostgreSQL this drops the schema).
  for (const db of databases) await db.close().catch(() => undefined);
  databases.clear();
});

afterAll(() => {
  killAllChildren();
  killAllWorkers();
});

/** The environment of the Done-when run: private targets allowed, compressed schedule, fast polling. */
function webhookEnv(r: HttpsReceiver, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_SCHEDULE: '0,200ms,200ms,200ms,200ms,200ms',
    WEBHOOK_POLL_MS: '50',
    WEBHOOK_WORKER: undefined,
    WEBHOOK_TIMEOUT_MS: undefined,
    NODE_EXTRA_CA_CERTS: r.caFile,
    SMTP_URL: undefined,
    ...extra,
  };
}

const parse = (req: ReceivedRequest) => JSON.parse(req.body);

/** Whether every delivery of the webhook is finished (succeeded or failed): none can be sent again. */
async function allDeliveriesDone(db: TestDb, webhookId: string): Promise<boolean> {
  const pending = await db.db.kysely.selectFrom('deliveries').select('id').where('webhook_id', '=', webhookId).where('status', '=', 'pending').execute();
  return pending.length === 0;
}

async function deliveryCount(db: TestDb, webhookId: string): Promise<number> {
  const row = await db.db.kysely
    .selectFrom('deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('webhook_id', '=', webhookId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function attemptCount(db: TestDb, webhookId: string): Promise<number> {
  const row = await db.db.kysely
    .selectFrom('delivery_attempts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('webhook_id', '=', webhookId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A delivery request as the contract describes it, accepted by an independent HMAC check. */
function expectSignedDelivery(req: ReceivedRequest, secret: string, ids: { teamId: string; webhookId: string }): any {
  expect(req.method).toBe('POST');
  expect(req.url).toBe('/hook');
  expect(String(req.headers['content-type'])).toMatch(/^application\/json\b/);
  expect(stockSignatureCheck(req.body, req.headers, secret), `signature of ${req.body.slice(0, 120)}`).toBe(true);
  expect(stockSignatureCheck(req.body, req.headers, `${secret}x`)).toBe(false);
  const body = parse(req);
  expect(body.id).toMatch(EVENT_ID);
  expect(req.headers['x-service-event-id']).toBe(body.id);
  expect(body).toMatchObject({ api_version: 'v1', team_id: ids.teamId, webhook_id: ids.webhookId });
  expect(body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  return body;
}

describe.each(DIALECTS)('webhook delivery with real processes on %s', (dialect) => {
  it('Done when: CLI webhook to a local HTTPS receiver, signed deal events, outage → attempts, disabling, one e-mail; enable + recover delivers what was missed', async () => {
    const db = await database(dialect);
    const url = db.url;
    const hooks = await receiver();
    const smtp = await smtpListener();
    const server = await serve(url, webhookEnv(hooks, { SMTP_URL: smtp.url, LOG_LEVEL: 'debug' }));

    // As a new user: a team with an alert address, a key, a webhook — all through the CLI.
    const alertEmail = `alertas-${dialect}@concessionaria.test`;
    const team = await runCliJson(url, ['teams', 'create', '--name', `Concessionária Done-when ${dialect}`, '--alert-email', alertEmail, '--json']);
    const key: string = (await runCliJson(url, ['keys', 'create', '--team', team.id, '--json'])).key;
    const hook = await runCliJson(url, ['webhooks', 'create', '--team', team.id, '--url', hooks.url, '--json'], {
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }, // the receiver is on this machine
    });
    expect(hook).toMatchObject({ url: hooks.url, events: [], status: 'enabled' });
    expect(hook.secret).toMatch(/^whsec_/);
    const ids = { teamId: team.id, webhookId: hook.id };

    // Create and move a deal over HTTP.
    const created = await api(server.url, key, 'POST', '/api/v1/deals', { title: 'Jeep Compass Longitude 2024', value: 189900 });
    expect(created.status, created.text).toBe(201);
    const dealId: string = created.body.data.id;
    const won = await api(server.url, key, 'PUT', `/api/v1/deals/${dealId}`, { phase: 'fechamento', status: 'ganho' });
    expect(won.status, won.text).toBe(200);

    const first = await hooks.waitFor(4, 15_000);
    // Once every delivery is recorded as done, nothing more (no duplicate) can follow.
    await waitUntil(() => allDeliveriesDone(db, hook.id), 15_000, 'the four deliveries to be recorded');
    expect(hooks.requests).toHaveLength(4);
    const bodies = first.map((req) => expectSignedDelivery(req, hook.secret, ids));
    expect(bodies.map((b) => b.type).sort()).toEqual(['deal.created', 'deal.phase_changed', 'deal.updated', 'deal.won']);
    expect(new Set(bodies.map((b) => b.id)).size).toBe(4);
    for (const b of bodies) expect(b.data.object.id).toBe(dealId);
    const byType = Object.fromEntries(bodies.map((b) => [b.type, b]));
    expect(byType['deal.created'].data.previous_attributes).toBeNull();
    expect(byType['deal.won'].data.object).toMatchObject({ phase: 'fechamento', status: 'ganho' });
    for (const type of ['deal.updated', 'deal.phase_changed', 'deal.won']) {
      expect(byType[type].data.previous_attributes).toMatchObject({ phase: 'lead', status: 'ativo' });
      expect(byType[type].data).toEqual(byType['deal.updated'].data);
    }

    // Take the receiver down (500 on everything) and keep working: two events from one PUT.
    const since = new Date(Date.now() - 1_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    hooks.respond(() => ({ status: 500, body: 'receptor fora do ar' }));
    const outageStart = hooks.requests.length;
    const reopened = await api(server.url, key, 'PUT', `/api/v1/deals/${dealId}`, { phase: 'negociacao', status: 'ativo' });
    expect(reopened.status, reopened.text).toBe(200);

    // Six attempts (0, then 200 ms apart) of a delivery fail → disabled → one e-mail.
    const [mail] = await smtp.waitFor(1, 20_000);
    const listed = await runCliJson(url, ['webhooks', 'list', '--team', team.id, '--json']);
    expect(listed[0]).toMatchObject({ id: hook.id, status: 'disabled' });
    expect(listed[0].disabled_reason).toEqual(expect.any(String));

    const outage = hooks.requests.slice(outageStart);
    const perEvent = new Map<string, ReceivedRequest[]>();
    for (const req of outage) {
      const body = expectSignedDelivery(req, hook.secret, ids);
      perEvent.set(body.id, [...(perEvent.get(body.id) ?? []), req]);
    }
    expect([...new Set(outage.map((r) => parse(r).type))].sort()).toEqual(['deal.phase_changed', 'deal.updated']);
    const exhausted = [...perEvent.entries()].filter(([, reqs]) => reqs.length === 6);
    expect(exhausted.length, `requests per event: ${[...perEvent.values()].map((r) => r.length).join(',')}`).toBeGreaterThanOrEqual(1);
    for (const [, reqs] of perEvent) {
      expect(reqs.length).toBeLessThanOrEqual(6);
      for (const req of reqs) expect(req.body).toBe(reqs[0]!.body); // the body is fixed at the first attempt
    }

    // The attempt log shows the pile-up: attempts 1..6 with 500 for the exhausted event, the last with no next attempt.
    const attempts = await runCliJson(url, ['webhooks', 'attempts', hook.id, '--json']);
    const [exhaustedId] = exhausted[0]!;
    const ofExhausted = attempts.filter((a: any) => a.event_id === exhaustedId).sort((a: any, b: any) => a.attempt - b.attempt);
    expect(ofExhausted.map((a: any) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const a of ofExhausted) expect(a).toMatchObject({ status_code: 500, response_body: 'receptor fora do ar' });
    expect(ofExhausted[5].next_attempt_at).toBeNull();
    for (const a of ofExhausted.slice(0, 5)) expect(a.next_attempt_at).toEqual(expect.any(String));
    expect(JSON.stringify(attempts)).not.toContain(hook.secret);

    // The e-mail: to the team's alert address, in Portuguese, naming the URL, the reason and how to re-enable.
    expect(mail!.to).toEqual([alertEmail]);
    expect(mail!.subject).toMatch(/desativado/i);
    expect(mail!.subject).toContain(hooks.url);
    expect(mail!.text).toContain(hooks.url);
    expect(mail!.text).toContain(listed[0].disabled_reason);
    expect(mail!.text).toContain(`autosales webhooks enable ${hook.id}`);
    expect(mail!.text).toContain(`autosales webhooks recover ${hook.id} --since`);
    expect(mail!.raw).not.toContain(hook.secret);

    // While disabled: a new event is kept, nothing is sent, no second e-mail.
    const disabledAt = hooks.requests.length;
    const queuedBefore = await deliveryCount(db, hook.id);
    const renamed = await api(server.url, key, 'PUT', `/api/v1/deals/${dealId}`, { title: 'Jeep Compass Longitude 2024 — revisado' });
    expect(renamed.status).toBe(200);
    expect(await deliveryCount(db, hook.id), 'a disabled webhook gets no delivery queued').toBe(queuedBefore);
    await sleep(1_000); // and its undelivered ones are not claimed meanwhile (nothing to wait for)
    expect(hooks.requests.length).toBe(disabledAt);
    expect(smtp.messages).toHaveLength(1);

    // Receiver healthy again: enable, then recover since before the outage.
    hooks.respond(() => ({ status: 200, body: 'ok' }));
    const enabled = await runCli(url, ['webhooks', 'enable', hook.id]);
    expect(enabled.code, enabled.stderr).toBe(0);
    const recovered = await runCli(url, ['webhooks', 'recover', hook.id, '--since', since]);
    expect(recovered.code, recovered.stderr).toBe(0);
    expect(recovered.stdout).toMatch(/Queued [1-9]\d* event/);

    // Every event since the outage began (2 from the reopening PUT, 1 from the rename) arrives, signed.
    const missed = await db.db.kysely
      .selectFrom('events')
      .select(['id', 'type'])
      .where('team_id', '=', team.id)
      .where('created_at', '>=', new Date(Date.parse(since)).toISOString())
      .execute();
    const missedIds = missed.map((e) => e.id).filter((id) => !bodies.some((b) => b.id === id));
    expect(missedIds).toHaveLength(3);
    const delivered = await waitUntil(
      () => {
        const got = new Set(hooks.requests.slice(disabledAt).map((r) => parse(r).id as string));
        return missedIds.every((id) => got.has(id)) ? got : null;
      },
      15_000,
      'the missed events after recover',
    );
    expect(delivered.size).toBe(3);
    for (const req of hooks.requests.slice(disabledAt)) expectSignedDelivery(req, hook.secret, ids);
    expect((await runCliJson(url, ['webhooks', 'list', '--team', team.id, '--json']))[0].status).toBe('enabled');
    expect(smtp.messages).toHaveLength(1);

    // No secret in the server's logs (debug level), once the last delivery's log line is out.
    await waitUntil(() => server.output().split('webhook entregue').length - 1 >= 7, 10_000, 'the delivery log lines');
    const logs = server.output();
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(hook.secret);
    expect(logs).not.toContain(key);
  }, 120_000);

  it('WEBHOOK_WORKER=off: serve sends nothing; `autosales worker` started separately delivers, and exits 0 on SIGTERM', async () => {
    const db = await database(dialect);
    const hooks = await receiver();
    const seeded = await seedWebhookTeam(db.db, hooks.url);
    const server = await serve(db.url, webhookEnv(hooks, { WEBHOOK_WORKER: 'off', LOG_LEVEL: 'debug' }));

    const deal = await api(server.url, seeded.key, 'POST', '/api/v1/deals', { title: 'HB20 Comfort 2023' });
    expect(deal.status, deal.text).toBe(201);
    await sleep(1_500); // 30 poll intervals of a worker that must not exist (nothing to wait for)
    expect(hooks.requests).toHaveLength(0);
    expect(await attemptCount(db, seeded.webhookId)).toBe(0);

    const metricsPort = await freePort();
    const proc = worker(db.url, webhookEnv(hooks, { LOG_LEVEL: 'debug', METRICS_PORT: String(metricsPort) }));
    const [req] = await hooks.waitFor(1, 15_000);
    const body = expectSignedDelivery(req!, seeded.secret, { teamId: seeded.teamId, webhookId: seeded.webhookId });
    expect(body.type).toBe('deal.created');
    expect(body.data.object.id).toBe(deal.body.data.id);
    await waitUntil(async () => (await attemptCount(db, seeded.webhookId)) === 1, 10_000, 'the attempt to be recorded');
    // The standalone worker serves its own metrics on METRICS_PORT: its attempts and the queue gauges.
    const scraped = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(scraped).toMatch(/^webhook_deliveries_total\{outcome="success"\} 1$/m);
    expect(scraped).toMatch(/^webhook_delivery_queue_depth 0$/m);

    const exit = await proc.stop('SIGTERM', 10_000);
    expect(exit, proc.output()).toEqual({ code: 0, signal: null });
    expect(hooks.requests).toHaveLength(1);
    for (const out of [proc.output(), server.output()]) {
      expect(out).not.toContain(seeded.secret);
      expect(out).not.toContain(seeded.key);
    }
  }, 60_000);

  it('a serve killed with SIGKILL right after a 201 (worker off: the event is only in the outbox) delivers it after a restart with the worker on', async () => {
    const db = await database(dialect);
    const hooks = await receiver();
    const seeded = await seedWebhookTeam(db.db, hooks.url);
    const first = await serve(db.url, webhookEnv(hooks, { WEBHOOK_WORKER: 'off' }));

    const deal = await api(first.url, seeded.key, 'POST', '/api/v1/deals', { title: 'Corolla Cross XRE 2025' });
    expect(deal.status, deal.text).toBe(201);
    const killed = await first.stop('SIGKILL', 5_000);
    expect(killed.signal).toBe('SIGKILL');
    expect(hooks.requests).toHaveLength(0);

    const second = await serve(db.url, webhookEnv(hooks));
    const [req] = await hooks.waitFor(1, 15_000);
    const body = expectSignedDelivery(req!, seeded.secret, { teamId: seeded.teamId, webhookId: seeded.webhookId });
    expect(body.type).toBe('deal.created');
    expect(body.data.object.id).toBe(deal.body.data.id);
    await waitUntil(() => allDeliveriesDone(db, seeded.webhookId), 15_000, 'the delivery to be recorded');
    expect(hooks.requests).toHaveLength(1);
    expect(second.output()).not.toContain(seeded.secret);
  }, 60_000);

  it('a private target with private targets NOT allowed is logged as `blocked` once (no retry, webhook disabled) and the receiver gets nothing', async () => {
    const db = await database(dialect);
    const hooks = await receiver();
    const seeded = await seedWebhookTeam(db.db, hooks.url);
    const server = await serve(db.url, webhookEnv(hooks, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }));

    const deal = await api(server.url, seeded.key, 'POST', '/api/v1/deals', { title: 'Renegade Sport 2022' });
    expect(deal.status, deal.text).toBe(201);
    await waitUntil(async () => (await attemptCount(db, seeded.webhookId)) >= 1, 15_000, 'the recorded attempt');
    // Not retried: the one refusal ends the delivery and disables the webhook, with the reason.
    const attempts = await runCliJson(db.url, ['webhooks', 'attempts', seeded.webhookId, '--json']);
    expect(attempts).toHaveLength(1);
    const [hook] = await runCliJson<Array<{ status: string; disabled_reason: string }>>(db.url, ['webhooks', 'list', '--team', seeded.teamId, '--json']);
    expect(hook).toMatchObject({ status: 'disabled', disabled_reason: expect.stringMatching(/^destino bloqueado/) });
    for (const a of attempts) {
      expect(a).toMatchObject({ event_type: 'deal.created', error_class: 'blocked', status_code: null, next_attempt_at: null });
      expect(a.event_id).toMatch(EVENT_ID);
      // Says why and what to do, in the JSON too.
      expect(a.error_detail).toMatch(/^blocked: the target resolves to a private, loopback or link-local address/);
      expect(a.error_detail).toContain('set WEBHOOK_ALLOW_PRIVATE_TARGETS=true on the serve/worker process');
    }
    // The table: one note under it for the class it shows.
    const human = await runCli(db.url, ['webhooks', 'attempts', seeded.webhookId]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout.match(/^blocked: the target resolves to a private/gm)).toHaveLength(1);
    expect(human.stdout).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS=true');
    expect(hooks.requests).toHaveLength(0);

    // The server's log (JSON lines, warn and above here): a warn line per blocked attempt naming the webhook and the reason.
    const warnings = server
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.webhook === seeded.webhookId && entry.reason === 'private_target');
    expect(warnings).toHaveLength(1);
    for (const w of warnings) {
      expect(w).toMatchObject({ level: 40, target: new URL(hooks.url).host, event: expect.stringMatching(EVENT_ID) });
      expect(w.msg).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS=true');
    }
    expect(server.output()).not.toContain(seeded.secret);
  }, 60_000);
});
