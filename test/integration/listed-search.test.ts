import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { containsPattern } from '../../src/domain/shared/text-search.js';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';

/**
 * A search of the listed rows and nothing else reads its page one of three ways (search-sql.ts,
 * listedSearchPage: from the hits, walking the sort's index against the hits, or walking it checking
 * each row's text when the hits are dense), chosen inside its statement from the counts it reads
 * itself. Pinned here: whichever way, the answer is the plain reference's (the team's listed rows
 * whose text holds the words, newest first, ties by id) with its exact total, as the hits thin out
 * between two requests; and on PostgreSQL an identical request sends identical statements whatever
 * came before it (the way of reading never depends on an earlier request of the process).
 */

async function referenceIds(h: Harness, table: string, teamId: string, listed: string, word: string, sort = 'created_at'): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`select id from ${sql.table(table)} where team_id = ${teamId} and ${sql.raw(listed)}
    and search_text like ${containsPattern(word)} escape '\\' order by ${sql.ref(sort)} desc, id desc`.execute(h.testDb.db.kysely);
  return rows.map((r) => r.id);
}

/** The answer to `path`, and (PostgreSQL) the statements of its search. */
async function searchWith(t: Caller, path: string) {
  const query = vi.spyOn(pg.Client.prototype, 'query');
  try {
    const res = await t.get(path);
    expect(res.status, res.text).toBe(200);
    // The search's statements (those of authentication are left out: the first request of a key warms its cache).
    const sent = query.mock.calls.map(([q]) => (typeof q === 'string' ? q : ((q as { text?: string }).text ?? ''))).filter((s) => s.includes('search_text'));
    return { body: res.body as { data: Array<{ id: string }>; pagination: { total: number } }, sent };
  } finally {
    query.mockRestore();
  }
}

describe.each(DIALECTS)('listed searches (%s)', (dialect) => {
  let h: Harness;
  afterAll(async () => h?.close());

  it('deals: dense, sparse and thinned-out searches answer the reference; the same request, the same statements', async () => {
    h ??= await createHarness(dialect);
    const t = await h.team({ plan: 'autoshopping' });
    const ids: string[] = [];
    for (let i = 0; i < 160; i++)
      ids.push((await h.services.deals.create(t.teamId, { title: i === 7 ? 'Civic único' : i % 5 === 0 ? 'Civic' : 'Onix LT' })).id);
    const listed = "status != 'arquivado'";
    const expectReference = async (word: string, page = 1) => {
      const answer = await searchWith(t, `/deals?search=${word}&page=${page}`);
      const all = await referenceIds(h, 'deals', t.teamId, listed, word);
      expect(answer.body.data.map((d) => d.id)).toEqual(all.slice((page - 1) * 20, page * 20));
      expect(answer.body.pagination.total).toBe(all.length);
      return answer;
    };
    // 127 of 160 listed deals: dense for page 1 on both databases (127² > 5 × 20 × 160); page 2 wants 40 rows (127 hits are few for it); one rare word.
    const first = await expectReference('onix');
    expect(first.body.pagination.total).toBe(127);
    const second = await expectReference('onix');
    expect(second.body).toEqual(first.body);
    if (dialect === 'postgres') expect(second.sent).toEqual(first.sent);
    await expectReference('onix', 2);
    await expectReference('onix', 7);
    await expectReference('unico');
    await expectReference('civic');
    // The hits thin out: the answer follows at once.
    for (const [i, id] of ids.entries()) if (i > 2 && i !== 7 && i % 5 !== 0) await h.services.deals.archive(t.teamId, id);
    const thinned = await expectReference('onix');
    expect(thinned.body.data.map((d) => d.id)).toEqual([ids[2], ids[1]]);
    const again = await expectReference('onix');
    if (dialect === 'postgres') expect(again.sent).toEqual(thinned.sent);
  });

  it('clients and vehicles: the same answers as the reference, in date order and another', async () => {
    h ??= await createHarness(dialect);
    const t = await h.team({ plan: 'autoshopping' });
    for (let i = 0; i < 140; i++) {
      await h.services.clients.create(t.teamId, { type: 'PF', name: i % 4 ? `Maria Gonçalves ${i}` : `Ana Silva ${i}` });
      await h.services.vehicles.create(t.teamId, { title: i % 4 ? `Onix LT ${i}` : `Civic ${i}`, brand: 'Chevrolet', model: 'Onix' });
    }
    for (const [table, word, listed, other] of [
      ['clients', 'goncalves', "status = 'active'", 'name_key'],
      ['vehicles', 'onix lt', "status != 'arquivado'", 'title_key'],
    ] as const) {
      const all = await referenceIds(h, table, t.teamId, listed, word);
      expect(all).toHaveLength(105);
      for (const sort of ['', '&sort=-created_at']) {
        const first = await searchWith(t, `/${table}?search=${encodeURIComponent(word)}${sort}`);
        expect(first.body.data.map((r) => r.id)).toEqual(all.slice(0, 20));
        expect(first.body.pagination.total).toBe(105);
        const second = await searchWith(t, `/${table}?search=${encodeURIComponent(word)}${sort}`);
        expect(second.body).toEqual(first.body);
        if (dialect === 'postgres') expect(second.sent).toEqual(first.sent);
      }
      const byName = await referenceIds(h, table, t.teamId, listed, word, other);
      const answer = await searchWith(t, `/${table}?search=${encodeURIComponent(word)}&sort=-${other === 'name_key' ? 'name' : 'title'}`);
      expect(answer.body.data.map((r) => r.id)).toEqual(byName.slice(0, 20));
    }
  });
});
