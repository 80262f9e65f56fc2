import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/services.js';
import { lowerBoundCents, upperBoundCents } from '../../src/domain/shared/money.js';
import type { Database } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { DIALECTS, openTestDb, stepMigrator, type TestDb } from '../support/dialects.js';
import { waitUntil } from '../support/wait.js';
import { createTeamOnOldSchema } from '../support/old-schema.js';

/**
 * Migration 0011 (issue 15): the total of a price-filtered vehicle list comes from per-bucket counters
 * (vehicle_price_counts, R$ 1.000 a bucket) plus the partial buckets at the ends counted from the
 * index. It must equal count(*) for every range (bounds on, just off and inside bucket edges, open on
 * either side, empty, inverted) and status, after every kind of write, including SQL outside the
 * services, concurrent opposite price moves, and on a database that had vehicles before the migration.
 */

/** Prices (BRL) around bucket edges; null: a vehicle without a price (no range matches it). */
const PRICES = [0, 0.01, 999.99, 1000, 1000.01, 1999.99, 2000, 2500, 4999.99, 5000, 5000.5, 9999.99, 10000, 25000, 1_000_000, null];

/** [min_price, max_price] in BRL; undefined: open on that side. */
const RANGES: Array<[number | undefined, number | undefined]> = [
  [1000, 2000],
  [999.99, 1000],
  [0, 999.98],
  [1000, undefined],
  [undefined, 2000],
  [undefined, 0],
  [1500, 1500.5],
  [1000.01, 9999.99],
  [1000.005, 9999.995],
  [5000, 5000],
  [2000.01, 4999.99],
  [0, 1_000_000],
  [3000, 1000],
  [999.995, 1000.005],
  [2000, 12000],
];

const STATUSES = [undefined, 'ativo', 'vendido', 'arquivado'] as const;

/** What counting the rows says (the statement the counters replace). */
async function counted(db: Kysely<Database>, teamId: string, status: string | undefined, min: number | undefined, max: number | undefined) {
  let q = db
    .selectFrom('vehicles')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_id', '=', teamId)
    .where('status', status ? '=' : '!=', (status ?? 'arquivado') as never);
  if (min !== undefined) q = q.where('price_cents', '>=', lowerBoundCents(min));
  if (max !== undefined) q = q.where('price_cents', '<=', upperBoundCents(max));
  return Number((await q.executeTakeFirstOrThrow()).n);
}

for (const dialect of DIALECTS) {
  describe(`vehicle price counts (migration 0011, ${dialect})`, () => {
    let testDb: TestDb;
    let db: Kysely<Database>;
    let services: ReturnType<typeof createServices>;
    beforeAll(async () => {
      testDb = await openTestDb(dialect);
      db = testDb.db.kysely;
      services = createServices(testDb.db);
    });
    afterAll(() => testDb?.close());

    const same = async (teamId: string, label: string) => {
      for (const status of STATUSES)
        for (const [min, max] of RANGES) {
          const q = { ...(status ? { status } : {}), ...(min !== undefined ? { min_price: min } : {}), ...(max !== undefined ? { max_price: max } : {}) };
          const answer = await services.vehicles.list(teamId, q);
          const expected = await counted(db, teamId, status, min, max);
          expect(answer.pagination.total, `${label}: ${JSON.stringify(q)}`).toBe(expected);
          expect(answer.data.length, `${label}: ${JSON.stringify(q)}`).toBe(Math.min(expected, 20));
        }
    };

    const team = async (name: string) => (await services.teams.create({ name, plan: 'professional' })).id;
    const create = async (teamId: string, price: number | null, i: number) =>
      (await services.vehicles.create(teamId, { title: `Carro ${i}`, brand: 'Fiat', model: 'Argo', ...(price === null ? {} : { price }) })).id;

    it('list totals equal count(*) after creates, price edits, sales, archives, reopening and SQL outside the services', async () => {
      const teamId = await team('Loja de faixas');
      const other = await team('Outra loja');
      const ids: string[] = [];
      for (const [i, price] of PRICES.entries()) ids.push(await create(teamId, price, i));
      for (const [i, price] of PRICES.entries()) await create(other, price, i);
      await same(teamId, 'after creates');
      await services.vehicles.update(teamId, ids[3]!, { price: 1999.99 });
      await services.vehicles.update(teamId, ids[4]!, { price: null });
      await services.vehicles.update(teamId, ids[15]!, { price: 2000 });
      await services.vehicles.update(teamId, ids[6]!, { status: 'vendido' });
      await services.vehicles.archive(teamId, ids[9]!);
      await same(teamId, 'after price edits, a sale and an archive');
      await services.vehicles.update(teamId, ids[9]!, { status: 'ativo', price: 5000.01 });
      await same(teamId, 'after reopening with a new price');
      await db
        .updateTable('vehicles')
        .set({ price_cents: sql`price_cents + 50`, status: 'vendido' })
        .where('team_id', '=', teamId)
        .where('price_cents', '<', 200000)
        .execute();
      await db.deleteFrom('vehicles').where('id', '=', ids[12]!).execute();
      await db.updateTable('vehicles').set({ price_cents: -150 }).where('id', '=', ids[13]!).execute();
      await same(teamId, 'after bulk SQL (and a negative price)');
      expect(await counted(db, teamId, undefined, -2, -1)).toBe(1);
      expect((await services.vehicles.list(teamId, { min_price: -2, max_price: -1 })).pagination.total).toBe(1);
      // The other team's counters never moved.
      await same(other, 'the other team');

      // A team deleted (its rows go by cascade) leaves no count behind.
      await db.deleteFrom('teams').where('id', '=', teamId).execute();
      const left = await db
        .selectFrom('vehicle_price_counts')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
        .where('team_id', '=', teamId)
        .executeTakeFirstOrThrow();
      expect(Number(left.n)).toBe(0);
    });

    it('concurrent creates and opposite price moves: no error, no deadlock, totals exact', async () => {
      const teamId = await team('Loja corrida');
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) ids.push(await create(teamId, i % 2 ? 1500 : 7500, i));
      for (let r = 0; r < 4; r++) {
        await Promise.all([
          ...ids.map((id, i) => services.vehicles.update(teamId, id, { price: (i + r) % 2 ? 7500 : 1500 })),
          ...Array.from({ length: 4 }, (_, i) => create(teamId, 1000 * (i + 1), 100 + i)),
        ]);
      }
      await same(teamId, 'after the races');
    });

    it('fills the counters from the vehicles already there', async () => {
      const fresh = await openTestDb(dialect, { migrate: false });
      try {
        const migrator = await stepMigrator(fresh.db);
        expect((await migrator.migrateTo('0010-team-search')).error).toBeUndefined();
        const before = createServices(fresh.db);
        const teamId = (await createTeamOnOldSchema(fresh.db, { name: 'Loja de antes', plan: 'professional' })).id;
        for (const [i, price] of PRICES.entries())
          await before.vehicles.create(teamId, { title: `Antigo ${i}`, brand: 'VW', model: 'Gol', ...(price === null ? {} : { price }) });
        await migrateToLatest(fresh.db);
        const k = fresh.db.kysely;
        const after = createServices(fresh.db);
        for (const [min, max] of RANGES) {
          const q = { ...(min !== undefined ? { min_price: min } : {}), ...(max !== undefined ? { max_price: max } : {}) };
          expect((await after.vehicles.list(teamId, q)).pagination.total, JSON.stringify(q)).toBe(await counted(k, teamId, undefined, min, max));
        }
      } finally {
        await fresh.close();
      }
    });

    it.runIf(dialect === 'postgres')(
      'a write in flight while the migration runs (another server, a rolling deploy) is counted: the fill waits for it',
      async () => {
        const fresh = await openTestDb(dialect, { migrate: false });
        const other = new pg.Client({ connectionString: fresh.url });
        try {
          const migrator = await stepMigrator(fresh.db);
          expect((await migrator.migrateTo('0010-team-search')).error).toBeUndefined();
          const before = createServices(fresh.db);
          const teamId = (await createTeamOnOldSchema(fresh.db, { name: 'Loja em atualização', plan: 'professional' })).id;
          const gol = await before.vehicles.create(teamId, { title: 'Gol', brand: 'VW', model: 'Gol', price: 50000 });
          // The old version's request, mid-transaction: the price moved, not committed yet.
          await other.connect();
          await other.query('begin');
          await other.query('update vehicles set price_cents = 9000000 where id = $1', [gol.id]);
          const migrating = migrateToLatest(fresh.db);
          // The migration waits for that write's lock on vehicles (before its fill, since the fix; before
          // its triggers, without it): then the write commits.
          await waitUntil(
            async () => (await other.query(`select 1 from pg_locks where not granted and relation = 'vehicles'::regclass`)).rowCount! > 0,
            20_000,
            'the migration waiting for the write in flight',
          );
          await other.query('commit');
          await migrating;
          const after = createServices(fresh.db);
          for (const [min, max] of [
            [80000, undefined],
            [undefined, 60000],
          ] as const) {
            const q = { ...(min !== undefined ? { min_price: min } : {}), ...(max !== undefined ? { max_price: max } : {}) };
            expect((await after.vehicles.list(teamId, q)).pagination.total, JSON.stringify(q)).toBe(
              await counted(fresh.db.kysely, teamId, undefined, min, max),
            );
          }
          expect((await after.vehicles.list(teamId, { min_price: 80000 })).pagination.total).toBe(1);
        } finally {
          await other.end().catch(() => undefined);
          await fresh.close();
        }
      },
    );
  });
}
