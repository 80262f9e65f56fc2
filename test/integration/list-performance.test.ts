import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { searchCondition } from '../../src/domain/shared/search-sql.js';
import { randomBytes } from 'node:crypto';
import { newId } from '../../src/domain/shared/ids.js';
import { hashApiKey } from '../../src/domain/teams/api-keys.service.js';
import { DEFAULT_PHASES } from '../../src/domain/teams/teams.service.js';
import type { Database } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { DIALECTS, openTestDb, stepMigrator } from '../support/dialects.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';

/**
 * What migration 0004 (issue 6) changed under the lists, pinned by behaviour:
 * - unfiltered totals come from per-status counters kept by triggers: they must equal count(*) after
 *   every kind of write, including writes that bypass the API, and under concurrent status changes;
 * - searches go through trigram indexes (FTS5 / pg_trgm) with unchanged semantics;
 * - a GET takes no row lock (it used to take FOR UPDATE on PostgreSQL: a write per read);
 * - a database holding data before 0004 gets its counters and search index filled on upgrade.
 */

async function created(t: Caller, path: string, body: Record<string, unknown>) {
  const res = await t.post(path, body);
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: string };
}

async function total(t: Caller, path: string): Promise<number> {
  const res = await t.get(path);
  expect(res.status, res.text).toBe(200);
  return res.body.pagination.total;
}

async function titles(t: Caller, query: string): Promise<string[]> {
  const res = await t.get(`/deals?search=${encodeURIComponent(query)}&sort=title&limit=100`);
  expect(res.status, res.text).toBe(200);
  expect(res.body.pagination.total).toBe(res.body.data.length);
  return res.body.data.map((d: { title: string }) => d.title);
}

const DEAL_STATUSES = ['ativo', 'ganho', 'perdido', 'arquivado'];

/** Every total the counters answer, next to what count(*) says. */
async function dealTotals(t: Caller, db: Kysely<Database>) {
  const counted = async (where: (q: any) => any) =>
    Number(
      (
        await where(
          db
            .selectFrom('deals')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('team_id', '=', t.teamId),
        ).executeTakeFirstOrThrow()
      ).n,
    );
  const api: Record<string, number> = { default: await total(t, '/deals') };
  const sqlCounts: Record<string, number> = { default: await counted((q) => q.where('status', '!=', 'arquivado')) };
  for (const status of DEAL_STATUSES) {
    api[status] = await total(t, `/deals?status=${status}`);
    sqlCounts[status] = await counted((q) => q.where('status', '=', status));
  }
  return { api, sqlCounts };
}

for (const dialect of DIALECTS) {
  describe(`list totals and search after migration 0004 (${dialect})`, () => {
    let h: Harness;
    let db: Kysely<Database>;
    beforeAll(async () => {
      h = await createHarness(dialect);
      db = h.testDb.db.kysely;
    });
    afterAll(() => h.close());

    it('deal totals equal count(*) after creates, status changes, archiving, reopening and writes outside the API', async () => {
      const t = await h.team();
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) ids.push((await created(t, '/deals', { title: `Negócio ${i}`, phase: i % 2 ? 'proposta' : 'lead' })).id);
      const check = async (label: string) => {
        const { api, sqlCounts } = await dealTotals(t, db);
        expect(api, label).toEqual(sqlCounts);
      };
      await check('after creates');
      expect((await t.put(`/deals/${ids[0]}`, { status: 'ganho' })).status).toBe(200);
      expect((await t.put(`/deals/${ids[1]}`, { status: 'perdido', loss_reason: 'preço' })).status).toBe(200);
      expect((await t.put(`/deals/${ids[1]}`, { title: 'Sem mudar o status' })).status).toBe(200);
      await check('after status changes');
      expect((await t.delete(`/deals/${ids[2]}`)).status).toBe(200);
      expect((await t.delete(`/deals/${ids[2]}`)).status).toBe(200);
      await check('after archiving twice');
      expect((await t.put(`/deals/${ids[2]}`, { status: 'ativo' })).status).toBe(200);
      await check('after reopening');
      // Writes that bypass the API (an operator's SQL, a seed script) are counted by the triggers too.
      await db.updateTable('deals').set({ status: 'ganho' }).where('team_id', '=', t.teamId).where('phase', '=', 'proposta').execute();
      await db.deleteFrom('deals').where('id', '=', ids[4]!).execute();
      await check('after bulk SQL');
      expect(await total(t, '/deals')).toBe(5);
      // A filtered list is counted by its own query, consistent with the counters.
      expect(await total(t, '/deals?phase=lead')).toBe(2);
      expect(await total(t, '/deals?phase=proposta&status=ganho')).toBe(3);
    });

    it('client totals equal count(*) through deactivation and reactivation', async () => {
      const t = await h.team();
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push((await created(t, '/clients', { type: 'PF', name: `Cliente ${i}` })).id);
      expect((await t.delete(`/clients/${ids[0]}`)).status).toBe(200);
      expect((await t.delete(`/clients/${ids[1]}`)).status).toBe(200);
      expect((await t.put(`/clients/${ids[1]}`, { notes: 'voltou' })).status).toBe(200);
      expect(await total(t, '/clients')).toBe(3);
      expect(await total(t, '/clients?status=active')).toBe(3);
      expect(await total(t, '/clients?status=inactive')).toBe(1);
      expect(await total(t, '/clients?type=PF')).toBe(3);
    });

    it('counters of one team are not another team’s', async () => {
      const a = await h.team();
      const b = await h.team();
      await created(a, '/deals', { title: 'Só do time A' });
      expect(await total(a, '/deals')).toBe(1);
      expect(await total(b, '/deals')).toBe(0);
    });

    it('concurrent creates and opposite status changes: no error, totals exact', async () => {
      const t = await h.team();
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) ids.push((await created(t, '/deals', { title: `Corrida ${i}` })).id);
      const round = async (r: number) =>
        Promise.all([
          ...ids.map((id, i) => t.put(`/deals/${id}`, { status: (i + r) % 2 ? 'ganho' : 'perdido' })),
          ...Array.from({ length: 5 }, (_, i) => t.post('/deals', { title: `Novo ${r}-${i}` })),
        ]);
      for (let r = 0; r < 4; r++) {
        const answers = await round(r);
        expect(answers.map((a) => a.status).filter((s) => s !== 200 && s !== 201)).toEqual([]);
      }
      const { api, sqlCounts } = await dealTotals(t, db);
      expect(api).toEqual(sqlCounts);
      expect(api.default).toBe(30);
    });

    it('deep pages (ids first), search pages read either way, and value order with nulls last agree with one another', async () => {
      const t = await h.team();
      const created_: Array<{ id: string; value: number | null }> = [];
      for (let i = 0; i < 130; i++) {
        const value = i % 7 === 0 ? null : (i * 37) % 101;
        created_.push({ ...(await created(t, '/deals', { title: `Lote ${i}`, ...(value === null ? {} : { value }) })), value });
      }
      const walk = async (query: string, limit: number) => {
        const ids: string[] = [];
        for (let page = 1; ; page++) {
          const res = await t.get(`/deals?${query}&limit=${limit}&page=${page}`);
          expect(res.status, res.text).toBe(200);
          expect(res.body.pagination.total).toBe(130);
          if (res.body.data.length === 0) return ids;
          ids.push(...res.body.data.map((d: { id: string }) => d.id));
        }
      };
      const newestFirst = [...created_].reverse().map((d) => d.id);
      // Pages of 20 reach offset 100 and 120 (ids first); pages of 100 have one shallow and one deep page.
      expect(await walk('sort=-created_at', 20)).toEqual(newestFirst);
      expect(await walk('sort=-created_at', 100)).toEqual(newestFirst);
      // 130 hits: page 1 walks the date index, later pages (few hits for the offset) read the hits.
      expect(await walk('search=lote', 20)).toEqual(newestFirst);
      const byValueDesc = [...created_]
        .sort((a, b) => (a.value === null ? 1 : 0) - (b.value === null ? 1 : 0) || (b.value ?? 0) - (a.value ?? 0) || (a.id < b.id ? 1 : -1))
        .map((d) => d.id);
      expect(await walk('sort=-value', 20)).toEqual(byValueDesc);
      expect(await walk('sort=-value&search=lote', 20)).toEqual(byValueDesc);
    });

    it('search finds title and description words, accent-free, and follows edits', async () => {
      const t = await h.team();
      const civic = await created(t, '/deals', { title: 'Honda Civic blindado', description: 'Cliente quer financiar' });
      await created(t, '/deals', { title: 'Fiat Toro', description: 'Pagamento à vista, revisão feita' });
      await created(t, '/deals', { title: 'Jeep Compass 50% entrada' });
      await created(t, '/deals', { title: 'São João_2 (loja)' });
      expect(await titles(t, 'BLINDADO')).toEqual(['Honda Civic blindado']);
      expect(await titles(t, 'revisao')).toEqual(['Fiat Toro']);
      expect(await titles(t, 'sao joao')).toEqual(['São João_2 (loja)']);
      // Shorter than a trigram, and LIKE wildcards taken literally: same answers through the fallback.
      expect(await titles(t, 'Ro')).toEqual(['Fiat Toro']);
      expect(await titles(t, '50%')).toEqual(['Jeep Compass 50% entrada']);
      expect(await titles(t, 'o_2')).toEqual(['São João_2 (loja)']);
      expect(await titles(t, '%')).toEqual(['Jeep Compass 50% entrada']);
      // An edit moves the deal from the old words to the new ones; archiving hides it from the default list.
      expect((await t.put(`/deals/${civic.id}`, { title: 'Toyota Corolla' })).status).toBe(200);
      expect(await titles(t, 'blindado')).toEqual([]);
      expect(await titles(t, 'financiar')).toEqual(['Toyota Corolla']);
      expect(await titles(t, 'corolla')).toEqual(['Toyota Corolla']);
      expect((await t.delete(`/deals/${civic.id}`)).status).toBe(200);
      expect(await titles(t, 'corolla')).toEqual([]);
      const archived = await t.get('/deals?search=corolla&status=arquivado');
      expect(archived.body.data.map((d: { id: string }) => d.id)).toEqual([civic.id]);
    });

    it('client search by name, e-mail and CPF digits or punctuation goes through the index too', async () => {
      const t = await h.team();
      await created(t, '/clients', { type: 'PF', name: 'Conceição Gonçalves', email: 'conceicao@exemplo.com.br', cpf: '529.982.247-25' });
      await created(t, '/clients', { type: 'PF', name: 'Marcos Lima', cpf: '11144477735' });
      const names = async (q: string) => (await t.get(`/clients?search=${encodeURIComponent(q)}&sort=name`)).body.data.map((c: { name: string }) => c.name);
      expect(await names('goncalves')).toEqual(['Conceição Gonçalves']);
      expect(await names('EXEMPLO.COM')).toEqual(['Conceição Gonçalves']);
      expect(await names('52998224725')).toEqual(['Conceição Gonçalves']);
      expect(await names('111.444.777-35')).toEqual(['Marcos Lima']);
      expect(await names('444777')).toEqual(['Marcos Lima']);
      expect(await total(t, '/clients?search=lima')).toBe(1);
    });

    it('the trigram index can serve a contains search', async () => {
      const t = await h.team();
      await created(t, '/deals', { title: 'Índice de trigramas' });
      const condition = searchCondition(dialect, 'deals', ['trigramas'], t.teamId, 'listed');
      if (dialect === 'sqlite') {
        const plan = await sql<{ detail: string }>`explain query plan select id from deals where team_id = ${t.teamId} and ${condition}`.execute(db);
        expect(plan.rows.map((r) => r.detail).join('\n')).toMatch(/VIRTUAL TABLE INDEX .*deals_fts|SCAN deals_fts VIRTUAL TABLE/);
      } else {
        const plan = await db.connection().execute(async (conn) => {
          await sql`set enable_seqscan = off`.execute(conn);
          try {
            return await sql<{ 'QUERY PLAN': string }>`explain select id from deals where ${condition}`.execute(conn);
          } finally {
            await sql`reset enable_seqscan`.execute(conn);
          }
        });
        expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('deals_team_search_idx');
      }
      expect(await titles(t, 'trigramas')).toEqual(['Índice de trigramas']);
    });
  });

  describe(`migration 0004 on a database with data (${dialect})`, () => {
    it('fills the counters and the search index from the rows already there', async () => {
      const testDb = await openTestDb(dialect, { migrate: false });
      try {
        const kysely = testDb.db.kysely;
        const migrator = await stepMigrator(testDb.db);
        const before = await migrator.migrateTo('0003-idempotency');
        expect(before.error).toBeUndefined();
        // The schema of 0003 (teams.create also writes tables of later migrations).
        const team = { id: newId(), name: 'Loja antiga', plan: 'starter' as const, alert_email: null, created_at: new Date().toISOString() };
        await kysely.insertInto('teams').values(team).execute();
        await kysely
          .insertInto('team_phases')
          .values(DEFAULT_PHASES.map((p) => ({ ...p, team_id: team.id })))
          .execute();
        // The key too (the keys service reads tables of later migrations).
        const key = `ask_${randomBytes(32).toString('base64url')}`;
        await kysely
          .insertInto('api_keys')
          .values({
            id: newId(),
            team_id: team.id,
            name: null,
            prefix: key.slice(0, 10),
            key_hash: hashApiKey(key),
            scopes: 'deals:read deals:write clients:read clients:write',
            created_at: team.created_at,
            revoked_at: null,
          })
          .execute();
        // The rows of 0003's schema, written directly: the services and routes of today read tables of
        // later migrations (previews, last key use), so they cannot run on this schema.
        const at = team.created_at;
        const deal = (title: string, status: 'ativo' | 'arquivado') => ({
          id: newId(),
          team_id: team.id,
          title,
          currency: 'BRL',
          phase: 'lead',
          priority: 'media' as const,
          priority_rank: 2,
          probability: 10,
          status,
          tags: '[]',
          is_starred: 0,
          search_text: title.toLowerCase(),
          title_key: title.toLowerCase(),
          archived_at: status === 'arquivado' ? at : null,
          created_at: at,
          updated_at: at,
        });
        await kysely
          .insertInto('deals')
          .values([deal('Civic antigo', 'ativo'), deal('Corolla antigo', 'ativo'), deal('Onix antigo', 'ativo'), deal('Onix arquivado', 'arquivado')])
          .execute();
        await kysely
          .insertInto('clients')
          .values({
            id: newId(),
            team_id: team.id,
            type: 'PF',
            name: 'Cliente antigo',
            status: 'active',
            tags: '[]',
            search_text: 'cliente antigo',
            name_key: 'cliente antigo',
            created_at: at,
            updated_at: at,
          })
          .execute();

        await migrateToLatest(testDb.db);
        const app = await buildApp({ db: testDb.db });
        const call = (method: 'GET', url: string) => app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${key}` } });
        expect((await call('GET', '/deals')).json().pagination.total).toBe(3);
        expect((await call('GET', '/deals?status=arquivado')).json().pagination.total).toBe(1);
        expect((await call('GET', '/clients')).json().pagination.total).toBe(1);
        expect((await call('GET', '/deals?search=corolla')).json().data.map((d: { title: string }) => d.title)).toEqual(['Corolla antigo']);
        expect((await call('GET', '/clients?search=antigo')).json().pagination.total).toBe(1);
        await app.close();
      } finally {
        await testDb.close();
      }
    });
  });
}

describe.runIf(DIALECTS.includes('postgres'))('reads take no row locks (postgres)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('postgres');
  });
  afterAll(() => h.close());

  it('GET /deals/:id and GET /clients/:id answer while another transaction holds the rows FOR UPDATE', async () => {
    const t = await h.team();
    const client = await created(t, '/clients', { type: 'PF', name: 'Cliente travado' });
    const deal = await created(t, '/deals', { title: 'Negócio travado', client_id: client.id });
    const locker = new pg.Client({ connectionString: h.testDb.url });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('select id from deals where id = $1 for update', [deal.id]);
      await locker.query('select id from clients where id = $1 for update', [client.id]);
      // Before the fix a GET took FOR UPDATE itself, so it waited here until the lock was released.
      const blocked = new Promise<string>((resolve) => setTimeout(() => resolve('still waiting after 20 s'), 20_000).unref());
      const reads = Promise.all([t.get(`/deals/${deal.id}`), t.get(`/clients/${client.id}`)]).then((rs) => rs.map((r) => r.status).join(','));
      expect(await Promise.race([reads, blocked])).toBe('200,200');
      await locker.query('rollback');
    } finally {
      await locker.end();
    }
  });
});
