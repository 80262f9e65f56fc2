import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../src/index.js';
import { createDb } from '../../src/storage/db.js';
import type { DeliveryAttemptRow, DeliveryRow } from '../../src/storage/database.js';
import { DIALECTS } from '../support/dialects.js';
import type { Caller } from '../support/harness.js';
import type { ReceivedRequest } from '../support/https-receiver.js';
import { waitUntil } from '../support/wait.js';
import { TIMEOUT_MS, createWebhookRig, payloadOf, type WebhookRig } from '../support/webhooks.js';

/**
 * Webhook delivery end to end: a real HTTPS receiver, a real SMTP listener, the delivery worker
 * with a compressed schedule (0, 50, 50, 50, 50, 50 ms), on every dialect.
 * Contract: Events part of api-v1.md; product rules: DECISIONS.md (Events); docs/webhooks.md.
 */

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const HEX64 = /^[0-9a-f]{64}$/;

/** HMAC-SHA256 by an independent implementation: the openssl binary, as docs/webhooks.md shows. */
function opensslSignature(secret: string, timestamp: string, body: string): string {
  const out = execFileSync('openssl', ['dgst', '-sha256', '-hmac', secret], { input: Buffer.from(`${timestamp}.${body}`, 'utf8') }).toString('utf8');
  const match = /([0-9a-f]{64})\s*$/.exec(out);
  if (!match) throw new Error(`unexpected openssl output: ${out}`);
  return match[1]!;
}

function header(req: ReceivedRequest, name: string): string {
  const value = req.headers[name];
  expect(typeof value, `header ${name}`).toBe('string');
  return value as string;
}

function expectSignedBy(req: ReceivedRequest, secret: string): void {
  const timestamp = header(req, 'x-service-timestamp');
  const signature = header(req, 'x-service-signature');
  expect(timestamp).toMatch(/^\d+$/);
  expect(signature).toMatch(HEX64);
  expect(signature).toBe(opensslSignature(secret, timestamp, req.body));
  expect(verifyWebhookSignature(req.body, req.headers, secret)).toBe(true);
}

function expectNotSignedBy(req: ReceivedRequest, secret: string): void {
  const timestamp = header(req, 'x-service-timestamp');
  expect(header(req, 'x-service-signature')).not.toBe(opensslSignature(secret, timestamp, req.body));
  expect(verifyWebhookSignature(req.body, req.headers, secret)).toBe(false);
}

const ms = (value: unknown): number => new Date(value as string | Date).getTime();
const alertAddress = (): string => `alertas-${randomUUID().slice(0, 8)}@concessionaria.com.br`;

describe.each(DIALECTS)('webhook delivery (%s)', (dialect) => {
  let rig: WebhookRig;

  beforeAll(async () => {
    rig = await createWebhookRig(dialect);
  });

  afterEach(async () => {
    await rig.settle();
  });

  afterAll(async () => {
    await rig?.close();
  });

  async function attemptRows(webhookId: string): Promise<DeliveryAttemptRow[]> {
    const rows = await rig.db.kysely.selectFrom('delivery_attempts').selectAll().where('webhook_id', '=', webhookId).execute();
    return rows.sort((a, b) => ms(a.attempted_at) - ms(b.attempted_at) || a.attempt - b.attempt);
  }

  async function deliveries(webhookId: string): Promise<DeliveryRow[]> {
    return rig.db.kysely.selectFrom('deliveries').selectAll().where('webhook_id', '=', webhookId).orderBy('event_id').execute();
  }

  async function webhookStatus(webhookId: string): Promise<string> {
    return (await rig.webhooks.get(webhookId)).status;
  }

  const mailsTo = (address: string) => rig.smtp.messages.filter((m) => m.to.includes(address));

  /** Waits (bounded) until at least one e-mail to `address` has arrived. */
  async function waitForMail(address: string, timeoutMs = 5000): Promise<void> {
    await waitUntil(() => mailsTo(address).length > 0, timeoutMs, `an e-mail to ${address}`);
  }

  async function createDeal(t: Caller, title = 'Jeep Compass 2024 — João Silva'): Promise<string> {
    const res = await t.post('/deals', { title, value: 189900, phase: 'proposta' });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  }

  /** The team's single event of the given type (from the events table). */
  async function eventIdOf(teamId: string, type: string): Promise<string> {
    const rows = await rig.db.kysely.selectFrom('events').select('id').where('team_id', '=', teamId).where('type', '=', type).execute();
    expect(rows).toHaveLength(1);
    return rows[0]!.id;
  }

  /**
   * One POST /deals, one `runOnce`: the first attempt fails. Checks what every failure has in the
   * attempt log (attempt 1, event, duration, next_attempt_at 50 ms after it) and returns the row.
   */
  async function firstAttemptFails(t: Caller, webhookId: string): Promise<DeliveryAttemptRow> {
    await createDeal(t);
    const eventId = await eventIdOf(t.teamId, 'deal.created');
    expect(await rig.worker.runOnce()).toBe(1);

    const rows = await attemptRows(webhookId);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({ attempt: 1, event_id: eventId, event_type: 'deal.created' });
    expect(Number.isInteger(row.duration_ms)).toBe(true);
    expect(row.duration_ms).toBeGreaterThanOrEqual(0);
    expect(row.next_attempt_at).not.toBeNull();
    const gap = ms(row.next_attempt_at) - ms(row.attempted_at);
    expect(gap).toBeGreaterThanOrEqual(50);
    expect(gap).toBeLessThanOrEqual(row.duration_ms + 50 + 5000);

    const views = await rig.webhooks.attempts(webhookId);
    expect(views).toHaveLength(1);
    expect(views[0]).toMatchObject({
      event_id: eventId,
      event_type: 'deal.created',
      attempt: 1,
      status_code: row.status_code,
      error_class: row.error_class,
      duration_ms: row.duration_ms,
      response_body: row.response_body,
    });
    expect(views[0]!.attempted_at).toMatch(TIMESTAMP);
    expect(views[0]!.next_attempt_at).toMatch(TIMESTAMP);

    // It counts as a failure: the delivery stays pending for its second attempt, nothing succeeded.
    const [delivery] = await deliveries(webhookId);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1 });
    expect(
      (await rig.db.kysely.selectFrom('webhooks').select('last_success_at').where('id', '=', webhookId).executeTakeFirstOrThrow()).last_success_at,
    ).toBeNull();
    return row;
  }

  it('a delivery is a signed POST; openssl and verifyWebhookSignature both accept the signature', async () => {
    const receiver = await rig.receiver();
    const t = await rig.team();
    const hook = await rig.hook(t.teamId, receiver.url);
    await createDeal(t);
    await rig.drain();

    const [req] = await receiver.waitFor(1);
    expect(receiver.requests).toHaveLength(1);
    expect(req!.method).toBe('POST');
    expect(req!.url).toBe('/hook');
    expect(req!.headers['content-type']).toBe('application/json');
    const payload = payloadOf(req!);
    expect(payload).toMatchObject({ type: 'deal.created', api_version: 'v1', team_id: t.teamId, webhook_id: hook.id });
    expect(header(req!, 'x-service-event-id')).toBe(payload.id);
    const timestamp = Number(header(req!, 'x-service-timestamp'));
    expect(Math.abs(timestamp - req!.receivedAt / 1000)).toBeLessThan(5);
    expectSignedBy(req!, hook.secret);

    // The signature covers the exact bytes: any change to body, timestamp or secret breaks it.
    expect(verifyWebhookSignature(`${req!.body} `, req!.headers, hook.secret)).toBe(false);
    expect(verifyWebhookSignature(req!.body, { ...req!.headers, 'x-service-timestamp': String(timestamp - 1) }, hook.secret)).toBe(false);
    expectNotSignedBy(req!, `${hook.secret}x`);

    // The body sent is the one fixed on the delivery; the attempt log shows the success.
    const [delivery] = await deliveries(hook.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, body: req!.body });
    const [attempt] = await rig.webhooks.attempts(hook.id);
    expect(attempt).toMatchObject({ event_id: payload.id, attempt: 1, status_code: 200, error_class: null, response_body: 'ok', next_attempt_at: null });
  });

  it('retries: 500, 500, then 200 gives three byte-identical, validly signed requests', async () => {
    const receiver = await rig.receiver();
    let n = 0;
    receiver.respond(() => (++n <= 2 ? { status: 500, body: `falha ${n}` } : { status: 200, body: 'recebido' }));
    const t = await rig.team();
    const hook = await rig.hook(t.teamId, receiver.url);
    await createDeal(t);

    expect(await rig.drain({ until: () => receiver.requests.length >= 3, maxRuns: 60 })).toBe(true);
    await rig.drain({ until: async () => (await deliveries(hook.id))[0]?.status === 'succeeded', maxRuns: 20 });
    const requests = receiver.requests;
    expect(requests).toHaveLength(3);
    for (const req of requests) {
      expect(req.body).toBe(requests[0]!.body);
      expect(header(req, 'x-service-event-id')).toBe(payloadOf(req).id);
      expectSignedBy(req, hook.secret);
    }

    const rows = await attemptRows(hook.id);
    expect(rows.map((r) => [r.attempt, r.status_code, r.response_body])).toEqual([
      [1, 500, 'falha 1'],
      [2, 500, 'falha 2'],
      [3, 200, 'recebido'],
    ]);
    expect(rows[0]!.next_attempt_at).not.toBeNull();
    expect(rows[1]!.next_attempt_at).not.toBeNull();
    expect(rows[2]!.next_attempt_at).toBeNull();
    expect(rows[2]!.error_class).toBeNull();
    expect(await deliveries(hook.id)).toMatchObject([{ status: 'succeeded', attempts: 3 }]);
    expect(await webhookStatus(hook.id)).toBe('enabled');
  });

  it('a 5xx answer is a failure: status code, first 2 KB of the body, duration, next attempt', async () => {
    const receiver = await rig.receiver();
    const body = Array.from({ length: 400 }, (_, i) => `linha ${String(i).padStart(4, '0')};`).join('');
    expect(body.length).toBeGreaterThan(4096);
    receiver.respond(() => ({ status: 503, body }));
    const t = await rig.team();
    const hook = await rig.hook(t.teamId, receiver.url);

    const row = await firstAttemptFails(t, hook.id);
    expect(row.status_code).toBe(503);
    expect(['http', null]).toContain(row.error_class);
    expect(row.response_body).toBe(body.slice(0, 2048));
  });

  it('no answer within the timeout is a failure (error_class timeout)', async () => {
    const receiver = await rig.receiver();
    receiver.respond(() => ({ status: 200, body: 'tarde demais', delayMs: TIMEOUT_MS + 1500 }));
    const t = await rig.team();
    const hook = await rig.hook(t.teamId, receiver.url);

    const row = await firstAttemptFails(t, hook.id);
    expect(row).toMatchObject({ error_class: 'timeout', status_code: null });
    expect(row.duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(row.duration_ms).toBeLessThan(TIMEOUT_MS + 1000);
    expect(receiver.requests).toHaveLength(1);
  });

  it.each([302, 307])('a %i redirect is a failure and its Location is never requested', async (status) => {
    const target = await rig.receiver();
    const receiver = await rig.receiver();
    receiver.respond(() => ({ status, body: 'mudou-se', headers: { location: `${target.url}?via=redirect` } }));
    const t = await rig.team();
    const hook = await rig.hook(t.teamId, receiver.url);

    const row = await firstAttemptFails(t, hook.id);
    expect(row).toMatchObject({ error_class: 'redirect', status_code: status, response_body: 'mudou-se' });
    // The attempt is over (runOnce awaited it): a followed redirect would already be there.
    expect(target.requests).toEqual([]);
    expect(receiver.requests).toHaveLength(1);
  });

  it('connection refused is a failure; six of them disable the webhook with one alert e-mail', async () => {
    const receiver = await rig.receiver();
    const address = alertAddress();
    const t = await rig.team({ alertEmail: address });
    const hook = await rig.hook(t.teamId, receiver.url);
    await receiver.close();

    const row = await firstAttemptFails(t, hook.id);
    expect(row).toMatchObject({ error_class: 'connection', status_code: null, response_body: null });

    expect(await rig.drain({ until: async () => (await webhookStatus(hook.id)) === 'disabled', maxRuns: 60 })).toBe(true);
    const rows = await attemptRows(hook.id);
    expect(rows.map((r) => r.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rows.every((r) => r.error_class === 'connection' && r.status_code === null)).toBe(true);
    await waitForMail(address);
    expect(mailsTo(address)).toHaveLength(1);
  });

  it('disable rule: six failed attempts of one delivery → disabled, exactly one alert; then nothing is sent until enable + recover; resend repeats the same body', async () => {
    const receiver = await rig.receiver();
    receiver.respond(() => ({ status: 500, body: 'fora do ar' }));
    const address = alertAddress();
    const t = await rig.team({ alertEmail: address });
    const hook = await rig.hook(t.teamId, receiver.url);
    const since = new Date(Date.now() - 1000).toISOString();

    const dealId = await createDeal(t);
    expect((await t.put(`/deals/${dealId}`, { title: 'Jeep Compass Limited 2024' })).status).toBe(200);
    const createdId = await eventIdOf(t.teamId, 'deal.created');
    const updatedId = await eventIdOf(t.teamId, 'deal.updated');

    // Five failed attempts: still enabled, no e-mail.
    expect(await rig.drain({ until: async () => (await deliveries(hook.id)).some((d) => d.attempts >= 5), maxRuns: 60 })).toBe(true);
    expect(await webhookStatus(hook.id)).toBe('enabled');
    expect(mailsTo(address)).toHaveLength(0);

    // The sixth: disabled, one alert e-mail in Portuguese naming the URL.
    expect(await rig.drain({ until: async () => (await webhookStatus(hook.id)) === 'disabled', maxRuns: 60 })).toBe(true);
    const view = await rig.webhooks.get(hook.id);
    expect(view.disabled_reason).toEqual(expect.any(String));
    expect(view.disabled_at).toMatch(TIMESTAMP);
    const finished = (await deliveries(hook.id)).filter((d) => d.attempts === 6);
    expect(finished.length).toBeGreaterThanOrEqual(1);
    expect(finished.every((d) => d.status === 'failed')).toBe(true);
    expect((await deliveries(hook.id)).every((d) => d.attempts <= 6)).toBe(true);
    const sixth = (await attemptRows(hook.id)).filter((r) => r.event_id === finished[0]!.event_id);
    expect(sixth.map((r) => [r.attempt, r.status_code])).toEqual([1, 2, 3, 4, 5, 6].map((a) => [a, 500]));
    expect(sixth.slice(0, 5).every((r) => r.next_attempt_at !== null)).toBe(true);
    expect(sixth[5]!.next_attempt_at).toBeNull();

    // The alert is sent before the attempt that disabled the webhook finishes: no second one can follow.
    await waitForMail(address);
    for (let i = 0; i < 3; i++) {
      rig.clock.advance(100);
      await rig.worker.runOnce();
    }
    const mails = mailsTo(address);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain(receiver.url);
    expect(mails[0]!.subject).toMatch(/desativado/i);
    expect(mails[0]!.text).toContain(receiver.url);
    expect(mails[0]!.text).toContain(`autosales webhooks enable ${hook.id}`);

    // Disabled: a new event is not sent, even to a receiver that is back.
    receiver.respond(() => ({ status: 200, body: 'ok' }));
    const seen = receiver.requests.length;
    const lateDeal = await createDeal(t, 'Fiat Toro — criado durante a desativação');
    expect(lateDeal).toBeTruthy();
    const lateId = (
      await rig.db.kysely
        .selectFrom('events')
        .select('id')
        .where('team_id', '=', t.teamId)
        .where('type', '=', 'deal.created')
        .where('id', '!=', createdId)
        .executeTakeFirstOrThrow()
    ).id;
    for (let i = 0; i < 4; i++) {
      await rig.worker.runOnce();
      rig.clock.advance(60);
    }
    expect(receiver.requests).toHaveLength(seen);

    // Enable + recover: every missed event is sent once; the bodies already fixed are unchanged.
    const earlierBody = new Map(receiver.requests.map((r) => [payloadOf(r).id, r.body] as const));
    expect((await rig.webhooks.setStatus(hook.id, 'enabled')).status).toBe('enabled');
    const recovered = await rig.webhooks.recover(hook.id, since);
    expect(recovered.queued).toBe(3);
    expect(await rig.drain({ until: () => receiver.requests.length >= seen + 3, maxRuns: 40 })).toBe(true);
    rig.clock.advance(100);
    await rig.drain();
    const after = receiver.requests.slice(seen);
    expect(after.map((r) => payloadOf(r).id).sort()).toEqual([createdId, updatedId, lateId].sort());
    for (const req of after) {
      expectSignedBy(req, hook.secret);
      const earlier = earlierBody.get(payloadOf(req).id);
      if (earlier !== undefined) expect(req.body).toBe(earlier);
    }
    expect(earlierBody.has(createdId)).toBe(true);
    expect(await webhookStatus(hook.id)).toBe('enabled');

    // Resend: one more request with the same body.
    const createdBody = after.find((r) => payloadOf(r).id === createdId)!.body;
    const resent = await rig.webhooks.resend(createdId);
    expect(resent.webhook_ids).toEqual([hook.id]);
    expect(await rig.drain({ until: () => receiver.requests.length >= seen + 4, maxRuns: 40 })).toBe(true);
    const last = receiver.requests[seen + 3]!;
    expect(last.body).toBe(createdBody);
    expect(header(last, 'x-service-event-id')).toBe(createdId);
    expectSignedBy(last, hook.secret);
    rig.clock.advance(100);
    await rig.drain();
    expect(receiver.requests).toHaveLength(seen + 4);
    expect(mailsTo(address)).toHaveLength(1);
  });

  it('a receiver that rejects one event kind but accepts the others stays enabled', async () => {
    const receiver = await rig.receiver();
    receiver.respond((req) => (payloadOf(req).type === 'deal.won' ? { status: 422, body: 'tipo não suportado' } : { status: 200, body: 'ok' }));
    const address = alertAddress();
    const t = await rig.team({ alertEmail: address });
    const hook = await rig.hook(t.teamId, receiver.url);
    const dealId = await createDeal(t);
    expect((await t.put(`/deals/${dealId}`, { status: 'ganho' })).status).toBe(200);
    const wonId = await eventIdOf(t.teamId, 'deal.won');

    // Other events keep arriving (and succeeding) while deal.won is retried.
    let wonDelivery: DeliveryRow | undefined;
    for (let i = 0; i < 40; i++) {
      await rig.worker.runOnce();
      wonDelivery = (await deliveries(hook.id)).find((d) => d.event_id === wonId);
      if (wonDelivery?.status === 'failed') break;
      expect((await t.put(`/deals/${dealId}`, { title: `Jeep Compass — versão ${i}` })).status).toBe(200);
      rig.clock.advance(60);
    }
    expect(wonDelivery).toMatchObject({ status: 'failed', attempts: 6 });
    expect(await webhookStatus(hook.id)).toBe('enabled');
    // An alert is sent within the attempt that disables (awaited by runOnce): none came.
    expect(mailsTo(address)).toHaveLength(0);

    await rig.drain();
    const others = (await deliveries(hook.id)).filter((d) => d.event_id !== wonId);
    expect(others.length).toBeGreaterThanOrEqual(3);
    expect(others.every((d) => d.status === 'succeeded')).toBe(true);
    // Still enabled: a new event is delivered.
    await createDeal(t, 'Novo negócio depois das falhas');
    await rig.drain();
    expect(payloadOf(receiver.requests.at(-1)!).data.object.title).toBe('Novo negócio depois das falhas');
  });

  it('a short outage failing many first attempts does not disable the webhook', async () => {
    const receiver = await rig.receiver();
    let down = true;
    receiver.respond(() => (down ? { status: 503, body: 'manutenção' } : { status: 200, body: 'ok' }));
    const address = alertAddress();
    const t = await rig.team({ alertEmail: address });
    const hook = await rig.hook(t.teamId, receiver.url);
    for (let i = 0; i < 8; i++) await createDeal(t, `Negócio ${i}`);

    // Every delivery fails its first two attempts: 16 failed attempts in a row for the webhook.
    expect(await rig.drain({ until: async () => (await deliveries(hook.id)).every((d) => d.attempts >= 2), maxRuns: 60 })).toBe(true);
    const failedInARow = (await attemptRows(hook.id)).length;
    expect(failedInARow).toBeGreaterThanOrEqual(16);
    expect((await deliveries(hook.id)).every((d) => d.attempts < 6)).toBe(true);
    down = false;

    expect(await rig.drain({ until: async () => (await deliveries(hook.id)).every((d) => d.status === 'succeeded'), maxRuns: 60 })).toBe(true);
    expect(await webhookStatus(hook.id)).toBe('enabled');
    expect(new Set(receiver.requests.map((r) => payloadOf(r).id)).size).toBe(8);
    expect(receiver.requests.length).toBe((await attemptRows(hook.id)).length);
    expect(mailsTo(address)).toHaveLength(0);
  });

  it('rotateSecret: the next attempt is signed with the new secret only', async () => {
    const receiver = await rig.receiver();
    let n = 0;
    receiver.respond(() => (++n === 1 ? { status: 500, body: 'falha' } : { status: 200, body: 'ok' }));
    const t = await rig.team();
    const hook = await rig.hook(t.teamId, receiver.url);
    await createDeal(t);
    expect(await rig.worker.runOnce()).toBe(1);

    const rotated = await rig.rotate(hook.id);
    expect(rotated.secret).not.toBe(hook.secret);
    expect(await rig.drain({ until: () => receiver.requests.length >= 2, maxRuns: 40 })).toBe(true);
    const [first, second] = receiver.requests;
    expectSignedBy(first!, hook.secret);
    expectSignedBy(second!, rotated.secret);
    expectNotSignedBy(second!, hook.secret);
    expect(second!.body).toBe(first!.body);
  });

  it('a private target with allowPrivateTargets false is blocked once, never retried, the webhook disabled; the receiver gets nothing', async () => {
    const receiver = await rig.receiver();
    const t = await rig.team();
    const byName = await rig.hook(t.teamId, receiver.url); // localhost
    const byIp = await rig.hook(t.teamId, `https://127.0.0.1:${receiver.port}/hook`);
    const guarded = rig.makeWorker({ allowPrivateTargets: false });
    await createDeal(t);

    expect(await guarded.runOnce()).toBe(2);
    for (const hook of [byName, byIp]) {
      const rows = await attemptRows(hook.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ attempt: 1, error_class: 'blocked', status_code: null });
    }
    // No retry: however long the worker keeps running, the one attempt is all; the webhook is disabled with the reason.
    await rig.drain({ worker: guarded, until: () => false, maxRuns: 5 });
    for (const hook of [byName, byIp]) {
      expect(await attemptRows(hook.id)).toHaveLength(1);
      expect((await attemptRows(hook.id))[0]).toMatchObject({ next_attempt_at: null, duration_ms: 0 });
      expect(await rig.webhooks.get(hook.id)).toMatchObject({ status: 'disabled', disabled_reason: expect.stringMatching(/^destino bloqueado/) });
    }
    expect(receiver.requests).toEqual([]);

    // Each blocked attempt is a warn line naming the webhook, the host and the reason (and the way out); never the secret.
    for (const hook of [byName, byIp]) {
      const warnings = rig.logger.calls.filter(
        (c) =>
          c.level === 'warn' &&
          (c.obj as { webhook?: string; reason?: string }).webhook === hook.id &&
          (c.obj as { reason?: string }).reason === 'private_target',
      );
      expect(warnings).toHaveLength((await attemptRows(hook.id)).length);
      for (const w of warnings) {
        expect(w.obj).toMatchObject({
          reason: 'private_target',
          attempt: expect.any(Number),
          event: expect.stringMatching(/^evt_/),
          target: new URL(hook.url).host,
        });
        expect(w.msg).toMatch(/bloqueada/);
        expect(w.msg).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS=true');
      }
    }
    const logText = rig.logger.text();
    for (const secret of [byName.secret, byIp.secret]) expect(logText).not.toContain(secret);
  });

  it('resend of a delivery waiting for a retry: the superseded attempt no longer shows a next attempt, and a fresh series starts at attempt 1', async () => {
    const receiver = await rig.receiver();
    receiver.respond(() => ({ status: 503, body: 'manutenção' }));
    const t = await rig.team();
    const hook = await rig.hook(t.teamId, receiver.url);
    const failed = await firstAttemptFails(t, hook.id);
    expect(failed.next_attempt_at).not.toBeNull();

    const resent = await rig.webhooks.resend(failed.event_id, hook.id);
    expect(resent.webhook_ids).toEqual([hook.id]);
    // The retry it announced will not happen: the log says so (no next attempt), and the delivery is due now as a new series.
    const [superseded] = await attemptRows(hook.id);
    expect(superseded).toMatchObject({ id: failed.id, attempt: 1, status_code: 503, next_attempt_at: null });
    expect((await rig.webhooks.attempts(hook.id))[0]).toMatchObject({ attempt: 1, status_code: 503, next_attempt_at: null });
    const [delivery] = await deliveries(hook.id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 0 });

    // The new series: attempt 1 again, failing, announces its own retry; the old row stays cleared.
    expect(await rig.worker.runOnce()).toBe(1);
    const rows = await attemptRows(hook.id);
    expect(rows.map((r) => [r.attempt, r.next_attempt_at === null])).toEqual([
      [1, true],
      [1, false],
    ]);

    // Once delivered, resending a finished delivery leaves its history as it was.
    receiver.respond(() => ({ status: 200, body: 'ok' }));
    expect(await rig.drain({ until: async () => (await deliveries(hook.id))[0]!.status === 'succeeded', maxRuns: 20 })).toBe(true);
    const before = await attemptRows(hook.id);
    await rig.webhooks.resend(failed.event_id, hook.id);
    expect(await attemptRows(hook.id)).toEqual(before);
  });

  it('secrets never appear in the attempt log or in anything logged', async () => {
    // A receiver that echoes everything it got, through to disabling (warn log + e-mail).
    const receiver = await rig.receiver();
    receiver.respond((req) => ({ status: 500, body: JSON.stringify({ headers: req.headers, body: req.body }) }));
    const address = alertAddress();
    const t = await rig.team({ alertEmail: address });
    const hook = await rig.hook(t.teamId, receiver.url);
    await createDeal(t);
    expect(await rig.worker.runOnce()).toBe(1);
    await rig.rotate(hook.id);
    expect(await rig.drain({ until: async () => (await webhookStatus(hook.id)) === 'disabled', maxRuns: 60 })).toBe(true);
    await waitForMail(address);
    expect(rig.logger.calls.length).toBeGreaterThan(0);

    // Every secret handed out in this file, against every attempt row, attempt view and log call so far.
    const attemptsText = JSON.stringify(await rig.db.kysely.selectFrom('delivery_attempts').selectAll().execute());
    const hookIds = (await rig.db.kysely.selectFrom('webhooks').select('id').execute()).map((w) => w.id);
    const viewsText = JSON.stringify(await Promise.all(hookIds.map((id) => rig.webhooks.attempts(id))));
    const webhookViews = JSON.stringify(await Promise.all(hookIds.map((id) => rig.webhooks.get(id))));
    const logText = rig.logger.text();
    const mailText = rig.smtp.messages.map((m) => m.raw).join('\n');
    expect(rig.secrets.length).toBeGreaterThanOrEqual(2);
    for (const secret of rig.secrets) {
      expect(attemptsText).not.toContain(secret);
      expect(viewsText).not.toContain(secret);
      expect(webhookViews).not.toContain(secret);
      expect(logText).not.toContain(secret);
      expect(mailText).not.toContain(secret);
    }
  });

  it.runIf(dialect === 'postgres')('two workers on separate connections never send the same attempt twice', async () => {
    const receiver = await rig.receiver();
    receiver.respond(() => ({ status: 200, body: 'ok', delayMs: 15 }));
    const t = await rig.team();
    const hook = await rig.hook(t.teamId, receiver.url);
    const total = 60;
    for (let i = 0; i < total; i++) await createDeal(t, `Negócio concorrente ${i}`);
    expect(await deliveries(hook.id)).toHaveLength(total);

    const dbA = createDb(rig.h.testDb.url, { poolMax: 5 });
    const dbB = createDb(rig.h.testDb.url, { poolMax: 5 });
    const counts = { a: 0, b: 0 };
    const workerA = rig.makeWorker({ db: dbA, onAttempt: () => void counts.a++ });
    const workerB = rig.makeWorker({ db: dbB, onAttempt: () => void counts.b++ });
    try {
      workerA.start();
      workerB.start();
      await receiver.waitFor(total, 20_000);
    } finally {
      // stop() waits for the attempts in flight: a duplicate on its way would be counted below.
      await Promise.all([workerA.stop(), workerB.stop()]);
      await Promise.all([dbA.close(), dbB.close()]);
    }

    const ids = receiver.requests.map((r) => payloadOf(r).id);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    expect(counts.a + counts.b).toBe(total);
    expect(counts.a).toBeGreaterThan(0);
    expect(counts.b).toBeGreaterThan(0);
    const rows = await attemptRows(hook.id);
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => r.delivery_id)).size).toBe(total);
    expect((await deliveries(hook.id)).every((d) => d.status === 'succeeded' && d.attempts === 1)).toBe(true);
  });
});
