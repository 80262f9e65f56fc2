import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/app/services.js';
import { createServices } from '../../src/app/services.js';
import { createScheduler } from '../../src/scheduler/scheduler.js';
import { fakeClock, type FakeClock } from '../support/clock.js';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Harness } from '../support/harness.js';
import { createDb } from '../../src/storage/db.js';

/**
 * The scheduler of time-driven events (issue 12 point 3), driven by an injected clock: each event
 * once per due time, re-armed when the due time moves, disarmed by completing, paying or cancelling,
 * overdue judged at the end of the due date in the team's time zone. Two processes racing:
 * scheduler-processes.test.ts.
 */

const HOUR = 3_600_000;

describe.each(DIALECTS)('scheduler (%s)', (dialect) => {
  let h: Harness;
  let s: Services;
  let clock: FakeClock;

  beforeAll(async () => {
    clock = fakeClock('2026-11-24T12:00:00.000Z');
    h = await createHarness(dialect, { clock });
    s = h.services;
  });
  afterAll(() => h?.close());

  const events = async (teamId: string) =>
    (await h.testDb.db.kysely.selectFrom('events').selectAll().where('team_id', '=', teamId).orderBy('id').execute()).map((e) => ({
      type: e.type,
      id: (JSON.parse(e.object) as { id: string }).id,
      at: new Date(e.created_at).toISOString(),
    }));
  const timed = async (teamId: string) => (await events(teamId)).filter((e) => /due_soon|overdue/.test(e.type));
  const fire = () => s.schedule.fireDue();

  it('activity.due_soon 24 hours before due_at, activity.overdue at due_at, each once', async () => {
    clock.set('2026-11-24T12:00:00.000Z');
    const t = await h.team();
    const a = await s.activities.create(t.teamId, { type: 'call', title: 'Retornar', due_at: '2026-11-26T12:00:00Z' });
    await fire();
    expect(await timed(t.teamId)).toEqual([]);
    clock.set('2026-11-25T11:59:59.999Z');
    await fire();
    expect(await timed(t.teamId)).toEqual([]);
    clock.set('2026-11-25T12:00:30.000Z');
    await fire();
    await fire();
    expect(await timed(t.teamId)).toEqual([{ type: 'activity.due_soon', id: a.id, at: '2026-11-25T12:00:30.000Z' }]);
    clock.set('2026-11-26T12:00:00.000Z');
    await fire();
    clock.advance(HOUR);
    await fire();
    expect((await timed(t.teamId)).map((e) => e.type)).toEqual(['activity.due_soon', 'activity.overdue']);
    // The overdue list agrees.
    expect((await s.activities.list(t.teamId, {}, { overdue: true })).data.map((x) => x.id)).toEqual([a.id]);
  });

  it('the event carries the activity as it is when it fires', async () => {
    clock.set('2026-11-24T12:00:00.000Z');
    const t = await h.team();
    const a = await s.activities.create(t.teamId, { type: 'task', title: 'Vistoria', due_at: '2026-11-24T13:00:00Z' });
    await fire(); // within 24 hours: due_soon at once
    await s.activities.update(t.teamId, a.id, { status: 'in_progress' });
    clock.advance(2 * HOUR);
    await fire();
    expect((await timed(t.teamId)).map((e) => e.type)).toEqual(['activity.due_soon', 'activity.overdue']);
    const overdue = await h.testDb.db.kysely.selectFrom('events').selectAll().where('team_id', '=', t.teamId).where('type', '=', 'activity.overdue').execute();
    expect(JSON.parse(overdue[0]!.object)).toEqual(await s.activities.get(t.teamId, a.id));
    expect(overdue[0]!.previous_attributes).toBeNull();
  });

  it('moving due_at re-arms both events for the new time; the old time never fires', async () => {
    clock.set('2026-11-24T12:00:00.000Z');
    const t = await h.team();
    const a = await s.activities.create(t.teamId, { type: 'meeting', title: 'Test drive', due_at: '2026-11-25T06:00:00Z' });
    await fire(); // due within 24 h: due_soon at once
    expect((await timed(t.teamId)).map((e) => e.type)).toEqual(['activity.due_soon']);
    await s.activities.update(t.teamId, a.id, { due_at: '2026-11-28T12:00:00Z' });
    clock.set('2026-11-25T07:00:00.000Z');
    await fire();
    expect((await timed(t.teamId)).map((e) => e.type)).toEqual(['activity.due_soon']);
    clock.set('2026-11-27T12:00:00.000Z');
    await fire();
    clock.set('2026-11-28T12:00:00.000Z');
    await fire();
    expect((await timed(t.teamId)).map((e) => `${e.type}@${e.at}`)).toEqual([
      'activity.due_soon@2026-11-24T12:00:00.000Z',
      'activity.due_soon@2026-11-27T12:00:00.000Z',
      'activity.overdue@2026-11-28T12:00:00.000Z',
    ]);
    // Saving the same due time again does not re-arm what already fired.
    await s.activities.update(t.teamId, a.id, { due_at: '2026-11-28T12:00:00Z', title: 'Test drive (ok)' });
    clock.advance(HOUR);
    await fire();
    expect(await timed(t.teamId)).toHaveLength(3);
  });

  it('completing or cancelling disarms; nothing fires afterwards', async () => {
    clock.set('2026-11-24T12:00:00.000Z');
    const t = await h.team();
    const a = await s.activities.create(t.teamId, { type: 'task', title: 'A', due_at: '2026-11-26T12:00:00Z' });
    const b = await s.activities.create(t.teamId, { type: 'task', title: 'B', due_at: '2026-11-26T12:00:00Z' });
    await s.activities.complete(t.teamId, a.id);
    await s.activities.cancel(t.teamId, b.id);
    clock.set('2026-11-30T00:00:00.000Z');
    await fire();
    expect(await timed(t.teamId)).toEqual([]);
  });

  it('a scheduler stopped past a due time sends the overdue only (a due_soon for a passed time is dropped)', async () => {
    clock.set('2026-11-24T12:00:00.000Z');
    const t = await h.team();
    const a = await s.activities.create(t.teamId, { type: 'task', title: 'Atrasou', due_at: '2026-11-26T12:00:00Z' });
    clock.set('2026-11-27T00:00:00.000Z');
    await fire();
    expect(await timed(t.teamId)).toEqual([{ type: 'activity.overdue', id: a.id, at: '2026-11-27T00:00:00.000Z' }]);
  });

  describe('financial.overdue at the end of the due date in the team time zone', () => {
    it('a record due today is not overdue until the day ends in São Paulo (03:00 UTC next day)', async () => {
      clock.set('2026-11-24T12:00:00.000Z');
      const t = await h.team();
      const r = await s.financial.create(t.teamId, {
        type: 'expense',
        category: 'aluguel',
        description: 'Aluguel novembro',
        amount: 8500,
        due_date: '2026-11-24',
      });
      clock.set('2026-11-25T02:59:59.999Z'); // 23:59:59.999 in São Paulo
      await fire();
      expect(await timed(t.teamId)).toEqual([]);
      expect((await s.financial.list(t.teamId, {}, { overdue: true })).data).toEqual([]);
      expect((await s.financial.summary(t.teamId, { from: '2026-11-01', to: '2026-11-30' })).by_status.overdue.count).toBe(0);
      clock.set('2026-11-25T03:00:00.000Z'); // midnight in São Paulo
      expect((await s.financial.list(t.teamId, {}, { overdue: true })).data.map((x) => x.id)).toEqual([r.id]);
      await fire();
      await fire();
      expect(await timed(t.teamId)).toEqual([{ type: 'financial.overdue', id: r.id, at: '2026-11-25T03:00:00.000Z' }]);
    });

    it('paying before the end of the day disarms; a new due date re-arms; reopening keeps what fired', async () => {
      clock.set('2026-11-24T12:00:00.000Z');
      const t = await h.team();
      const base = { type: 'cost', category: 'mecanica', description: 'Revisão', amount: 1200.5 } as const;
      const paid = await s.financial.create(t.teamId, { ...base, due_date: '2026-11-24' });
      const moved = await s.financial.create(t.teamId, { ...base, due_date: '2026-11-24' });
      await s.financial.pay(t.teamId, paid.id, { payment_method: 'pix' });
      await s.financial.update(t.teamId, moved.id, { due_date: '2026-11-26' });
      clock.set('2026-11-25T03:00:00.000Z');
      await fire();
      expect(await timed(t.teamId)).toEqual([]);
      clock.set('2026-11-27T03:00:00.000Z');
      await fire();
      expect(await timed(t.teamId)).toEqual([{ type: 'financial.overdue', id: moved.id, at: '2026-11-27T03:00:00.000Z' }]);
      // Paid, then reopened with the same due date: it already fired for that date.
      await s.financial.pay(t.teamId, moved.id, { payment_method: 'boleto' });
      await s.financial.update(t.teamId, moved.id, { status: 'pending' });
      clock.advance(HOUR);
      await fire();
      expect(await timed(t.teamId)).toHaveLength(1);
    });

    it('another time zone ends the day elsewhere', async () => {
      clock.set('2026-11-24T12:00:00.000Z');
      const t = await h.team();
      await s.financial.setTeamTimeZone(t.teamId, 'UTC');
      const r = await s.financial.create(t.teamId, { type: 'revenue', category: 'comissao', description: 'Comissão', amount: 300, due_date: '2026-11-24' });
      clock.set('2026-11-25T00:00:00.000Z');
      await fire();
      expect(await timed(t.teamId)).toEqual([{ type: 'financial.overdue', id: r.id, at: '2026-11-25T00:00:00.000Z' }]);
    });
  });

  it('two schedulers on their own connections racing over the same due rows fire each event once', async () => {
    // PostgreSQL only in-process: two SQLite connections in one thread would block each other
    // (better-sqlite3 is synchronous); SQLite's race runs in two processes (scheduler-processes.test.ts).
    if (dialect !== 'postgres') return void expect(dialect).toBe('sqlite');
    clock.set('2026-11-24T12:00:00.000Z');
    const t = await h.team();
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) {
      ids.push((await s.activities.create(t.teamId, { type: 'task', title: `T${i}`, due_at: '2026-11-24T12:30:00Z' })).id);
      ids.push((await s.financial.create(t.teamId, { type: 'expense', category: 'pessoal', description: `F${i}`, amount: 10 + i, due_date: '2026-11-20' })).id);
    }
    const other = createDb(h.testDb.url, { poolMax: 5 });
    try {
      const a = createServices(h.testDb.db, { clock }).schedule;
      const b = createServices(other, { clock }).schedule;
      for (const at of ['2026-11-24T12:10:00.000Z', '2026-11-24T13:00:00.000Z']) {
        clock.set(at);
        await Promise.all([a.fireBatch(7), b.fireBatch(7), a.fireDue(), b.fireDue(), a.fireBatch(13), b.fireDue()]);
        await Promise.all([a.fireDue(), b.fireDue()]);
      }
    } finally {
      await other.close();
    }
    const fired = await timed(t.teamId);
    const count = new Map<string, number>();
    for (const e of fired) count.set(`${e.type} ${e.id}`, (count.get(`${e.type} ${e.id}`) ?? 0) + 1);
    // 60 activities: due_soon + overdue; 60 records: overdue. Each exactly once.
    expect(fired).toHaveLength(180);
    expect([...count.values()].every((n) => n === 1)).toBe(true);
  });

  it('the runtime fires on start and stops cleanly; failures are logged, not thrown', async () => {
    clock.set('2026-11-24T12:00:00.000Z');
    const t = await h.team();
    await s.activities.create(t.teamId, { type: 'task', title: 'Agora', due_at: '2026-11-24T11:00:00Z' });
    const warnings: unknown[] = [];
    const logger = { warn: (o: unknown) => void warnings.push(o), info: () => undefined, error: () => undefined, debug: () => undefined } as never;
    const scheduler = createScheduler({ schedule: s.schedule, logger, pollMs: 60_000 });
    scheduler.start();
    await scheduler.stop();
    expect((await timed(t.teamId)).map((e) => e.type)).toEqual(['activity.overdue']);
    const failing = createScheduler({ schedule: { fireDue: () => Promise.reject(new Error('db away')) }, logger, pollMs: 60_000 });
    failing.start();
    await failing.stop();
    expect(warnings).toHaveLength(1);
  });
});
