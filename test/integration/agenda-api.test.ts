import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock, type FakeClock } from '../support/clock.js';
import { DIALECTS } from '../support/dialects.js';
import { expectError } from '../support/expect.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';
import { ANNOUNCED_ENDPOINTS, AUTH_MESSAGES, UNKNOWN_ID, bearer, send } from '../support/security.js';

/**
 * The announced endpoints as an opt-in preview (issue 12 point 5): without the preview every path
 * answers 501 exactly as before, whatever the key's scopes, query or body; with it, the team's keys
 * get the contract's methods and paths with their own scopes, the shared list rules, the envelope,
 * Portuguese messages, and nothing of another team.
 */

const ALL_PREVIEW_SCOPES = ['financial:read', 'financial:write', 'activities:read', 'activities:write', 'webhooks:read', 'webhooks:write'];
const WORKING_SCOPES = ['deals:read', 'deals:write', 'clients:read', 'clients:write'];

describe.each(DIALECTS)('preview API (%s)', (dialect) => {
  let h: Harness;
  let clock: FakeClock;

  beforeAll(async () => {
    clock = fakeClock('2026-11-24T12:00:00.000Z', { step: 1 });
    h = await createHarness(dialect, { clock });
  });
  afterAll(() => h?.close());

  /** A team with the given preview areas on and a key holding every scope. */
  async function previewTeam(areas = ['financial', 'activities', 'webhooks']): Promise<Caller> {
    const t = await h.team({ scopes: [...WORKING_SCOPES, ...ALL_PREVIEW_SCOPES] });
    await h.services.teams.setPreview(t.teamId, { enable: areas });
    return t;
  }

  describe('without the preview: exactly as before', () => {
    it('every announced path answers 501 NOT_IMPLEMENTED for any valid key, any body, any query', async () => {
      const t = await h.team({ scopes: [...WORKING_SCOPES, ...ALL_PREVIEW_SCOPES] });
      const plain = await h.team();
      for (const [method, path] of ANNOUNCED_ENDPOINTS) {
        const url = path.replace(':id', UNKNOWN_ID);
        for (const key of [t.key, plain.key]) {
          for (const body of method === 'POST' || method === 'PUT' ? [{ descricao: 'x' }, { type: 'bogus', amount: -1 }] : [undefined]) {
            expectError(await send(h, method, url, { authorization: bearer(key), body }), 501, 'NOT_IMPLEMENTED', AUTH_MESSAGES.notImplemented);
          }
          expectError(await send(h, method, `${url}?page=abc&sort=zzz`, { authorization: bearer(key) }), 501, 'NOT_IMPLEMENTED', AUTH_MESSAGES.notImplemented);
        }
        expectError(await send(h, method, url, { authorization: null }), 401, 'UNAUTHORIZED');
      }
    });

    it('turning one area on leaves the others at 501; turning it off restores 501', async () => {
      const t = await previewTeam(['financial']);
      expect((await t.get('/financial')).status).toBe(200);
      expectError(await t.get('/activities'), 501, 'NOT_IMPLEMENTED');
      expectError(await t.get('/webhooks'), 501, 'NOT_IMPLEMENTED');
      await h.services.teams.setPreview(t.teamId, { disable: ['financial'] });
      expectError(await t.get('/financial'), 501, 'NOT_IMPLEMENTED');
      // Another team is not affected by this one's preview.
      const other = await h.team({ scopes: ALL_PREVIEW_SCOPES });
      await h.services.teams.setPreview(t.teamId, { enable: ['financial'] });
      expectError(await other.get('/financial'), 501, 'NOT_IMPLEMENTED');
    });

    it('unknown preview areas are refused', async () => {
      const t = await h.team();
      await expect(h.services.teams.setPreview(t.teamId, { enable: ['vehicles'] })).rejects.toMatchObject({ statusCode: 400 });
    });
  });

  describe('scopes (not granted by default)', () => {
    const ROUTES: Array<[string, string, string, unknown?]> = [
      ['GET', '/financial', 'financial:read'],
      ['GET', '/financial/summary', 'financial:read'],
      ['GET', '/financial/overdue', 'financial:read'],
      ['GET', `/financial/${UNKNOWN_ID}`, 'financial:read'],
      ['POST', '/financial', 'financial:write', { type: 'cost', category: 'mecanica', description: 'x', amount: 1, due_date: '2026-12-01' }],
      ['PUT', `/financial/${UNKNOWN_ID}`, 'financial:write', { notes: 'x' }],
      ['DELETE', `/financial/${UNKNOWN_ID}`, 'financial:write'],
      ['GET', '/activities', 'activities:read'],
      ['GET', '/activities/overdue', 'activities:read'],
      ['GET', `/activities/${UNKNOWN_ID}`, 'activities:read'],
      ['POST', '/activities', 'activities:write', { type: 'note', title: 'x' }],
      ['PUT', `/activities/${UNKNOWN_ID}`, 'activities:write', { title: 'x' }],
      ['DELETE', `/activities/${UNKNOWN_ID}`, 'activities:write'],
      ['PUT', `/activities/${UNKNOWN_ID}/complete`, 'activities:write'],
      ['GET', '/webhooks', 'webhooks:read'],
      ['POST', '/webhooks', 'webhooks:write', { url: 'https://example.com/hook' }],
      ['PUT', `/webhooks/${UNKNOWN_ID}`, 'webhooks:write', { status: 'disabled' }],
      ['DELETE', `/webhooks/${UNKNOWN_ID}`, 'webhooks:write'],
    ];

    it('a default key gets 403 on every preview route; a key with exactly the route scope passes the gate', async () => {
      const t = await previewTeam();
      const defaultKey = await h.key(t.teamId);
      for (const [method, path, scope, body] of ROUTES) {
        const res = await send(h, method as never, path, { authorization: bearer(defaultKey.key), body });
        expectError(res, 403, 'FORBIDDEN', AUTH_MESSAGES.forbidden);
        const allBut = await h.key(
          t.teamId,
          [...WORKING_SCOPES, ...ALL_PREVIEW_SCOPES].filter((s) => s !== scope),
        );
        expectError(await send(h, method as never, path, { authorization: bearer(allBut.key), body }), 403, 'FORBIDDEN');
        const only = await h.key(t.teamId, [scope]);
        const passed = await send(h, method as never, path, { authorization: bearer(only.key), body });
        expect([200, 201, 404], `${method} ${path}: ${passed.text}`).toContain(passed.status);
      }
    });
  });

  describe('activities', () => {
    it('create, read, list, update, complete, cancel; events; Portuguese messages', async () => {
      const t = await previewTeam();
      expectError(
        await t.post('/activities', { title: 'Sem tipo', due_at: '2026-11-30T12:00:00Z' }),
        400,
        'VALIDATION_ERROR',
        "Campo 'type' é obrigatório. Use: task, deadline, meeting, call, email, note",
        {
          field: 'type',
        },
      );
      expectError(
        await t.post('/activities', { type: 'visita', title: 'x' }),
        400,
        'VALIDATION_ERROR',
        "Campo 'type' deve ser um de: task, deadline, meeting, call, email, note",
        {
          field: 'type',
        },
      );
      expectError(
        await t.post('/activities', { type: 'task', title: 'Sem prazo' }),
        400,
        'VALIDATION_ERROR',
        "Campo 'due_at' é obrigatório (exceto para o tipo 'note')",
      );
      expectError(await t.post('/activities', { type: 'task', title: 'x', due_at: 'amanhã' }), 400, 'VALIDATION_ERROR', "Campo 'due_at' tem formato inválido");
      expectError(
        await t.post('/activities', { type: 'task', title: 'x', due_at: '2026-11-30T12:00:00Z', priority: 'urgente' }),
        400,
        'VALIDATION_ERROR',
        'Prioridade inválida',
      );

      const created = await t.post('/activities', { type: 'call', title: 'Ligar para Ana', due_at: '2026-11-26T15:00:00-03:00', responsible_id: 'vendedor-1' });
      expect(created.status, created.text).toBe(201);
      const a = created.body.data;
      expect(a).toMatchObject({ type: 'call', status: 'pending', priority: 'media', due_at: '2026-11-26T18:00:00Z', completed_at: null });
      expect((await t.get(`/activities/${a.id}`)).body.data).toEqual(a);

      const list = await t.get('/activities?sort=due_at&limit=5&type=call');
      expect(list.body.pagination).toEqual({ page: 1, limit: 5, total: 1, pages: 1 });
      expectError(await t.get('/activities?sort=banana'), 400, 'VALIDATION_ERROR', undefined, { field: 'sort' });

      const put = await t.put(`/activities/${a.id}`, { status: 'in_progress', title: 'Ligar para Ana (financiamento)' });
      expect(put.status, put.text).toBe(200);
      expect(put.body.data).toMatchObject({ status: 'in_progress', title: 'Ligar para Ana (financiamento)' });
      expectError(await t.put(`/activities/${a.id}`, {}), 400, 'VALIDATION_ERROR', 'Nenhum campo para atualizar');

      const done = await t.put(`/activities/${a.id}/complete`);
      expect(done.status, done.text).toBe(200);
      expect(done.body.data).toMatchObject({ status: 'completed', completed_at: '2026-11-24T12:00:00Z' });

      const b = (await t.post('/activities', { type: 'meeting', title: 'Reunião', due_at: '2026-11-20T12:00:00Z' })).body.data;
      expect((await t.get('/activities/overdue')).body.data.map((x: { id: string }) => x.id)).toEqual([b.id]);
      const del = await t.delete(`/activities/${b.id}`);
      expect(del.body.data.status).toBe('cancelled');
      expectError(await t.put(`/activities/${b.id}/complete`), 422, 'VALIDATION_ERROR', 'Atividade cancelada não pode ser concluída');
      expect((await t.get('/activities/overdue')).body.data).toEqual([]);
      expect((await t.get('/activities?status=cancelled')).body.data.map((x: { id: string }) => x.id)).toEqual([b.id]);

      const types = (await h.testDb.db.kysely.selectFrom('events').select('type').where('team_id', '=', t.teamId).orderBy('id').execute()).map((e) => e.type);
      expect(types).toEqual(['activity.created', 'activity.completed', 'activity.created']);
    });

    it("another team's activity is unknown on every :id route; a link to another team's deal is refused", async () => {
      const t = await previewTeam();
      const other = await previewTeam();
      const theirs = (await other.post('/activities', { type: 'note', title: 'Deles' })).body.data;
      const foreignDeal = (await other.post('/deals', { title: 'Negócio deles' })).body.data;
      for (const res of [
        await t.get(`/activities/${theirs.id}`),
        await t.put(`/activities/${theirs.id}`, { title: 'x' }),
        await t.delete(`/activities/${theirs.id}`),
        await t.put(`/activities/${theirs.id}/complete`),
      ]) {
        expectError(res, 404, 'NOT_FOUND', 'Atividade não encontrada');
      }
      expect((await t.get('/activities')).body.data).toEqual([]);
      // Their overdue activity is in their overdue list only.
      const late = (await other.post('/activities', { type: 'task', title: 'Atrasada deles', due_at: '2026-11-01T12:00:00Z' })).body.data;
      expect((await other.get('/activities/overdue')).body.data.map((x: { id: string }) => x.id)).toEqual([late.id]);
      expect((await t.get('/activities/overdue')).body.data).toEqual([]);
      expect((await t.get(`/activities?deal_id=${foreignDeal.id}`)).body.data).toEqual([]);
      expectError(await t.post('/activities', { type: 'note', title: 'x', deal_id: foreignDeal.id }), 400, 'VALIDATION_ERROR', 'Negócio não encontrado', {
        field: 'deal_id',
      });
      expect((await other.get(`/activities/${theirs.id}`)).body.data.title).toBe('Deles');
    });

    it('POST honours Idempotency-Key', async () => {
      const t = await previewTeam();
      const req = {
        method: 'POST' as const,
        url: '/api/v1/activities',
        headers: { authorization: bearer(t.key), 'idempotency-key': 'atv-1' },
        payload: { type: 'note', title: 'Uma vez' },
      };
      const first = await h.inject(req);
      const again = await h.inject(req);
      expect(first.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect((await t.get('/activities')).body.pagination.total).toBe(1);
    });
  });

  describe('financial records', () => {
    const rec = { type: 'revenue', category: 'venda-veiculo', description: 'Venda Onix', amount: 65990.9, due_date: '2026-11-30' };

    it('create, read, list, pay by PUT, cancel, overdue, summary; Portuguese messages', async () => {
      const t = await previewTeam();
      expectError(await t.post('/financial', { ...rec, type: undefined }), 400, 'VALIDATION_ERROR', "Campo 'type' é obrigatório. Use: revenue, expense, cost", {
        field: 'type',
      });
      expectError(
        await t.post('/financial', { ...rec, category: 'aluguel' }),
        400,
        'VALIDATION_ERROR',
        "Categoria inválida para o tipo 'revenue'. Use: venda-veiculo, comissao, financiamento, seguro",
        { field: 'category' },
      );
      expectError(await t.post('/financial', { ...rec, amount: 0 }), 400, 'VALIDATION_ERROR', undefined, { field: 'amount' });
      expectError(
        await t.post('/financial', { ...rec, due_date: '30/11/2026' }),
        400,
        'VALIDATION_ERROR',
        "Campo 'due_date' deve ser uma data válida no formato YYYY-MM-DD",
      );
      expectError(await t.post('/financial', { ...rec, description: undefined }), 400, 'VALIDATION_ERROR', "Campo 'description' é obrigatório");

      const created = await t.post('/financial', rec);
      expect(created.status, created.text).toBe(201);
      const r = created.body.data;
      expect(r).toMatchObject({ ...rec, status: 'pending', paid_at: null, payment_method: null, currency: 'BRL' });
      expect((await t.get(`/financial/${r.id}`)).body.data).toEqual(r);

      expectError(
        await t.put(`/financial/${r.id}`, { status: 'paid' }),
        400,
        'VALIDATION_ERROR',
        "Campo 'payment_method' é obrigatório para marcar como pago",
        {
          field: 'payment_method',
        },
      );
      expectError(await t.put(`/financial/${r.id}`, { status: 'paid', payment_method: 'bitcoin' }), 400, 'VALIDATION_ERROR', undefined, {
        field: 'payment_method',
      });
      const paid = await t.put(`/financial/${r.id}`, { status: 'paid', payment_method: 'pix' });
      expect(paid.status, paid.text).toBe(200);
      expect(paid.body.data).toMatchObject({ status: 'paid', payment_method: 'pix', paid_at: expect.stringMatching(/Z$/) });

      const late = (await t.post('/financial', { type: 'expense', category: 'aluguel', description: 'Aluguel', amount: 8500, due_date: '2026-11-10' })).body
        .data;
      expect((await t.get('/financial/overdue')).body.data.map((x: { id: string }) => x.id)).toEqual([late.id]);
      const summary = await t.get('/financial/summary?from=2026-11-01&to=2026-11-30');
      expect(summary.status, summary.text).toBe(200);
      expect(summary.body.data.totals).toEqual({ revenue: 65990.9, expense: 8500, cost: 0, net: 57490.9 });
      expect(summary.body.data.by_status.overdue).toEqual({ count: 1, amount: 8500 });
      expectError(
        await t.get('/financial/summary?from=2026-12-01&to=2026-11-01'),
        400,
        'VALIDATION_ERROR',
        "Parâmetro 'from' deve ser anterior ou igual a 'to'",
      );
      expectError(await t.get('/financial/summary?from=ontem'), 400, 'VALIDATION_ERROR', undefined, { field: 'from' });

      const del = await t.delete(`/financial/${late.id}`);
      expect(del.body.data.status).toBe('cancelled');
      expectError(
        await t.put(`/financial/${late.id}`, { status: 'paid', payment_method: 'pix' }),
        422,
        'VALIDATION_ERROR',
        'Registro financeiro cancelado não pode ser pago',
      );
      expect((await t.get('/financial')).body.data.map((x: { id: string }) => x.id)).toEqual([r.id]);
      expect((await t.get('/financial?type=expense&status=cancelled')).body.pagination.total).toBe(1);

      const types = (await h.testDb.db.kysely.selectFrom('events').select('type').where('team_id', '=', t.teamId).orderBy('id').execute()).map((e) => e.type);
      expect(types).toEqual(['financial.created', 'financial.paid', 'financial.created']);
    });

    it("another team's record is unknown on every :id route", async () => {
      const t = await previewTeam();
      const other = await previewTeam();
      const theirs = (await other.post('/financial', rec)).body.data;
      for (const res of [
        await t.get(`/financial/${theirs.id}`),
        await t.put(`/financial/${theirs.id}`, { notes: 'x' }),
        await t.delete(`/financial/${theirs.id}`),
      ]) {
        expectError(res, 404, 'NOT_FOUND', 'Registro financeiro não encontrado');
      }
      expect((await t.get('/financial/summary?from=2026-11-01&to=2026-11-30')).body.data.totals.revenue).toBe(0);
      const late = (await other.post('/financial', { ...rec, due_date: '2026-11-01' })).body.data;
      expect((await other.get('/financial/overdue')).body.data.map((x: { id: string }) => x.id)).toEqual([late.id]);
      expect((await t.get('/financial/overdue')).body.data).toEqual([]);
      expect((await t.get('/financial')).body.data).toEqual([]);
      expect((await other.get(`/financial/${theirs.id}`)).body.data.status).toBe('pending');
    });
  });

  describe('webhooks', () => {
    it('the secret is returned once, on creation; HTTPS only; update and delete; team isolation', async () => {
      const t = await previewTeam();
      const other = await previewTeam();
      expectError(await t.post('/webhooks', { url: 'http://example.com/hook' }), 400, 'VALIDATION_ERROR', 'A URL do webhook deve usar https://');
      expectError(await t.post('/webhooks', { url: 'https://example.com/hook', events: ['activity.everything'] }), 400, 'VALIDATION_ERROR');
      const created = await t.post('/webhooks', { url: 'https://example.com/hook', events: ['activity.overdue', 'financial.overdue'] });
      expect(created.status, created.text).toBe(201);
      expect(created.body.data.secret).toMatch(/^whsec_/);
      const id = created.body.data.id;
      const list = await t.get('/webhooks');
      expect(list.body.data).toHaveLength(1);
      expect(list.text).not.toContain(created.body.data.secret);
      const put = await t.put(`/webhooks/${id}`, { status: 'disabled', events: [] });
      expect(put.body.data).toMatchObject({ status: 'disabled', events: [] });
      expect(put.text).not.toContain(created.body.data.secret);
      expectError(await other.put(`/webhooks/${id}`, { status: 'enabled' }), 404, 'NOT_FOUND', 'Webhook não encontrado');
      expectError(await other.delete(`/webhooks/${id}`), 404, 'NOT_FOUND');
      expect((await other.get('/webhooks')).body.data).toEqual([]);
      expect((await t.delete(`/webhooks/${id}`)).body.data).toEqual({ id, deleted: true });
      expect((await t.get('/webhooks')).body.data).toEqual([]);
    });
  });

  describe('hostile input on the preview routes', () => {
    const HOSTILE: unknown[] = [
      null,
      0,
      -1,
      1e308,
      '',
      ' ',
      'x'.repeat(20_000),
      'nul\u0000',
      [],
      {},
      true,
      ['a'],
      { a: 1 },
      '2026-02-30',
      '9999-99-99T99:99:99Z',
    ];
    const BODIES: Array<[string, string, Record<string, unknown>]> = [
      [
        'POST',
        '/activities',
        {
          type: 'task',
          title: 'Alvo',
          due_at: '2026-12-01T12:00:00Z',
          priority: 'media',
          description: 'd',
          deal_id: null,
          client_id: null,
          vehicle_id: null,
          responsible_id: 'r',
        },
      ],
      [
        'POST',
        '/financial',
        {
          type: 'cost',
          category: 'mecanica',
          description: 'Alvo',
          amount: 10,
          due_date: '2026-12-01',
          payment_method: 'pix',
          notes: 'n',
          paid_at: null,
          status: 'pending',
        },
      ],
      ['POST', '/webhooks', { url: 'https://example.com/hostil', events: [] }],
    ];

    it('every field × hostile values: never a 500, always the envelope (2xx, 400 or 422)', async () => {
      const t = await previewTeam();
      const activity = (await t.post('/activities', { type: 'note', title: 'PUT alvo' })).body.data.id;
      const record = (await t.post('/financial', { type: 'cost', category: 'mecanica', description: 'PUT alvo', amount: 1, due_date: '2026-12-01' })).body.data
        .id;
      const cases: Array<[string, string, Record<string, unknown>]> = [
        ...BODIES,
        ['PUT', `/activities/${activity}`, BODIES[0]![2]],
        ['PUT', `/financial/${record}`, BODIES[1]![2]],
      ];
      for (const [method, path, valid] of cases) {
        for (const field of Object.keys(valid)) {
          for (const value of HOSTILE) {
            const res = await send(h, method as never, path, { authorization: bearer(t.key), body: { ...valid, [field]: value } });
            const where = `${method} ${path} ${field}=${JSON.stringify(value)?.slice(0, 40)}: ${res.text.slice(0, 200)}`;
            expect([200, 201, 400, 422], where).toContain(res.status);
            if (res.status >= 400) expect(res.body?.success === false && typeof res.body.error?.message === 'string', where).toBe(true);
          }
        }
      }
    });
  });
});
