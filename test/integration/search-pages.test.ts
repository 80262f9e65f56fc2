import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containsPattern } from '../../src/domain/shared/text-search.js';
import type { Database } from '../../src/storage/database.js';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';

/**
 * Search pages in order (issue 15): however a search page is read (the FTS hits or a walk of the
 * sort's index on SQLite, one statement for short hit lists, constant LIMIT/OFFSET in the SQL), every
 * page of every search, in every sort and status, must be exactly the slice of a plain reference query
 * (a LIKE over the team's rows, ordered by the sort then id, nulls last), and every page must carry
 * the reference's exact total. Hit lists of 0, 1, a few, about FEW_ROWS and well over it, so a walk of
 * the pages crosses from one way of reading to the other (and past the deep-page offset).
 */

type Table = 'deals' | 'clients' | 'vehicles';
const LISTED: Record<Table, string> = { deals: "status != 'arquivado'", clients: "status = 'active'", vehicles: "status != 'arquivado'" };
/** API sort field -> stored column it orders by. */
const SORT_COLUMN: Record<Table, Record<string, string>> = {
  deals: { created_at: 'created_at', updated_at: 'updated_at', title: 'title_key', value: 'value_cents' },
  clients: { created_at: 'created_at', name: 'name_key', segment: 'segment' },
  vehicles: { created_at: 'created_at', title: 'title_key', price: 'price_cents' },
};

/** The reference: the team's rows whose text holds any of `forms`, in the sort's order (nulls last), ties by id. */
async function referenceIds(db: Kysely<Database>, table: Table, teamId: string, forms: string[], sort: string, status?: string): Promise<string[]> {
  const desc = sort.startsWith('-');
  const column = sql.ref(SORT_COLUMN[table][desc ? sort.slice(1) : sort]!);
  const dir = sql.raw(desc ? 'desc' : 'asc');
  const statusCondition = status === undefined ? sql.raw(LISTED[table]) : sql`status = ${status}`;
  const likes = forms.map((f) => sql`search_text like ${containsPattern(f)} escape '\\'`);
  const { rows } = await sql<{ id: string }>`select id from ${sql.table(table)} where team_id = ${teamId} and ${statusCondition}
    and (${sql.join(likes, sql` or `)}) order by case when ${column} is null then 1 else 0 end, ${column} ${dir}, id ${dir}`.execute(db);
  return rows.map((r) => r.id);
}

/** Every page the API answers, in order: its ids and its total, past the last row. */
async function apiPages(t: Caller, table: Table, query: string, sort: string, limit: number, status?: string) {
  const pages: Array<{ ids: string[]; total: number }> = [];
  for (let page = 1; page < 200; page++) {
    const res = await t.get(`/${table}?search=${encodeURIComponent(query)}&sort=${sort}&limit=${limit}&page=${page}${status ? `&status=${status}` : ''}`);
    expect(res.status, res.text).toBe(200);
    pages.push({ ids: res.body.data.map((r: { id: string }) => r.id), total: res.body.pagination.total });
    if (res.body.data.length === 0) break;
  }
  return pages;
}

async function expectPagesOfReference(
  t: Caller,
  db: Kysely<Database>,
  table: Table,
  queries: Array<{ query: string; forms?: string[] }>,
  sorts: string[],
  statuses: Array<string | undefined>,
) {
  for (const status of statuses) {
    for (const { query, forms } of queries) {
      for (const sort of sorts) {
        const expected = await referenceIds(db, table, t.teamId, forms ?? [query], sort, status);
        for (const limit of [7, 20]) {
          const pages = await apiPages(t, table, query, sort, limit, status);
          const want = Array.from({ length: pages.length }, (_, i) => ({ ids: expected.slice(i * limit, (i + 1) * limit), total: expected.length }));
          expect({ table, query, sort, status, limit, pages }).toEqual({ table, query, sort, status, limit, pages: want });
        }
      }
    }
  }
}

/** A small deterministic generator: the same data on every run. */
function prng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

for (const dialect of DIALECTS) {
  describe(`search pages in order against a reference query (${dialect})`, () => {
    let h: Harness;
    let db: Kysely<Database>;
    beforeAll(async () => {
      h = await createHarness(dialect);
      db = h.testDb.db.kysely;
    });
    afterAll(() => h.close());

    it('deals: every page of common, rare, single-hit, missing and short searches, in four sorts and two statuses', async () => {
      const random = prng(3);
      const [mine, other] = [await h.team({ plan: 'autoshopping' }), await h.team({ plan: 'autoshopping' })];
      const ids: string[] = [];
      for (let i = 0; i < 190; i++) {
        // 'onix' in ~80%, 'blindado' in ~15%, 'unico' once, 'par' in 52 (about FEW_ROWS).
        const words = [random() < 0.8 ? 'Onix' : 'Civic', random() < 0.15 ? 'blindado' : 'LT', i === 77 ? 'único' : '', i % 4 === 0 && i < 200 ? 'par' : ''];
        const value = random() < 0.2 ? undefined : Math.floor(random() * 5) * 1000;
        const deal = await h.services.deals.create(mine.teamId, { title: words.join(' ').trim(), ...(value === undefined ? {} : { value }) });
        ids.push(deal.id);
        if (i % 3 === 0) await h.services.deals.create(other.teamId, { title: 'Onix blindado par único' });
      }
      for (let i = 0; i < ids.length; i += 6) await h.services.deals.archive(mine.teamId, ids[i]!);
      for (let i = 1; i < ids.length; i += 9) await h.services.deals.update(mine.teamId, ids[i]!, { status: 'ganho' });
      await expectPagesOfReference(
        mine,
        db,
        'deals',
        [{ query: 'onix' }, { query: 'blindado' }, { query: 'par' }, { query: 'único' }, { query: 'zzz' }, { query: 'lt' }],
        ['-created_at', 'created_at', 'title', '-value'],
        [undefined, 'arquivado'],
      );
    }, 240_000);

    it('clients: every page of name searches in three sorts, active and inactive', async () => {
      const random = prng(5);
      const mine = await h.team({ plan: 'autoshopping' });
      const ids: string[] = [];
      const first = ['João', 'Maria', 'Antônio', 'Ana'];
      const last = ['Gonçalves', 'Araújo', 'Silva', 'Conceição'];
      for (let i = 0; i < 160; i++) {
        // Every other one names a referral's CPF: a full tax number held by more clients than one read takes (FEW_ROWS).
        const name = `${first[Math.floor(random() * 4)]} ${last[Math.floor(random() * 4)]}${i === 33 ? ' Magalhães' : ''}${i % 2 ? '' : ' indicado por 52998224725'}`;
        const segment = random() < 0.3 ? undefined : (['vip', 'regular'] as const)[Math.floor(random() * 2)];
        const client = await h.services.clients.create(mine.teamId, { type: 'PF', name, ...(segment ? { segment } : {}) });
        ids.push(client.id);
      }
      for (let i = 0; i < ids.length; i += 5) await h.services.clients.deactivate(mine.teamId, ids[i]!);
      await expectPagesOfReference(
        mine,
        db,
        'clients',
        [
          { query: 'goncalves' },
          { query: 'antonio' },
          { query: 'magalhaes' },
          { query: 'joao araujo' },
          { query: 'xyz' },
          { query: '52998224725' },
          { query: '529.982.247-25', forms: ['529.982.247-25', '52998224725'] },
        ],
        ['name', '-created_at', 'segment'],
        [undefined, 'inactive'],
      );
    }, 240_000);

    it('vehicles: every page of plate and text searches in three sorts, listed and archived', async () => {
      const mine = await h.team({ plan: 'autoshopping' });
      const ids: string[] = [];
      for (let i = 0; i < 70; i++) {
        const plate = `ABC${i % 10}${String.fromCharCode(65 + (i % 26))}${10 + (i % 90)}`;
        const price = i % 7 === 0 ? undefined : 30000 + (i % 5) * 10000;
        const vehicle = await h.services.vehicles.create(mine.teamId, {
          title: `Chevrolet Onix ${i % 2 ? 'LT' : 'LTZ'}`,
          brand: 'Chevrolet',
          model: 'Onix',
          plate,
          ...(price === undefined ? {} : { price }),
        });
        ids.push(vehicle.id);
      }
      // A plate-shaped text in more titles than one read takes (FEW_ROWS): a whole plate is read as a few matches first.
      for (let i = 0; i < 60; i++) ids.push((await h.services.vehicles.create(mine.teamId, { title: `Lote QRS2C34 ${i}`, brand: 'Fiat', model: 'Uno' })).id);
      for (let i = 0; i < ids.length; i += 4) await h.services.vehicles.archive(mine.teamId, ids[i]!);
      await expectPagesOfReference(
        mine,
        db,
        'vehicles',
        [{ query: 'onix' }, { query: 'ltz' }, { query: 'ABC1B11' }, { query: 'ABC-1B11' }, { query: 'abc1' }, { query: 'QRS2C34' }],
        ['-created_at', 'title', '-price'],
        [undefined, 'arquivado'],
      );
    }, 240_000);
  });
}
