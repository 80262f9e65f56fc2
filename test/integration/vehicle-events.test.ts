import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import type { HttpsReceiver } from '../support/https-receiver.js';
import { createWebhookRig, payloadOf, requestsFor, type WebhookRig } from '../support/webhooks.js';

/**
 * A vehicle's life (created, moved, repriced, sold, archived) produces exactly the documented
 * events, signed and delivered like every other event; a webhook may select vehicle kinds.
 */
describe.each(DIALECTS)('vehicle events delivered (%s)', (dialect) => {
  let rig: WebhookRig;
  let receiver: HttpsReceiver;

  beforeAll(async () => {
    rig = await createWebhookRig(dialect);
    receiver = await rig.receiver();
  });
  afterEach(async () => {
    await rig.settle();
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('created, moved, repriced, sold and archived: the documented kinds, each signed with the secret', async () => {
    const t = await rig.team();
    const hook = await rig.hook(t.teamId, receiver.url);
    const v = (await t.post('/vehicles', { title: 'Jeep Compass Longitude 2023', brand: 'Jeep', model: 'Compass', price: 159900, plate: 'RIO2A18' })).body.data;
    expect((await t.put(`/vehicles/${v.id}`, { phase: 'disponivel' })).status).toBe(200);
    expect((await t.put(`/vehicles/${v.id}`, { price: 154900 })).status).toBe(200);
    expect((await t.put(`/vehicles/${v.id}`, { status: 'vendido' })).status).toBe(200);
    expect((await t.delete(`/vehicles/${v.id}`)).status).toBe(200);
    await rig.drain();
    // Deliveries run in parallel: the event ids (time-ordered) give the order of the events.
    const received = requestsFor(receiver, hook.id).sort((a, b) => (payloadOf(a).id < payloadOf(b).id ? -1 : 1));
    const payloads = received.map(payloadOf);
    expect(payloads.map((p) => p.type)).toEqual([
      'vehicle.created',
      'vehicle.updated',
      'vehicle.phase_changed',
      'vehicle.updated',
      'vehicle.price_changed',
      'vehicle.updated',
      'vehicle.sold',
      'vehicle.removed',
    ]);
    for (const req of received) {
      const timestamp = String(req.headers['x-service-timestamp']);
      const expected = createHmac('sha256', hook.secret).update(`${timestamp}.${req.body}`).digest('hex');
      expect(req.headers['x-service-signature']).toBe(expected);
    }
    for (const p of payloads) {
      expect(Object.keys(p.data.object as object).sort()).toEqual(['brand', 'created_at', 'id', 'model', 'phase', 'price', 'status', 'title']);
      expect(p.team_id).toBe(t.teamId);
    }
    expect(payloads.map((p) => p.data.previous_attributes)).toEqual([
      null,
      { phase: 'entrada' },
      { phase: 'entrada' },
      { price: 159900 },
      { price: 159900 },
      { status: 'ativo', sold_at: null },
      { status: 'ativo', sold_at: null },
      { status: 'vendido', sold_at: expect.any(String) },
    ]);
  });

  it('a webhook selecting vehicle.sold receives only that kind', async () => {
    const t = await rig.team();
    const hook = await rig.hook(t.teamId, receiver.url, ['vehicle.sold']);
    const v = (await t.post('/vehicles', { title: 'Fiat Strada', brand: 'Fiat', model: 'Strada' })).body.data;
    await t.put(`/vehicles/${v.id}`, { status: 'vendido', price: 109900 });
    await rig.drain();
    expect(requestsFor(receiver, hook.id).map((r) => payloadOf(r).type)).toEqual(['vehicle.sold']);
  });
});
