import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardTotalsByPhase } from '../../src/domain/shared/list-sql.js';
import type { Database } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { DIALECTS, openTestDb, stepMigrator } from '../support/dialects.js';
import { storeOf } from '../support/stores.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';
import { seedOnOldSchema } from '../support/old-schema.js';

/**
 * Migration 0009 (issue 15): the boards' column headers and the dashboard read per-phase totals kept
 * by triggers (board_totals) instead of grouping every `ativo` row of the team. They must equal what
 * grouping the rows says after every kind of write, including writes that bypass the services, under
 * concurrent opposite phase moves, and on a database that had data before the migration.
 */

type Totals = Record<string, { count: number; total: number }>;

const asTotals = (rows: Array<{ phase: string; count: number; total: number }>): Totals =>
  Object.fromEntries(rows.map((r) => [r.phase, { count: r.count, total: r.total }]));

/** What grouping the team's `ativo` rows says (the query the counters replace). */
async function grouped(db: Kysely<Database>, dialect: string, teamId: string, board: 'deals' | 'vehicles'): Promise<Totals> {
  const summed =
    board === 'deals'
      ? sql<number>`coalesce(sum(value_cents), 0)`
      : dialect === 'postgres'
        ? sql<number>`coalesce(sum(floor(extract(epoch from created_at))::bigint), 0)`
        : sql<number>`coalesce(sum(cast((julianday(created_at) - 2440587.5) * 86400 as integer)), 0)`;
  const rows = await db
    .selectFrom(board)
    .select((eb) => ['phase', eb.fn.countAll<number>().as('count'), summed.as('total')])
    .where('team_id', '=', teamId)
    .where('status', '=', 'ativo')
    .groupBy('phase')
    .execute();
  return asTotals(rows.map((r) => ({ phase: r.phase, count: Number(r.count), total: Number(r.total) })));
}

async function created(t: Caller, path: string, body: Record<string, unknown>): Promise<string> {
  const res = await t.post(path, body);
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

async function ok(res: Promise<{ status: number; text: string }>): Promise<void> {
  const r = await res;
  expect(r.status, r.text).toBe(200);
}

for (const dialect of DIALECTS) {
  describe(`board totals (migration 0009, ${dialect})`, () => {
    let h: Harness;
    let db: Kysely<Database>;
    beforeAll(async () => {
      h = await createHarness(dialect);
      db = h.testDb.db.kysely;
    });
    afterAll(() => h.close());

    const same = async (teamId: string, label: string) => {
      for (const board of ['deals', 'vehicles'] as const)
        expect(asTotals(await boardTotalsByPhase(db, teamId, board)), `${board}: ${label}`).toEqual(await grouped(db, dialect, teamId, board));
    };

    it('deal totals follow creates, moves, value edits, won, lost, archive, reopen and SQL outside the services', async () => {
      const t = await h.team();
      const ids: string[] = [];
      for (let i = 0; i < 6; i++)
        ids.push(await created(t, '/deals', { title: `Negócio ${i}`, value: 1000 * (i + 1) + 0.5, phase: i % 2 ? 'proposta' : 'lead' }));
      ids.push(await created(t, '/deals', { title: 'Sem valor' }));
      await same(t.teamId, 'after creates');
      await ok(t.put(`/deals/${ids[0]}`, { phase: 'negociacao' }));
      await ok(t.put(`/deals/${ids[1]}`, { value: 99.99 }));
      await ok(t.put(`/deals/${ids[2]}`, { phase: 'proposta', value: null }));
      await same(t.teamId, 'after moves and value edits');
      await ok(t.put(`/deals/${ids[3]}`, { status: 'ganho' }));
      await ok(t.put(`/deals/${ids[4]}`, { status: 'perdido', loss_reason: 'preço' }));
      await ok(t.delete(`/deals/${ids[5]}`));
      await ok(t.delete(`/deals/${ids[5]}`));
      await same(t.teamId, 'after won, lost and archived twice');
      await ok(t.put(`/deals/${ids[5]}`, { status: 'ativo', phase: 'fechamento' }));
      await same(t.teamId, 'after reopening into another phase');
      await db.updateTable('deals').set({ phase: 'qualificado' }).where('team_id', '=', t.teamId).where('phase', '=', 'lead').execute();
      await db.updateTable('deals').set({ value_cents: 123 }).where('id', '=', ids[1]!).execute();
      await db.deleteFrom('deals').where('id', '=', ids[0]!).execute();
      await same(t.teamId, 'after bulk SQL');
      // The board's own reads: the column headers come from these totals.
      const board = await h.services.boards.dealsBoard(t.teamId, {}, 20);
      const expected = await grouped(db, dialect, t.teamId, 'deals');
      for (const column of board.columns) {
        expect(column.count, column.phase).toBe(expected[column.phase]?.count ?? 0);
        expect(Math.round(column.total_value * 100), column.phase).toBe(expected[column.phase]?.total ?? 0);
        expect(column.items).toHaveLength(column.count);
      }
    });

    it('vehicle totals and the stock age follow creates, moves, sold, archive and a team deleted', async () => {
      const t = await h.team();
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push(await created(t, '/vehicles', { title: `Carro ${i}`, brand: 'Fiat', model: 'Argo', price: 70000 + i }));
      await db.updateTable('vehicles').set({ created_at: '2026-01-10T12:00:00.000Z' }).where('id', '=', ids[0]!).execute();
      await same(t.teamId, 'after creates and an entry date moved by SQL');
      await ok(t.put(`/vehicles/${ids[1]}`, { phase: 'disponivel' }));
      await ok(t.put(`/vehicles/${ids[2]}`, { status: 'vendido' }));
      await ok(t.delete(`/vehicles/${ids[3]}`));
      await same(t.teamId, 'after a move, a sale and an archive');
      const stock = await grouped(db, dialect, t.teamId, 'vehicles');
      const n = Object.values(stock).reduce((s, p) => s + p.count, 0);
      expect(n).toBe(2);
      const dashboard = await h.services.boards.dashboard(t.teamId);
      expect(dashboard.stock.reduce((s, p) => s + p.count, 0)).toBe(2);
      const meanSeconds = Object.values(stock).reduce((s, p) => s + p.total, 0) / n;
      const days = Math.round((10 * Math.max(0, Date.now() - meanSeconds * 1000)) / 86_400_000) / 10;
      expect(Math.abs((dashboard.average_days_in_stock ?? -1) - days)).toBeLessThanOrEqual(0.1);

      // A team deleted (the CLI's way: the rows go by cascade) leaves nothing behind.
      await db.deleteFrom('teams').where('id', '=', t.teamId).execute();
      expect(await boardTotalsByPhase(db, t.teamId, 'vehicles')).toEqual([]);
      expect(await boardTotalsByPhase(db, t.teamId, 'deals')).toEqual([]);
    });

    it('concurrent creates and opposite phase moves: no error, no deadlock, totals exact', async () => {
      const t = await h.team();
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) ids.push(await created(t, '/deals', { title: `Corrida ${i}`, value: 500 + i, phase: i % 2 ? 'proposta' : 'lead' }));
      for (let r = 0; r < 4; r++) {
        const answers = await Promise.all([
          ...ids.map((id, i) => t.put(`/deals/${id}`, { phase: (i + r) % 2 ? 'lead' : 'proposta' })),
          ...Array.from({ length: 5 }, (_, i) => t.post('/deals', { title: `Novo ${r}-${i}`, value: 10 + i, phase: i % 2 ? 'lead' : 'proposta' })),
        ]);
        expect(answers.map((a) => a.status).filter((s) => s !== 200 && s !== 201)).toEqual([]);
      }
      await same(t.teamId, 'after concurrent rounds');
      const totals = asTotals(await boardTotalsByPhase(db, t.teamId, 'deals'));
      expect(Object.values(totals).reduce((s, p) => s + p.count, 0)).toBe(30);
    });

    it('a filtered board still groups its own rows (the totals cover the unfiltered board only)', async () => {
      const t = await h.team();
      const [loja1, loja2] = [await storeOf(h, t.teamId, 'Loja 1'), await storeOf(h, t.teamId, 'Loja 2')];
      await created(t, '/deals', { title: 'Da loja 1', value: 100, store_id: loja1 });
      await created(t, '/deals', { title: 'Da loja 2', value: 200, store_id: loja2 });
      const board = await h.services.boards.dealsBoard(t.teamId, { store_id: loja2 }, 20);
      expect(board.columns.find((c) => c.phase === 'lead')).toMatchObject({ count: 1, total_value: 200 });
    });
  });

  describe(`migration 0009 on a database with data (${dialect})`, () => {
    it('fills the totals from the rows already there', async () => {
      const testDb = await openTestDb(dialect, { migrate: false });
      try {
        const migrator = await stepMigrator(testDb.db);
        expect((await migrator.migrateTo('0008-auth-epoch')).error).toBeUndefined();
        const team = await seedOnOldSchema(dialect, testDb.db, async (services) => {
          const seeded = await services.teams.create({ name: 'Loja de antes', plan: 'professional', alertEmail: null });
          for (let i = 0; i < 3; i++) await services.deals.create(seeded.id, { title: `Antes ${i}`, value: 1000 + i, phase: i ? 'proposta' : 'lead' });
          for (let i = 0; i < 2; i++) await services.vehicles.create(seeded.id, { title: `Antigo ${i}`, brand: 'VW', model: 'Gol' });
          return seeded;
        });
        await migrateToLatest(testDb.db);
        const kysely = testDb.db.kysely;
        for (const board of ['deals', 'vehicles'] as const)
          expect(asTotals(await boardTotalsByPhase(kysely, team.id, board))).toEqual(await grouped(kysely, dialect, team.id, board));
        expect(asTotals(await boardTotalsByPhase(kysely, team.id, 'deals'))).toMatchObject({
          lead: { count: 1, total: 100000 },
          proposta: { count: 2, total: 200300 },
        });
      } finally {
        await testDb.close();
      }
    });
  });
}
