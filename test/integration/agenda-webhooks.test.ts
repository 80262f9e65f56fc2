import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../src/index.js';
import { SCOPES } from '../../src/domain/teams/api-keys.types.js';
import { DIALECTS } from '../support/dialects.js';
import type { HttpsReceiver } from '../support/https-receiver.js';
import { createWebhookRig, payloadOf, requestsFor, type WebhookRig } from '../support/webhooks.js';

/**
 * Issue 12, "done when": a team with the preview on runs its agenda and cash book through the API,
 * and a webhook it subscribed through the API to the activity and financial kinds receives every
 * event at the right moment, once, signed like the others (real HTTPS receiver, real delivery worker,
 * the scheduler driven by the rig's shifted clock).
 */

const KINDS = ['activity.created', 'activity.completed', 'activity.due_soon', 'activity.overdue', 'financial.created', 'financial.paid', 'financial.overdue'];
const HOUR = 3_600_000;

describe.each(DIALECTS)('agenda events delivered to a webhook (%s)', (dialect) => {
  let rig: WebhookRig;
  let receiver: HttpsReceiver;

  beforeAll(async () => {
    rig = await createWebhookRig(dialect);
    receiver = await rig.receiver();
  });
  afterAll(() => rig?.close());

  it('every event once, at its moment, signed', async () => {
    const team = await rig.team();
    await rig.h.services.teams.setPreview(team.teamId, { enable: ['financial', 'activities', 'webhooks'] });
    const t = await rig.h.key(team.teamId, [...SCOPES]);
    const hook = await t.post('/webhooks', { url: receiver.url, events: KINDS });
    expect(hook.status, hook.text).toBe(201);
    const { id: hookId, secret } = hook.body.data as { id: string; secret: string };

    const received = () =>
      requestsFor(receiver, hookId)
        .map((r) => payloadOf(r).type)
        .sort();
    const deliverAll = () => rig.drain();
    const fire = async () => {
      await rig.h.services.schedule.fireDue();
      await deliverAll();
    };

    const now = rig.clock.now().getTime();
    const dueAt = new Date(now + 30 * HOUR).toISOString();
    const activity = (await t.post('/activities', { type: 'meeting', title: 'Entrega do Onix', due_at: dueAt })).body.data;
    const today = new Date(now).toISOString().slice(0, 10);
    const record = (await t.post('/financial', { type: 'cost', category: 'documentacao', description: 'Transferência', amount: 350.4, due_date: today })).body
      .data;
    const paidLater = (await t.post('/financial', { type: 'revenue', category: 'seguro', description: 'Seguro', amount: 99.9, due_date: today })).body.data;
    await fire();
    expect(received()).toEqual(['activity.created', 'financial.created', 'financial.created']); // sorted: deliveries run concurrently

    // 7 h later: past due_soon (30 h − 24 h).
    rig.clock.advance(7 * HOUR);
    expect((await t.put(`/financial/${paidLater.id}`, { status: 'paid', payment_method: 'cartao' })).status).toBe(200);
    await fire();
    await fire();
    const afterSeven = received();
    expect(afterSeven.filter((k) => k === 'activity.due_soon')).toHaveLength(1);
    expect(afterSeven.filter((k) => k === 'financial.paid')).toHaveLength(1);

    rig.clock.advance(24 * HOUR);
    await fire();
    await fire();
    expect((await t.put(`/activities/${activity.id}/complete`)).status).toBe(200);
    await fire();
    const all = requestsFor(receiver, hookId).map(payloadOf);
    const kinds = all.map((p) => p.type).sort();
    expect(kinds).toEqual(
      [
        'activity.created',
        'activity.due_soon',
        'activity.overdue',
        'activity.completed',
        'financial.created',
        'financial.created',
        'financial.paid',
        'financial.overdue',
      ].sort(),
    );
    // The overdue record is the unpaid one, and each event id arrived once.
    expect(all.find((p) => p.type === 'financial.overdue')?.data.object).toMatchObject({ id: record.id, status: 'pending' });
    expect(new Set(all.map((p) => p.id)).size).toBe(all.length);
    for (const req of requestsFor(receiver, hookId)) {
      // Each was signed at its own (shifted) sending time; the HMAC is what is checked here.
      const sentAt = Number(req.headers['x-service-timestamp']);
      expect(verifyWebhookSignature(req.body, req.headers, secret, { now: sentAt })).toBe(true);
      expect(verifyWebhookSignature(req.body, req.headers, 'whsec_other', { now: sentAt })).toBe(false);
    }
  });
});
