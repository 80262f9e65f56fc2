import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/app/services.js';
import { AppError } from '../../src/domain/shared/errors.js';
import { scheduleOf } from '../../src/domain/schedule/schedule.repository.js';
import { fakeClock, type FakeClock } from '../support/clock.js';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Harness } from '../support/harness.js';

/**
 * The services of activities and financial records (issue 12 points 1-2): fields, defaults, links of
 * the same team, transitions, events through the outbox in the write's transaction, and the arming of
 * the time-driven events. The HTTP preview is tested in agenda-api.test.ts, the scheduler in scheduler.test.ts.
 */

const UNKNOWN_UUID = '0190f5c2-7e1a-7b3c-8d4e-5f6a7b8c9d0e';

/** The AppError a promise rejects with (status, code, message, field). */
async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  const e = error as AppError;
  return { status: e.statusCode, code: e.code, message: e.message, field: e.extras.field };
}

describe.each(DIALECTS)('activities and financial services (%s)', (dialect) => {
  let h: Harness;
  let s: Services;
  let clock: FakeClock;

  beforeAll(async () => {
    clock = fakeClock('2026-11-24T12:00:00.000Z', { step: 1 });
    h = await createHarness(dialect, { clock });
    s = h.services;
  });
  afterAll(() => h?.close());

  const events = (teamId: string) => h.testDb.db.kysely.selectFrom('events').selectAll().where('team_id', '=', teamId).orderBy('id').execute();
  const types = async (teamId: string) => (await events(teamId)).map((e) => e.type);

  describe('activities', () => {
    it('creates with the defaults: pending, priority media, no completion; activity.created carries the record', async () => {
      const t = await h.team();
      const a = await s.activities.create(t.teamId, { type: 'call', title: 'Ligar para Ana', due_at: '2026-11-26T15:00:00-03:00' });
      expect(a).toMatchObject({
        type: 'call',
        title: 'Ligar para Ana',
        status: 'pending',
        priority: 'media',
        due_at: '2026-11-26T18:00:00Z',
        completed_at: null,
        description: null,
      });
      const [created] = await events(t.teamId);
      expect(created?.type).toBe('activity.created');
      expect(JSON.parse(created!.object)).toEqual(a);
      expect(created?.previous_attributes).toBeNull();
      expect(await s.activities.get(t.teamId, a.id)).toEqual(a);
    });

    it('due_at is required except for notes', async () => {
      const t = await h.team();
      expect(await failure(s.activities.create(t.teamId, { type: 'task', title: 'Sem prazo' }))).toMatchObject({
        status: 400,
        code: 'VALIDATION_ERROR',
        field: 'due_at',
      });
      const note = await s.activities.create(t.teamId, { type: 'note', title: 'Cliente prefere WhatsApp' });
      expect(note.due_at).toBeNull();
      expect(await failure(s.activities.update(t.teamId, note.id, { type: 'task' }))).toMatchObject({ status: 400, field: 'due_at' });
    });

    it('links must name a deal or client of the same team', async () => {
      const t = await h.team();
      const other = await h.team();
      const deal = await s.deals.create(t.teamId, { title: 'Venda Onix' });
      const client = await s.clients.create(t.teamId, { type: 'PF', name: 'Ana' } as never);
      const foreign = await s.deals.create(other.teamId, { title: 'Outro time' });
      const a = await s.activities.create(t.teamId, {
        type: 'task',
        title: 'Proposta',
        due_at: '2026-11-30T12:00:00Z',
        deal_id: deal.id.toUpperCase(),
        client_id: client.id,
      });
      expect(a).toMatchObject({ deal_id: deal.id, client_id: client.id });
      expect(await failure(s.activities.create(t.teamId, { type: 'task', title: 'x', due_at: '2026-11-30T12:00:00Z', deal_id: foreign.id }))).toEqual({
        status: 400,
        code: 'VALIDATION_ERROR',
        message: 'Negócio não encontrado',
        field: 'deal_id',
      });
      expect(await failure(s.activities.create(t.teamId, { type: 'task', title: 'x', due_at: '2026-11-30T12:00:00Z', client_id: UNKNOWN_UUID }))).toMatchObject(
        {
          message: 'Cliente não encontrado',
          field: 'client_id',
        },
      );
      expect(await failure(s.activities.create(t.teamId, { type: 'task', title: 'x', due_at: '2026-11-30T12:00:00Z', vehicle_id: 'abc' }))).toMatchObject({
        message: 'Veículo não encontrado',
        field: 'vehicle_id',
      });
      // Vehicles: one of the team is accepted, another team's is unknown.
      const car = await s.vehicles.create(t.teamId, { title: 'Onix 2020', brand: 'Chevrolet', model: 'Onix' });
      const theirCar = await s.vehicles.create(other.teamId, { title: 'Argo 2021', brand: 'Fiat', model: 'Argo' });
      expect((await s.activities.update(t.teamId, a.id, { vehicle_id: car.id })).activity.vehicle_id).toBe(car.id);
      expect(await failure(s.activities.update(t.teamId, a.id, { vehicle_id: theirCar.id }))).toMatchObject({
        message: 'Veículo não encontrado',
        field: 'vehicle_id',
      });
      expect(
        await failure(
          s.financial.create(t.teamId, { type: 'cost', category: 'mecanica', description: 'x', amount: 1, due_date: '2026-12-01', vehicle_id: theirCar.id }),
        ),
      ).toMatchObject({
        field: 'vehicle_id',
      });
      // Another team cannot read it.
      expect(await failure(s.activities.get(other.teamId, a.id))).toMatchObject({ status: 404, message: 'Atividade não encontrada' });
    });

    it('complete sets completed_at and emits activity.completed once; a cancelled activity cannot be completed (422)', async () => {
      const t = await h.team();
      const a = await s.activities.create(t.teamId, { type: 'meeting', title: 'Reunião', due_at: '2026-11-27T12:00:00Z' });
      const done = await s.activities.complete(t.teamId, a.id);
      expect(done.activity).toMatchObject({ status: 'completed', completed_at: expect.stringMatching(/Z$/) });
      expect(done.previous).toEqual({ status: 'pending', completed_at: null });
      await s.activities.complete(t.teamId, a.id);
      expect(await types(t.teamId)).toEqual(['activity.created', 'activity.completed']);
      const completed = (await events(t.teamId))[1]!;
      expect(JSON.parse(completed.object)).toEqual(done.activity);
      expect(JSON.parse(completed.previous_attributes!)).toEqual({ status: 'pending', completed_at: null });

      const b = await s.activities.create(t.teamId, { type: 'task', title: 'Cancelar', due_at: '2026-11-27T12:00:00Z' });
      const cancelled = await s.activities.cancel(t.teamId, b.id);
      expect(cancelled.activity.status).toBe('cancelled');
      expect(await failure(s.activities.complete(t.teamId, b.id))).toEqual({
        status: 422,
        code: 'VALIDATION_ERROR',
        message: 'Atividade cancelada não pode ser concluída',
        field: undefined,
      });
      expect(await failure(s.activities.update(t.teamId, b.id, { status: 'completed' }))).toMatchObject({ status: 422 });
      // Cancelled activities leave the default list; status=cancelled lists them.
      expect((await s.activities.list(t.teamId, {})).data.map((x) => x.id)).not.toContain(b.id);
      expect((await s.activities.list(t.teamId, { status: 'cancelled' })).data.map((x) => x.id)).toEqual([b.id]);
    });

    it('update changes any subset; status moves between pending and in_progress; nothing changed, nothing written', async () => {
      const t = await h.team();
      const a = await s.activities.create(t.teamId, { type: 'task', title: 'Documentos', due_at: '2026-11-27T12:00:00Z' });
      const moved = await s.activities.update(t.teamId, a.id, { status: 'in_progress', priority: 'alta', title: 'Documentos do Onix' });
      expect(moved.activity).toMatchObject({ status: 'in_progress', priority: 'alta', title: 'Documentos do Onix' });
      expect(moved.previous).toEqual({ status: 'pending', priority: 'media', title: 'Documentos' });
      const same = await s.activities.update(t.teamId, a.id, { status: 'in_progress' });
      expect(same.previous).toEqual({});
      expect(same.activity.updated_at).toBe(moved.activity.updated_at);
      expect(await failure(s.activities.update(t.teamId, a.id, {}))).toMatchObject({ status: 400, message: 'Nenhum campo para atualizar' });
      expect(await types(t.teamId)).toEqual(['activity.created']);
    });

    it('the event and the record commit together: a failing step in the transaction leaves neither', async () => {
      const t = await h.team();
      await expect(
        s.activities.create(
          t.teamId,
          { type: 'task', title: 'Falha', due_at: '2026-11-27T12:00:00Z' },
          {
            inTransaction: () => Promise.reject(new Error('boom')),
          },
        ),
      ).rejects.toThrow('boom');
      expect((await s.activities.list(t.teamId, {})).pagination.total).toBe(0);
      expect(await events(t.teamId)).toEqual([]);
    });

    it('arms due_soon and overdue, re-arms on a due time change, disarms on complete and cancel', async () => {
      const t = await h.team();
      const a = await s.activities.create(t.teamId, { type: 'task', title: 'Agenda', due_at: '2026-11-28T12:00:00Z' });
      const rows = async () => (await scheduleOf(h.testDb.db.kysely, a.id)).map((r) => [r.kind, r.status, new Date(r.fire_at).toISOString()]);
      expect(await rows()).toEqual([
        ['activity.due_soon', 'armed', '2026-11-27T12:00:00.000Z'],
        ['activity.overdue', 'armed', '2026-11-28T12:00:00.000Z'],
      ]);
      await s.activities.update(t.teamId, a.id, { due_at: '2026-11-29T12:00:00Z' });
      expect(await rows()).toEqual([
        ['activity.due_soon', 'armed', '2026-11-28T12:00:00.000Z'],
        ['activity.overdue', 'armed', '2026-11-29T12:00:00.000Z'],
      ]);
      await s.activities.complete(t.teamId, a.id);
      expect((await rows()).map((r) => r[1])).toEqual(['disarmed', 'disarmed']);
      // Reopened: armed again for the same due time (it never fired).
      await s.activities.update(t.teamId, a.id, { status: 'pending' });
      expect((await rows()).map((r) => r[1])).toEqual(['armed', 'armed']);
      await s.activities.cancel(t.teamId, a.id);
      expect((await rows()).map((r) => r[1])).toEqual(['disarmed', 'disarmed']);
    });

    it('an activity already past its due time gets no due_soon; one due within 24 hours gets it at once', async () => {
      const t = await h.team();
      const past = await s.activities.create(t.teamId, { type: 'task', title: 'Atrasada', due_at: '2026-11-20T12:00:00Z' });
      expect((await scheduleOf(h.testDb.db.kysely, past.id)).map((r) => [r.kind, r.status])).toEqual([['activity.overdue', 'armed']]);
      const soon = await s.activities.create(t.teamId, { type: 'task', title: 'Logo', due_at: '2026-11-24T18:00:00Z' });
      const dueSoon = (await scheduleOf(h.testDb.db.kysely, soon.id)).find((r) => r.kind === 'activity.due_soon')!;
      expect(new Date(dueSoon.fire_at).getTime()).toBeLessThan(clock.now().getTime());
    });
  });

  describe('financial records', () => {
    const base = { type: 'revenue', category: 'venda-veiculo', description: 'Venda Onix 2020', amount: 65990.9, due_date: '2026-11-30' } as const;

    it('creates pending with the fields of DECISIONS.md; financial.created carries the record', async () => {
      const t = await h.team();
      const r = await s.financial.create(t.teamId, { ...base, notes: 'entrada + financiamento' });
      expect(r).toMatchObject({ ...base, status: 'pending', paid_at: null, payment_method: null, currency: 'BRL', notes: 'entrada + financiamento' });
      const [created] = await events(t.teamId);
      expect(created?.type).toBe('financial.created');
      expect(JSON.parse(created!.object)).toEqual(r);
    });

    it('category must belong to its type; amount > 0 with at most two decimals', async () => {
      const t = await h.team();
      expect(await failure(s.financial.create(t.teamId, { ...base, category: 'aluguel' }))).toEqual({
        status: 400,
        code: 'VALIDATION_ERROR',
        message: "Categoria inválida para o tipo 'revenue'. Use: venda-veiculo, comissao, financiamento, seguro",
        field: 'category',
      });
      expect(await failure(s.financial.create(t.teamId, { ...base, amount: 0 }))).toMatchObject({
        field: 'amount',
        message: "Campo 'amount' deve ser maior que zero",
      });
      expect(await failure(s.financial.create(t.teamId, { ...base, amount: 1.234 }))).toMatchObject({ field: 'amount' });
      const r = await s.financial.create(t.teamId, { ...base, type: 'cost', category: 'funilaria' });
      // Changing the type alone must keep the category valid for it.
      expect(await failure(s.financial.update(t.teamId, r.id, { type: 'expense' }))).toMatchObject({ field: 'category' });
      expect((await s.financial.update(t.teamId, r.id, { type: 'expense', category: 'marketing' })).record).toMatchObject({
        type: 'expense',
        category: 'marketing',
      });
    });

    it('pay needs a payment method, sets paid_at, emits financial.paid once; a cancelled record cannot be paid', async () => {
      const t = await h.team();
      const r = await s.financial.create(t.teamId, base);
      expect(await failure(s.financial.update(t.teamId, r.id, { status: 'paid' }))).toEqual({
        status: 400,
        code: 'VALIDATION_ERROR',
        message: "Campo 'payment_method' é obrigatório para marcar como pago",
        field: 'payment_method',
      });
      const paid = await s.financial.pay(t.teamId, r.id, { payment_method: 'pix' });
      expect(paid.record).toMatchObject({ status: 'paid', payment_method: 'pix', paid_at: expect.stringMatching(/Z$/) });
      expect(paid.previous).toEqual({ status: 'pending', paid_at: null, payment_method: null });
      await s.financial.pay(t.teamId, r.id, { payment_method: 'boleto' });
      expect(await types(t.teamId)).toEqual(['financial.created', 'financial.paid']);
      expect(JSON.parse((await events(t.teamId))[1]!.object)).toEqual(paid.record);

      const c = await s.financial.create(t.teamId, base);
      await s.financial.cancel(t.teamId, c.id);
      expect(await failure(s.financial.pay(t.teamId, c.id, { payment_method: 'pix' }))).toMatchObject({
        status: 422,
        message: 'Registro financeiro cancelado não pode ser pago',
      });
      expect((await s.financial.list(t.teamId, {})).data.map((x) => x.id)).toEqual([r.id]);
    });

    it('PUT status paid with a method and a paid_at pays at that time; created already paid emits created then paid', async () => {
      const t = await h.team();
      const r = await s.financial.create(t.teamId, base);
      const paid = await s.financial.update(t.teamId, r.id, { status: 'paid', payment_method: 'transferencia', paid_at: '2026-11-23T10:00:00-03:00' });
      expect(paid.record).toMatchObject({ status: 'paid', paid_at: '2026-11-23T13:00:00Z' });
      const reopened = await s.financial.update(t.teamId, r.id, { status: 'pending' });
      expect(reopened.record).toMatchObject({ status: 'pending', paid_at: null, payment_method: 'transferencia' });
      const cash = await s.financial.create(t.teamId, { ...base, status: 'paid', payment_method: 'dinheiro' });
      expect(cash.paid_at).not.toBeNull();
      expect(await types(t.teamId)).toEqual(['financial.created', 'financial.paid', 'financial.created', 'financial.paid']);
      expect(await failure(s.financial.create(t.teamId, { ...base, status: 'paid' }))).toMatchObject({ field: 'payment_method' });
    });

    it('arms financial.overdue at the end of the due date in São Paulo; re-arms on a new due date; pay and cancel disarm', async () => {
      const t = await h.team();
      const r = await s.financial.create(t.teamId, base);
      const rows = async () => (await scheduleOf(h.testDb.db.kysely, r.id)).map((x) => [x.kind, x.status, x.due_key, new Date(x.fire_at).toISOString()]);
      expect(await rows()).toEqual([['financial.overdue', 'armed', '2026-11-30', '2026-12-01T03:00:00.000Z']]);
      await s.financial.update(t.teamId, r.id, { due_date: '2026-12-05' });
      expect(await rows()).toEqual([['financial.overdue', 'armed', '2026-12-05', '2026-12-06T03:00:00.000Z']]);
      await s.financial.pay(t.teamId, r.id, { payment_method: 'pix' });
      expect((await rows())[0]![1]).toBe('disarmed');
      await s.financial.update(t.teamId, r.id, { status: 'pending' });
      expect((await rows())[0]![1]).toBe('armed');
      await s.financial.cancel(t.teamId, r.id);
      expect((await rows())[0]![1]).toBe('disarmed');
    });

    it('paid_at alone pays a pending record (with its method); status cancelled is refused on create by the schema, by the service too', async () => {
      const t = await h.team();
      const r = await s.financial.create(t.teamId, { ...base, payment_method: 'boleto' });
      const paid = await s.financial.update(t.teamId, r.id, { paid_at: '2026-11-20T15:00:00Z' });
      expect(paid.record).toMatchObject({ status: 'paid', paid_at: '2026-11-20T15:00:00Z' });
      expect(await failure(s.financial.create(t.teamId, { ...base, status: 'cancelled' }))).toMatchObject({ status: 400, field: 'status' });
      // A paid record keeps its method; paid_at with another status is refused.
      expect(await failure(s.financial.update(t.teamId, r.id, { payment_method: null }))).toMatchObject({ status: 400, field: 'payment_method' });
      expect(await failure(s.financial.update(t.teamId, r.id, { status: 'pending', paid_at: '2026-11-20T15:00:00Z' }))).toMatchObject({
        status: 400,
        field: 'paid_at',
        message: "Campo 'paid_at' só pode ser enviado para marcar como pago (status 'paid')",
      });
    });

    it("the team's time zone moves the overdue instant of its pending records", async () => {
      const t = await h.team();
      const r = await s.financial.create(t.teamId, base);
      await s.financial.setTeamTimeZone(t.teamId, 'Asia/Tokyo');
      const [row] = await scheduleOf(h.testDb.db.kysely, r.id);
      expect(new Date(row!.fire_at).toISOString()).toBe('2026-11-30T15:00:00.000Z');
      expect(await failure(s.financial.setTeamTimeZone(t.teamId, 'Mars/Olympus'))).toMatchObject({ status: 400, field: 'time_zone' });
      expect((await s.teams.find(t.teamId))?.time_zone).toBe('Asia/Tokyo');
    });

    it('links of another team are refused', async () => {
      const t = await h.team();
      const other = await h.team();
      const client = await s.clients.create(other.teamId, { type: 'PF', name: 'Bia' } as never);
      expect(await failure(s.financial.create(t.teamId, { ...base, client_id: client.id }))).toMatchObject({
        field: 'client_id',
        message: 'Cliente não encontrado',
      });
    });
  });
});
