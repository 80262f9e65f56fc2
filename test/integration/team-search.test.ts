import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createServices } from '../../src/app/services.js';
import { containsPattern } from '../../src/domain/shared/text-search.js';
import type { Database } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { DIALECTS, openTestDb, stepMigrator } from '../support/dialects.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';
import { seedOnOldSchema } from '../support/old-schema.js';

/**
 * Migration 0010 (issue 15): the search index knows each row's team and whether the default list
 * shows it, so a search reads only the team's hits and a default search is counted from the index
 * alone. What must not change, pinned against a plain LIKE over the table (the contract's
 * contains-match): the same rows, the same exact total, after every kind of write (the API, SQL
 * outside it, status changes, deletes, another team's writes, a team deleted), and after an upgrade
 * of a database holding data.
 */

type Table = 'deals' | 'clients' | 'vehicles';
const LISTED: Record<Table, string> = { deals: "status != 'arquivado'", clients: "status = 'active'", vehicles: "status != 'arquivado'" };

/** The ids a LIKE over the team's rows finds (status: the default list's, or one status). */
async function likeIds(db: Kysely<Database>, table: Table, teamId: string, query: string, status?: string): Promise<string[]> {
  const statusCondition = status === undefined ? sql.raw(LISTED[table]) : sql`status = ${status}`;
  const { rows } = await sql<{ id: string }>`select id from ${sql.table(table)} where team_id = ${teamId} and ${statusCondition}
    and search_text like ${containsPattern(query)} escape '\\'`.execute(db);
  return rows.map((r) => r.id).sort();
}

/** Every id the API answers for a search (walking the pages), and the total it gave. */
async function apiIds(t: Caller, table: Table, query: string, status?: string): Promise<{ ids: string[]; total: number }> {
  const ids: string[] = [];
  let total = -1;
  for (let page = 1; page < 50; page++) {
    const res = await t.get(`/${table}?search=${encodeURIComponent(query)}&limit=7&page=${page}${status ? `&status=${status}` : ''}`);
    expect(res.status, res.text).toBe(200);
    total = res.body.pagination.total;
    if (res.body.data.length === 0) break;
    ids.push(...res.body.data.map((r: { id: string }) => r.id));
  }
  return { ids: ids.sort(), total };
}

async function expectSameAsLike(t: Caller, db: Kysely<Database>, table: Table, queries: string[], statuses: Array<string | undefined>) {
  for (const status of statuses) {
    for (const query of queries) {
      const expected = await likeIds(db, table, t.teamId, query, status);
      const { ids, total } = await apiIds(t, table, query, status);
      expect({ table, query, status, ids, total }).toEqual({ table, query, status, ids: expected, total: expected.length });
    }
  }
}

/** A small deterministic generator: the same texts on every run. */
function prng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const WORDS = ['Conceição', 'Gonçalves', 'blindado', 'Onix', 'João', 'SUV', 'revisão', 'Araújo', '50%', 'o_2', 'aço', 'Çeu', '"aspas"', '11144477735'];
const QUERIES = [
  'conceicao',
  'GONÇALVES',
  'blind',
  'onix joao',
  'joao',
  'suv',
  'revisao',
  'arau',
  '50%',
  'o_2',
  'aco',
  'ceu',
  '"aspas"',
  'spas"',
  '444777',
  'zzz',
  'ão',
  'o',
  'ix ',
  'c',
];

for (const dialect of DIALECTS) {
  describe(`team-scoped search (${dialect})`, () => {
    let h: Harness;
    let db: Kysely<Database>;
    beforeAll(async () => {
      h = await createHarness(dialect);
      db = h.testDb.db.kysely;
    });
    afterAll(() => h.close());

    it('deals: the same rows and exact totals as a LIKE, through edits, status changes, archiving and SQL writes outside the API', async () => {
      const random = prng(7);
      const word = () => WORDS[Math.floor(random() * WORDS.length)]!;
      const [mine, other] = [await h.team(), await h.team()];
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) {
        for (const t of [mine, other]) {
          const res = await t.post('/deals', { title: `${word()} ${word()}`, ...(i % 3 === 0 ? { description: `${word()} ${word()}` } : {}) });
          expect(res.status, res.text).toBe(201);
          if (t === mine) ids.push(res.body.data.id);
        }
      }
      await expectSameAsLike(mine, db, 'deals', QUERIES, [undefined]);
      // Through the API: won, lost, archived, edited; then reopened.
      for (let i = 0; i < ids.length; i += 5) expect((await mine.put(`/deals/${ids[i]}`, { status: 'ganho' })).status).toBe(200);
      for (let i = 1; i < ids.length; i += 5) expect((await mine.delete(`/deals/${ids[i]}`)).status).toBe(200);
      for (let i = 2; i < ids.length; i += 5) expect((await mine.put(`/deals/${ids[i]}`, { title: `${word()} editado ${word()}` })).status).toBe(200);
      expect((await mine.put(`/deals/${ids[1]}`, { status: 'ativo' })).status).toBe(200);
      // Outside the API: a status flip, a text change, a delete (the triggers keep the index).
      await db.updateTable('deals').set({ status: 'arquivado' }).where('id', '=', ids[3]!).execute();
      await db.updateTable('deals').set({ search_text: 'conceicao direto' }).where('id', '=', ids[4]!).execute();
      await db.deleteFrom('deals').where('id', '=', ids[8]!).execute();
      await expectSameAsLike(mine, db, 'deals', [...QUERIES, 'editado', 'direto'], [undefined, 'ativo', 'ganho', 'arquivado']);
      await expectSameAsLike(other, db, 'deals', ['conceicao', 'blind', 'editado'], [undefined, 'arquivado']);
    });

    it('clients: name, e-mail and tax-id searches equal a LIKE, through deactivation, reactivation and other filters', async () => {
      const random = prng(11);
      const word = () => WORDS[Math.floor(random() * WORDS.length)]!;
      const [mine, other] = [await h.team(), await h.team()];
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) {
        for (const t of [mine, other]) {
          const res = await t.post('/clients', { type: 'PF', name: `${word()} ${word()}`, email: `c${i}@${t === mine ? 'minha' : 'outra'}.com.br` });
          expect(res.status, res.text).toBe(201);
          if (t === mine) ids.push(res.body.data.id);
        }
      }
      const cpf = await mine.post('/clients', { type: 'PF', name: 'Marcos Lima', cpf: '529.982.247-25' });
      expect(cpf.status, cpf.text).toBe(201);
      for (let i = 0; i < ids.length; i += 4) expect((await mine.delete(`/clients/${ids[i]}`)).status).toBe(200);
      // A PUT on an inactive client reactivates it (and here renames it).
      expect((await mine.put(`/clients/${ids[0]}`, { name: 'Reativado Conceição' })).status).toBe(200);
      await db.updateTable('clients').set({ status: 'inactive' }).where('id', '=', ids[1]!).execute();
      await expectSameAsLike(
        mine,
        db,
        'clients',
        [...QUERIES, 'minha.com', 'outra', '52998224725', '982.247', 'lima', 'reativado'],
        [undefined, 'active', 'inactive'],
      );
      // A punctuated CPF also finds the unpunctuated one (two phrases, one scope).
      const punctuated = await mine.get('/clients?search=529.982.247-25');
      expect(punctuated.body.pagination.total).toBe(1);
      // Another filter next to the search: the rows are checked, the hits still come from the team only.
      const typed = await mine.get('/clients?search=minha&type=PF&limit=100');
      expect(typed.body.data.map((c: { id: string }) => c.id).sort()).toEqual(await likeIds(db, 'clients', mine.teamId, 'minha'));
      expect(typed.body.pagination.total).toBe(typed.body.data.length);
      await expectSameAsLike(other, db, 'clients', ['minha', 'outra', 'conceicao'], [undefined]);
    });

    it('vehicles: plate and text searches equal a LIKE, archived ones only when asked for', async () => {
      const [mine, other] = [await h.team(), await h.team()];
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        for (const t of [mine, other]) {
          const plate = `ABC${i % 10}${String.fromCharCode(65 + i)}${10 + i}`;
          const res = await t.post('/vehicles', { title: `Chevrolet Onix ${WORDS[i]}`, brand: 'Chevrolet', model: 'Onix', plate });
          expect(res.status, res.text).toBe(201);
          if (t === mine) ids.push(res.body.data.id);
        }
      }
      for (let i = 0; i < ids.length; i += 3) expect((await mine.delete(`/vehicles/${ids[i]}`)).status).toBe(200);
      await expectSameAsLike(
        mine,
        db,
        'vehicles',
        ['onix', 'abc1b11', 'ABC-1B11', 'abc', 'conceicao', 'chevrolet onix', 'zz'],
        [undefined, 'ativo', 'arquivado'],
      );
      await expectSameAsLike(other, db, 'vehicles', ['onix', 'abc1b11'], [undefined, 'arquivado']);
    });

    it('a deleted team takes its rows out of the index; a team created afterwards sees only its own', async () => {
      const gone = await h.team();
      for (const title of ['Conceição blindado', 'Onix blindado']) expect((await gone.post('/deals', { title })).status).toBe(201);
      expect((await gone.post('/clients', { type: 'PF', name: 'Conceição Gonçalves' })).status).toBe(201);
      await db.deleteFrom('teams').where('id', '=', gone.teamId).execute();
      const fresh = await h.team();
      expect((await fresh.post('/deals', { title: 'Civic blindado' })).status).toBe(201);
      expect((await fresh.post('/clients', { type: 'PF', name: 'Conceição Lima' })).status).toBe(201);
      await expectSameAsLike(fresh, db, 'deals', ['blindado', 'conceicao', 'onix'], [undefined]);
      await expectSameAsLike(fresh, db, 'clients', ['conceicao', 'goncalves'], [undefined]);
      expect((await fresh.get('/deals?search=blindado')).body.pagination.total).toBe(1);
    });
  });

  describe(`migration 0010 on a database with data (${dialect})`, () => {
    it('indexes the rows already there with their team and status; new teams and rows join the index', async () => {
      const testDb = await openTestDb(dialect, { migrate: false });
      try {
        const migrator = await stepMigrator(testDb.db);
        expect((await migrator.migrateTo('0008-auth-epoch')).error).toBeUndefined();
        const deals: string[] = [];
        const teams = await seedOnOldSchema(dialect, testDb.db, async (seed) => {
          const seeded = [
            await seed.teams.create({ name: 'Loja antiga A', plan: 'starter', alertEmail: null }),
            await seed.teams.create({ name: 'Loja antiga B', plan: 'starter', alertEmail: null }),
          ];
          for (const team of seeded) {
            for (const title of ['Onix blindado', 'Civic blindado', 'Corolla Conceição', 'Toro']) {
              deals.push((await seed.deals.create(team.id, { title })).id);
            }
            const client = await seed.clients.create(team.id, { type: 'PF', name: 'Conceição Gonçalves', cpf: '529.982.247-25' });
            if (team === seeded[0]) await seed.clients.deactivate(team.id, client.id);
            await seed.clients.create(team.id, { type: 'PF', name: 'João Araújo' });
            await seed.vehicles.create(team.id, { title: 'Onix LT', brand: 'Chevrolet', model: 'Onix', plate: 'ABC1C34' });
          }
          await seed.deals.archive(seeded[0]!.id, deals[1]!);
          return seeded;
        });

        await migrateToLatest(testDb.db);
        const services = createServices(testDb.db);
        const key = await services.keys.create({ teamId: teams[0]!.id });
        const app = await buildApp({ db: testDb.db });
        const get = async (url: string) => (await app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${key.key}` } })).json();
        const titles = (body: { data: Array<{ title: string }> }) => body.data.map((d) => d.title).sort();
        expect(titles(await get('/deals?search=blindado'))).toEqual(['Onix blindado']);
        expect((await get('/deals?search=blindado')).pagination.total).toBe(1);
        expect(titles(await get('/deals?search=blindado&status=arquivado'))).toEqual(['Civic blindado']);
        expect((await get('/clients?search=conceicao')).pagination.total).toBe(0);
        expect((await get('/clients?search=conceicao&status=inactive')).pagination.total).toBe(1);
        expect((await get('/clients?search=araujo')).pagination.total).toBe(1);
        expect((await get('/vehicles?search=ABC-1234')).pagination.total).toBe(1);

        // A team created after the upgrade gets its own scope; its rows are found, and only them.
        const later = await services.teams.create({ name: 'Loja nova' });
        await services.deals.create(later.id, { title: 'Onix blindado novo' });
        const laterKey = await services.keys.create({ teamId: later.id });
        const res = await app.inject({ method: 'GET', url: '/api/v1/deals?search=blindado', headers: { authorization: `Bearer ${laterKey.key}` } });
        expect(res.json().data.map((d: { title: string }) => d.title)).toEqual(['Onix blindado novo']);
        await app.close();
      } finally {
        await testDb.close();
      }
    });
  });
}
