import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findClient, findClientForUpdate } from '../../src/domain/clients/clients.repository.js';
import { findDeal, findDealForUpdate } from '../../src/domain/deals/deals.repository.js';
import { findActiveKeyByHash } from '../../src/domain/teams/api-keys.repository.js';
import { createServices } from '../../src/app/services.js';
import { compiledQuery } from '../../src/storage/compiled-query.js';
import type { Database } from '../../src/storage/database.js';
import { DIALECTS, openTestDb, type TestDb } from '../support/dialects.js';

const UNKNOWN_UUID = '0190f5c2-7e1a-7b3c-8d4e-5f6a7b8c9d0e';

for (const dialect of DIALECTS) {
  describe(`compiled queries (${dialect})`, () => {
    let t: TestDb;
    let k: Kysely<Database>;
    let teamId: string;
    let otherTeamId: string;
    let dealIds: [string, string];
    let clientIds: [string, string];
    let apiKey: string;

    beforeAll(async () => {
      t = await openTestDb(dialect);
      k = t.db.kysely;
      const { teams, keys, deals, clients } = createServices(t.db);
      teamId = (await teams.create({ name: 'Loja compilada' })).id;
      otherTeamId = (await teams.create({ name: 'Outra loja' })).id;
      apiKey = (await keys.create({ teamId })).key;
      clientIds = [(await clients.create(teamId, { type: 'PF', name: 'Ana' })).id, (await clients.create(teamId, { type: 'PF', name: 'Bruno' })).id];
      dealIds = [(await deals.create(teamId, { title: 'Venda Civic', client_id: clientIds[0] })).id, (await deals.create(teamId, { title: 'Venda HB20' })).id];
    });

    afterAll(async () => {
      await t?.close();
    });

    it('binds new parameters on each call: two ids give two rows', async () => {
      const [civic, hb20] = await Promise.all(dealIds.map((id) => findDeal(k, teamId, id)));
      expect(civic).toMatchObject({ id: dealIds[0], title: 'Venda Civic', client_name: 'Ana' });
      expect(hb20).toMatchObject({ id: dealIds[1], title: 'Venda HB20', client_name: null });
      // Repeated, interleaved calls still answer from their own parameters.
      for (const id of [...dealIds, ...dealIds]) expect((await findDeal(k, teamId, id))?.id).toBe(id);
      expect((await findClient(k, teamId, clientIds[0]))?.name).toBe('Ana');
      expect((await findClient(k, teamId, clientIds[1]))?.name).toBe('Bruno');
    });

    it("a missing row, or another team's, gives undefined", async () => {
      expect(await findDeal(k, teamId, UNKNOWN_UUID)).toBeUndefined();
      expect(await findDeal(k, otherTeamId, dealIds[0])).toBeUndefined();
      expect(await findClient(k, otherTeamId, clientIds[0])).toBeUndefined();
      expect(await findActiveKeyByHash(k, 'f'.repeat(64))).toBeUndefined();
    });

    it('finds the active key by hash, and not once it is revoked', async () => {
      const hash = createHash('sha256').update(apiKey).digest('hex');
      const row = await findActiveKeyByHash(k, hash);
      expect(row).toMatchObject({ team_id: teamId, plan: 'starter' });
      await k.updateTable('api_keys').set({ revoked_at: '2026-01-01T00:00:00Z' }).where('id', '=', row!.id).execute();
      expect(await findActiveKeyByHash(k, hash)).toBeUndefined();
      await k.updateTable('api_keys').set({ revoked_at: null }).where('id', '=', row!.id).execute();
    });

    it('runs on the transaction it is given, and a rollback undoes what it saw', async () => {
      await expect(
        k.transaction().execute(async (trx) => {
          await trx.updateTable('deals').set({ title: 'Renomeada' }).where('id', '=', dealIds[1]).execute();
          expect((await findDeal(trx, teamId, dealIds[1]))?.title).toBe('Renomeada');
          if (dialect === 'postgres') {
            // Another connection does not see the uncommitted change.
            expect((await findDeal(k, teamId, dealIds[1]))?.title).toBe('Venda HB20');
          }
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect((await findDeal(k, teamId, dealIds[1]))?.title).toBe('Venda HB20');
    });

    // Only PostgreSQL locks rows (SQLite has no FOR UPDATE): the services ask for it there alone.
    it.runIf(dialect === 'postgres')('the ForUpdate variants still answer (ordinary path)', async () => {
      await k.transaction().execute(async (trx) => {
        expect((await findDealForUpdate(trx, teamId, dealIds[0]))?.client_name).toBe('Ana');
        expect((await findClientForUpdate(trx, teamId, clientIds[1]))?.name).toBe('Bruno');
      });
    });

    it('keeps constants of the query and an argument used twice in their places', async () => {
      const query = compiledQuery('test_titles', (db: Kysely<Database>, team: string, prefix: string) =>
        db
          .selectFrom('deals')
          .select('title')
          .where('team_id', '=', team)
          .where('status', '=', 'ativo')
          .where((eb) => eb.or([eb('title', 'like', prefix), eb('title', '=', prefix)]))
          .orderBy('title'),
      );
      expect(await query.execute(k, teamId, 'Venda%')).toEqual([{ title: 'Venda Civic' }, { title: 'Venda HB20' }]);
      expect(await query.execute(k, teamId, 'Venda HB20')).toEqual([{ title: 'Venda HB20' }]);
      expect(await query.executeTakeFirst(k, otherTeamId, 'Venda%')).toBeUndefined();
    });

    it('refuses an argument that is not a bound parameter (it would be frozen into the SQL)', async () => {
      const query = compiledQuery('test_unbound', (db: Kysely<Database>, column: string) => db.selectFrom('deals').select(sql.ref(column).as('x')));
      await expect(query.execute(k, 'title')).rejects.toThrow(/argument 0 is not a bound parameter/);
    });

    if (dialect === 'postgres') {
      it('plans a compiled query once for all values (its own pool, force_generic_plan) outside a transaction; inside one, and a query built per request, are planned for their values', async () => {
        const mode = compiledQuery('test_plan_mode', (db: Kysely<Database>, id: string) =>
          db
            .selectFrom('teams')
            .select(sql<string>`current_setting('plan_cache_mode')`.as('mode'))
            .where('id', '=', id),
        );
        expect((await mode.executeTakeFirst(k, teamId))?.mode).toBe('force_generic_plan');
        // Nor parallel plans or JIT there: a plan made for the average team would gather workers, or compile, for a page of a large one.
        const others = compiledQuery('test_plan_others', (db: Kysely<Database>, id: string) =>
          db
            .selectFrom('teams')
            .select([sql<string>`current_setting('max_parallel_workers_per_gather')`.as('workers'), sql<string>`current_setting('jit')`.as('jit')])
            .where('id', '=', id),
        );
        expect(await others.executeTakeFirst(k, teamId)).toEqual({ workers: '0', jit: 'off' });
        const built = await sql<{ mode: string }>`select current_setting('plan_cache_mode') as mode`.execute(k);
        expect(built.rows[0]!.mode).toBe('auto');
        await k.transaction().execute(async (trx) => {
          expect((await mode.executeTakeFirst(trx, teamId))?.mode).toBe('auto');
        });
        // Many at once, of both kinds, on pools of 5: every one answered, every connection given back.
        const answers = await Promise.all(
          Array.from({ length: 60 }, (_, i) =>
            i % 2
              ? mode.executeTakeFirst(k, teamId).then((r) => r?.mode)
              : sql<{ mode: string }>`select current_setting('plan_cache_mode') as mode`.execute(k).then((r) => r.rows[0]!.mode),
          ),
        );
        expect(new Set(answers)).toEqual(new Set(['auto', 'force_generic_plan']));
        const pools = t.db.poolStats!();
        expect(pools.idle).toBe(pools.total);
        expect(pools.waiting).toBe(0);
      });

      it('uses a named prepared statement, and recovers when a migration changes the table under it', async () => {
        const query = compiledQuery('test_shape', (db: Kysely<Database>, id: string) => db.selectFrom('teams').selectAll().where('id', '=', id));
        // Pin one connection: prepared statements live per connection.
        await k.connection().execute(async (conn) => {
          const before = await query.executeTakeFirst(conn, teamId);
          expect(before).toMatchObject({ id: teamId });
          const names = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(conn);
          expect(names.rows.map((r) => r.name)).toContainEqual(expect.stringMatching(/^test_shape_[0-9a-f]{8}$/));
          await sql`alter table teams add column extra text default 'x'`.execute(conn);
          try {
            // PostgreSQL refuses the prepared statement now ("cached plan must not change result type"): sent unnamed instead.
            expect(await query.executeTakeFirst(conn, teamId)).toMatchObject({ id: teamId, extra: 'x' });
            expect(await query.executeTakeFirst(conn, otherTeamId)).toMatchObject({ id: otherTeamId, extra: 'x' });
          } finally {
            await sql`alter table teams drop column extra`.execute(conn);
          }
        });
      });
    }
  });
}
