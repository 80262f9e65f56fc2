import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventRow } from '../../src/storage/database.js';
import { DIALECTS } from '../support/dialects.js';
import type { Caller, Response } from '../support/harness.js';
import type { HttpsReceiver } from '../support/https-receiver.js';
import { createWebhookRig, payloadOf, requestsFor, type WebhookPayload, type WebhookRig } from '../support/webhooks.js';

/**
 * Events emitted by the deals and clients endpoints (DECISIONS.md, Events; docs/webhooks.md):
 * which kinds, in which order, with which payload, and to which webhooks.
 */

const EVENT_ID = /^evt_[0-9a-f]{32,}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const PAYLOAD_KEYS = ['api_version', 'created_at', 'data', 'id', 'team_id', 'type', 'webhook_id'];
const UNKNOWN_UUID = '0190f5c2-7e1a-7b3c-8d4e-5f6a7b8c9d0e';

interface Ctx {
  t: Caller;
  hookId: string;
}

interface Observed {
  res: Response;
  /** New rows of the `events` table for the team, sorted by id (ids are time-ordered). */
  rows: EventRow[];
  /** What the receiver got for each row, in the same order (one request per row). */
  payloads: WebhookPayload[];
}

describe.each(DIALECTS)('events emitted by the API (%s)', (dialect) => {
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

  async function setup(events: string[] = []): Promise<Ctx> {
    const t = await rig.team();
    const hook = await rig.hook(t.teamId, receiver.url, events);
    return { t, hookId: hook.id };
  }

  async function eventRows(teamId: string): Promise<EventRow[]> {
    const rows = await rig.db.kysely.selectFrom('events').selectAll().where('team_id', '=', teamId).execute();
    return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** Runs one request, then lets the worker send everything due, and collects what it produced. */
  async function observe(ctx: Ctx, op: () => Promise<Response>): Promise<Observed> {
    const before = new Set((await eventRows(ctx.t.teamId)).map((r) => r.id));
    const res = await op();
    const rows = (await eventRows(ctx.t.teamId)).filter((r) => !before.has(r.id));
    await rig.drain();
    const received = requestsFor(receiver, ctx.hookId).map(payloadOf);
    const payloads = rows.map((row) => {
      const matching = received.filter((p) => p.id === row.id);
      expect(matching, `event ${row.id} (${row.type}) delivered exactly once`).toHaveLength(1);
      return matching[0]!;
    });
    // Nothing arrives for this webhook that is not a row of the events table.
    const known = new Set((await eventRows(ctx.t.teamId)).map((r) => r.id));
    expect(received.filter((p) => !known.has(p.id))).toEqual([]);
    return { res, rows, payloads };
  }

  async function getDeal(t: Caller, id: string): Promise<Record<string, unknown>> {
    const res = await t.get(`/deals/${id}`);
    expect(res.status).toBe(200);
    return res.body.data as Record<string, unknown>;
  }

  async function getClient(t: Caller, id: string): Promise<Record<string, unknown>> {
    const res = await t.get(`/clients/${id}`);
    expect(res.status).toBe(200);
    return res.body.data as Record<string, unknown>;
  }

  /** The events of one operation: kinds in order, every payload exactly per contract. */
  function expectEvents(ctx: Ctx, obs: Observed, types: string[], object: Record<string, unknown>, previous: Record<string, unknown> | null): void {
    expect(obs.rows.map((r) => r.type)).toEqual(types);
    expect(obs.payloads.map((p) => p.type)).toEqual(types);
    expect(new Set(obs.payloads.map((p) => p.id)).size).toBe(types.length);
    const now = Date.now();
    for (const p of obs.payloads) {
      expect(Object.keys(p).sort()).toEqual(PAYLOAD_KEYS);
      expect(p.id).toMatch(EVENT_ID);
      expect(p.api_version).toBe('v1');
      expect(p.created_at).toMatch(TIMESTAMP);
      expect(Math.abs(Date.parse(p.created_at) - now)).toBeLessThan(10_000);
      expect(p.team_id).toBe(ctx.t.teamId);
      expect(p.webhook_id).toBe(ctx.hookId);
      expect(Object.keys(p.data).sort()).toEqual(['object', 'previous_attributes']);
      expect(p.data.object).toStrictEqual(object);
      expect(p.data.previous_attributes).toStrictEqual(previous);
    }
  }

  function expectNothing(obs: Observed): void {
    expect(obs.rows).toEqual([]);
    expect(obs.payloads).toEqual([]);
  }

  async function newDeal(ctx: Ctx, body: Record<string, unknown> = {}): Promise<string> {
    const res = await ctx.t.post('/deals', { title: 'Jeep Compass 2024 — João Silva', phase: 'proposta', value: 189900, ...body });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  }

  async function newClient(ctx: Ctx, body: Record<string, unknown> = {}): Promise<string> {
    const res = await ctx.t.post('/clients', { type: 'PF', name: 'João Silva', cpf: '529.982.247-25', ...body });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  }

  describe('deals', () => {
    it('POST /deals emits deal.created with previous_attributes null', async () => {
      const ctx = await setup();
      const obs = await observe(ctx, () => ctx.t.post('/deals', { title: 'Fiat Toro — Ana', phase: 'qualificado', tags: ['troca'] }));
      expect(obs.res.status).toBe(201);
      expectEvents(ctx, obs, ['deal.created'], await getDeal(ctx.t, obs.res.body.data.id), null);
    });

    it('PUT changing the title emits deal.updated only, previous {title}', async () => {
      const ctx = await setup();
      const id = await newDeal(ctx);
      const obs = await observe(ctx, () => ctx.t.put(`/deals/${id}`, { title: 'Jeep Compass Longitude 2024' }));
      expect(obs.res.status).toBe(200);
      expectEvents(ctx, obs, ['deal.updated'], await getDeal(ctx.t, id), { title: 'Jeep Compass 2024 — João Silva' });
    });

    it('PUT changing the phase emits deal.updated then deal.phase_changed, previous {phase, probability}', async () => {
      const ctx = await setup();
      const id = await newDeal(ctx);
      const obs = await observe(ctx, () => ctx.t.put(`/deals/${id}`, { phase: 'negociacao' }));
      expect(obs.res.status).toBe(200);
      expectEvents(ctx, obs, ['deal.updated', 'deal.phase_changed'], await getDeal(ctx.t, id), { phase: 'proposta', probability: 50 });
    });

    it('PUT changing the phase with the same explicit probability: previous {phase} only', async () => {
      const ctx = await setup();
      const id = await newDeal(ctx);
      const obs = await observe(ctx, () => ctx.t.put(`/deals/${id}`, { phase: 'negociacao', probability: 50 }));
      expect(obs.res.status).toBe(200);
      expectEvents(ctx, obs, ['deal.updated', 'deal.phase_changed'], await getDeal(ctx.t, id), { phase: 'proposta' });
    });

    it('PUT status ganho emits deal.updated then deal.won, previous {status}', async () => {
      const ctx = await setup();
      const id = await newDeal(ctx);
      const obs = await observe(ctx, () => ctx.t.put(`/deals/${id}`, { status: 'ganho' }));
      expect(obs.res.status).toBe(200);
      expectEvents(ctx, obs, ['deal.updated', 'deal.won'], await getDeal(ctx.t, id), { status: 'ativo' });
    });

    it('PUT phase + ganho emits deal.updated, deal.phase_changed, deal.won in that order', async () => {
      const ctx = await setup();
      const id = await newDeal(ctx);
      const obs = await observe(ctx, () => ctx.t.put(`/deals/${id}`, { phase: 'fechamento', status: 'ganho' }));
      expect(obs.res.status).toBe(200);
      expectEvents(ctx, obs, ['deal.updated', 'deal.phase_changed', 'deal.won'], await getDeal(ctx.t, id), {
        phase: 'proposta',
        probability: 50,
        status: 'ativo',
      });
    });

    it('PUT status perdido emits deal.updated then deal.lost, previous {status, loss_reason}', async () => {
      const ctx = await setup();
      const id = await newDeal(ctx);
      const obs = await observe(ctx, () => ctx.t.put(`/deals/${id}`, { status: 'perdido', loss_reason: 'Preço acima do orçamento' }));
      expect(obs.res.status).toBe(200);
      expectEvents(ctx, obs, ['deal.updated', 'deal.lost'], await getDeal(ctx.t, id), { status: 'ativo', loss_reason: null });
    });

    it('PUT changing client_id carries the earlier embedded client in previous_attributes', async () => {
      const ctx = await setup();
      const clientId = await newClient(ctx);
      const id = await newDeal(ctx);
      const obs = await observe(ctx, () => ctx.t.put(`/deals/${id}`, { client_id: clientId }));
      expect(obs.res.status).toBe(200);
      expectEvents(ctx, obs, ['deal.updated'], await getDeal(ctx.t, id), { client_id: null, client: null });
    });

    it('DELETE emits deal.updated with previous {status}; a second DELETE emits nothing', async () => {
      const ctx = await setup();
      const id = await newDeal(ctx);
      await ctx.t.put(`/deals/${id}`, { status: 'ganho' });
      const obs = await observe(ctx, () => ctx.t.delete(`/deals/${id}`));
      expect(obs.res.status).toBe(200);
      const archived = await getDeal(ctx.t, id);
      expect(archived.status).toBe('arquivado');
      expectEvents(ctx, obs, ['deal.updated'], archived, { status: 'ganho' });

      const again = await observe(ctx, () => ctx.t.delete(`/deals/${id}`));
      expect(again.res.status).toBe(200);
      expectNothing(again);
    });

    it('a PUT that changes nothing emits nothing', async () => {
      const ctx = await setup();
      const id = await newDeal(ctx, { tags: ['troca'] });
      const obs = await observe(ctx, () =>
        ctx.t.put(`/deals/${id}`, { title: 'Jeep Compass 2024 — João Silva', phase: 'proposta', value: 189900, tags: ['troca'] }),
      );
      expect(obs.res.status).toBe(200);
      expectNothing(obs);
    });

    it('failed requests (400, 404) emit nothing', async () => {
      const ctx = await setup();
      const id = await newDeal(ctx);
      const failures: Array<[number, () => Promise<Response>]> = [
        [400, () => ctx.t.post('/deals', { description: 'sem título' })],
        [400, () => ctx.t.put(`/deals/${id}`, {})],
        [400, () => ctx.t.put(`/deals/${id}`, { title: 'Novo título', priority: 'urgente' })],
        [400, () => ctx.t.put(`/deals/${id}`, { title: 'Novo título', phase: 'inexistente' })],
        [400, () => ctx.t.put(`/deals/${id}`, { title: 'Novo título', client_id: UNKNOWN_UUID })],
        [400, () => ctx.t.put(`/deals/${id}`, { title: 'Novo título', probability: 101 })],
        [404, () => ctx.t.put(`/deals/${UNKNOWN_UUID}`, { title: 'Novo título' })],
        [404, () => ctx.t.delete(`/deals/${UNKNOWN_UUID}`)],
      ];
      for (const [status, op] of failures) {
        const obs = await observe(ctx, op);
        expect(obs.res.status).toBe(status);
        expectNothing(obs);
      }
      expect((await getDeal(ctx.t, id)).title).toBe('Jeep Compass 2024 — João Silva');
    });
  });

  describe('clients', () => {
    it('POST /clients emits client.created with previous_attributes null', async () => {
      const ctx = await setup();
      const obs = await observe(ctx, () =>
        ctx.t.post('/clients', { type: 'PF', name: 'Maria Souza', cpf: '111.444.777-35', address: { city: 'São Paulo' }, tags: ['vip'] }),
      );
      expect(obs.res.status).toBe(201);
      expectEvents(ctx, obs, ['client.created'], await getClient(ctx.t, obs.res.body.data.id), null);
    });

    it('PUT emits client.updated with the earlier values of the changed attributes only', async () => {
      const ctx = await setup();
      const id = await newClient(ctx, { email: 'joao@example.com' });
      const obs = await observe(ctx, () => ctx.t.put(`/clients/${id}`, { email: 'joao.silva@example.com', segment: 'vip', name: 'João Silva' }));
      expect(obs.res.status).toBe(200);
      expectEvents(ctx, obs, ['client.updated'], await getClient(ctx.t, id), { email: 'joao@example.com', segment: null });
    });

    it('DELETE emits client.deactivated; a second DELETE emits nothing', async () => {
      const ctx = await setup();
      const id = await newClient(ctx);
      const obs = await observe(ctx, () => ctx.t.delete(`/clients/${id}`));
      expect(obs.res.status).toBe(200);
      const inactive = await getClient(ctx.t, id);
      expect(inactive.status).toBe('inactive');
      expectEvents(ctx, obs, ['client.deactivated'], inactive, { status: 'active' });

      const again = await observe(ctx, () => ctx.t.delete(`/clients/${id}`));
      expect(again.res.status).toBe(200);
      expectNothing(again);
    });

    it('PUT on an inactive client emits client.updated with previous status inactive (reactivation)', async () => {
      const ctx = await setup();
      const id = await newClient(ctx);
      expect((await ctx.t.delete(`/clients/${id}`)).status).toBe(200);
      const obs = await observe(ctx, () => ctx.t.put(`/clients/${id}`, { notes: 'Voltou a comprar' }));
      expect(obs.res.status).toBe(200);
      const active = await getClient(ctx.t, id);
      expect(active.status).toBe('active');
      expectEvents(ctx, obs, ['client.updated'], active, { notes: null, status: 'inactive' });
    });

    it('PUT on an inactive client that only repeats values still reactivates: previous {status}', async () => {
      const ctx = await setup();
      const id = await newClient(ctx);
      expect((await ctx.t.delete(`/clients/${id}`)).status).toBe(200);
      const obs = await observe(ctx, () => ctx.t.put(`/clients/${id}`, { name: 'João Silva' }));
      expect(obs.res.status).toBe(200);
      expectEvents(ctx, obs, ['client.updated'], await getClient(ctx.t, id), { status: 'inactive' });
    });

    it('a PUT that changes nothing emits nothing', async () => {
      const ctx = await setup();
      const id = await newClient(ctx, { segment: 'vip' });
      const obs = await observe(ctx, () => ctx.t.put(`/clients/${id}`, { name: 'João Silva', segment: 'vip', cpf: '529.982.247-25' }));
      expect(obs.res.status).toBe(200);
      expectNothing(obs);
    });

    it('failed requests (400, 404, duplicate CPF 422) emit nothing', async () => {
      const ctx = await setup();
      const id = await newClient(ctx);
      const other = await newClient(ctx, { name: 'Maria Souza', cpf: '111.444.777-35' });
      const failures: Array<[number, () => Promise<Response>]> = [
        [422, () => ctx.t.post('/clients', { type: 'PF', name: 'Outro João', cpf: '52998224725' })],
        [422, () => ctx.t.put(`/clients/${other}`, { name: 'Maria S.', cpf: '529.982.247-25' })],
        [400, () => ctx.t.post('/clients', { type: 'PF' })],
        [400, () => ctx.t.put(`/clients/${id}`, {})],
        [400, () => ctx.t.put(`/clients/${id}`, { name: 'João S.', segment: 'ouro' })],
        [404, () => ctx.t.put(`/clients/${UNKNOWN_UUID}`, { name: 'Ninguém' })],
        [404, () => ctx.t.delete(`/clients/${UNKNOWN_UUID}`)],
      ];
      for (const [status, op] of failures) {
        const obs = await observe(ctx, op);
        expect(obs.res.status).toBe(status);
        expectNothing(obs);
      }
      expect((await getClient(ctx.t, other)).name).toBe('Maria Souza');
    });
  });

  describe('which webhooks receive an event', () => {
    it('a webhook subscribed to some kinds receives only those; an empty list receives all', async () => {
      const t = await rig.team();
      const all = await rig.hook(t.teamId, receiver.url, []);
      const won = await rig.hook(t.teamId, receiver.url, ['deal.won']);
      const phase = await rig.hook(t.teamId, receiver.url, ['deal.phase_changed']);
      const clients = await rig.hook(t.teamId, receiver.url, ['client.created', 'deal.lost']);

      const deal = await t.post('/deals', { title: 'Onix Plus — Carla', phase: 'proposta' });
      expect(deal.status).toBe(201);
      expect((await t.put(`/deals/${deal.body.data.id}`, { phase: 'fechamento', status: 'ganho' })).status).toBe(200);
      expect((await t.post('/clients', { type: 'PJ', name: 'Locadora Sul Ltda' })).status).toBe(201);
      await rig.drain();

      const types = (hookId: string) =>
        requestsFor(receiver, hookId)
          .map((r) => payloadOf(r).type)
          .sort();
      expect(types(all.id)).toEqual(['client.created', 'deal.created', 'deal.phase_changed', 'deal.updated', 'deal.won']);
      expect(types(won.id)).toEqual(['deal.won']);
      expect(types(phase.id)).toEqual(['deal.phase_changed']);
      expect(types(clients.id)).toEqual(['client.created']);

      // The same event id goes to every webhook that takes it.
      const wonId = payloadOf(requestsFor(receiver, won.id)[0]!).id;
      expect(requestsFor(receiver, all.id).map((r) => payloadOf(r).id)).toContain(wonId);
      expect(requestsFor(receiver, won.id)[0]!.headers['x-service-event-id']).toBe(wonId);
    });

    it("team isolation: a team's webhook never receives another team's events", async () => {
      const a = await rig.team();
      const b = await rig.team();
      const hookA = await rig.hook(a.teamId, receiver.url);
      const hookB = await rig.hook(b.teamId, receiver.url);

      const deal = await a.post('/deals', { title: 'Hilux — Pedro' });
      expect(deal.status).toBe(201);
      expect((await a.put(`/deals/${deal.body.data.id}`, { status: 'perdido' })).status).toBe(200);
      expect((await a.post('/clients', { type: 'PF', name: 'Pedro Lima' })).status).toBe(201);
      await rig.drain();

      expect(
        requestsFor(receiver, hookA.id)
          .map((r) => payloadOf(r).type)
          .sort(),
      ).toEqual(['client.created', 'deal.created', 'deal.lost', 'deal.updated']);
      expect(requestsFor(receiver, hookB.id)).toEqual([]);

      expect((await b.post('/deals', { title: 'Corolla — Bia' })).status).toBe(201);
      await rig.drain();
      expect(requestsFor(receiver, hookB.id).map((r) => payloadOf(r).type)).toEqual(['deal.created']);
      expect(requestsFor(receiver, hookA.id)).toHaveLength(4);

      // Across this whole file: every delivery carries the team of the webhook it went to.
      const hookTeams = new Map((await rig.db.kysely.selectFrom('webhooks').select(['id', 'team_id']).execute()).map((w) => [w.id, w.team_id] as const));
      for (const req of receiver.requests) {
        const p = payloadOf(req);
        expect(p.team_id).toBe(hookTeams.get(p.webhook_id));
      }
    });

    it('a disabled webhook receives nothing (the events are still recorded)', async () => {
      const t = await rig.team();
      const disabled = await rig.hook(t.teamId, receiver.url);
      const enabled = await rig.hook(t.teamId, receiver.url);
      await rig.webhooks.setStatus(disabled.id, 'disabled');

      const deal = await t.post('/deals', { title: 'Renegade — Lucas' });
      expect(deal.status).toBe(201);
      expect((await t.put(`/deals/${deal.body.data.id}`, { status: 'ganho' })).status).toBe(200);
      await rig.drain();

      expect(requestsFor(receiver, disabled.id)).toEqual([]);
      expect(
        requestsFor(receiver, enabled.id)
          .map((r) => payloadOf(r).type)
          .sort(),
      ).toEqual(['deal.created', 'deal.updated', 'deal.won']);
      expect((await eventRows(t.teamId)).map((r) => r.type)).toEqual(['deal.created', 'deal.updated', 'deal.won']);
    });
  });
});
