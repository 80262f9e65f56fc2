import { afterAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { createHarness, type Caller, type Harness } from '../support/harness.js';
import { DIALECTS } from '../support/dialects.js';

/**
 * Issue 15, PostgreSQL: a listed search in date order is read by walking the date index, each row
 * checked with strpos(), once this process has counted the same search dense for the page wanted
 * (domain/shared/search-sql.ts, pgListedSearchPage). The planner's trigram estimate for a common
 * word in a large team is far too low, so left to itself it read every hit, joined and sorted them.
 * Pinned here: which statement each request sends (the first counts, the next walk; a sparse search
 * never walks), and that the walked answer is the indexed one: the same rows, order and exact total,
 * also once the search has turned sparse after the count it was chosen by.
 */

const texts = (calls: unknown[][]) => calls.map(([q]) => (typeof q === 'string' ? q : ((q as { text?: string }).text ?? '')));

async function searchWith(t: Caller, path: string) {
  const query = vi.spyOn(pg.Client.prototype, 'query');
  try {
    const res = await t.get(path);
    expect(res.status, res.text).toBe(200);
    return { body: res.body as { data: Array<{ id: string }>; pagination: { total: number } }, sql: texts(query.mock.calls) };
  } finally {
    query.mockRestore();
  }
}

const walks = (sql: string[]) => sql.some((s) => s.includes('strpos('));

describe.runIf(DIALECTS.includes('postgres'))('postgres: dense listed searches walk the date index', () => {
  let h: Harness;
  afterAll(async () => h?.close());

  it('deals: the first request counts, the next walk with the same answer; a rare word never walks; an answer stays exact when the hits thin out', async () => {
    h ??= await createHarness('postgres');
    const t = await h.team({ plan: 'autoshopping' });
    const ids: string[] = [];
    for (let i = 0; i < 150; i++)
      ids.push((await h.services.deals.create(t.teamId, { title: i === 7 ? 'Civic único' : i % 5 === 0 ? 'Civic' : 'Onix LT' })).id);
    // 119 of 150 listed deals: more than the hits drive (5 × (0 + 20)), and hits² = 14,161 > (0 + 20) × 150.
    const first = await searchWith(t, '/deals?search=onix');
    expect(walks(first.sql)).toBe(false);
    expect(first.body.pagination.total).toBe(119);
    const second = await searchWith(t, '/deals?search=onix');
    expect(walks(second.sql)).toBe(true);
    expect(second.body).toEqual(first.body);
    // Page 2 wants 40 rows: 119 hits are not more than the hits drive (5 × 40), so they are read from the index.
    const page2 = await searchWith(t, '/deals?search=onix&page=2');
    expect(walks(page2.sql)).toBe(false);
    expect(page2.body.data.map((d) => d.id)).toEqual(
      ids
        .filter((_, i) => i !== 7 && i % 5 !== 0)
        .reverse()
        .slice(20, 40),
    );
    for (let i = 0; i < 2; i++) expect(walks((await searchWith(t, '/deals?search=unico')).sql)).toBe(false);
    // The hits thin out: the walk chosen by the last count still answers exactly, and the count it brings back stops the walking.
    for (const [i, id] of ids.entries()) if (i > 2 && i !== 7 && i % 5 !== 0) await h.services.deals.archive(t.teamId, id);
    const thinned = await searchWith(t, '/deals?search=onix');
    expect(walks(thinned.sql)).toBe(true);
    expect(thinned.body.data.map((d) => d.id)).toEqual([ids[2], ids[1]]);
    expect(thinned.body.pagination.total).toBe(2);
    expect(walks((await searchWith(t, '/deals?search=onix')).sql)).toBe(false);
  });

  it('clients and vehicles: the same rule, with the same answers', async () => {
    h ??= await createHarness('postgres');
    const t = await h.team({ plan: 'autoshopping' });
    for (let i = 0; i < 140; i++) {
      await h.services.clients.create(t.teamId, { type: 'PF', name: i % 4 ? `Maria Gonçalves ${i}` : `Ana Silva ${i}` });
      await h.services.vehicles.create(t.teamId, { title: i % 4 ? `Onix LT ${i}` : `Civic ${i}`, brand: 'Chevrolet', model: 'Onix' });
    }
    for (const path of ['/clients?search=goncalves', '/vehicles?search=onix%20lt']) {
      const first = await searchWith(t, path);
      expect(walks(first.sql)).toBe(false);
      expect(first.body.pagination.total).toBe(105);
      const second = await searchWith(t, path);
      expect(walks(second.sql), path).toBe(true);
      expect(second.body).toEqual(first.body);
      expect(walks((await searchWith(t, `${path}&sort=created_at`)).sql)).toBe(true);
      // Another order is not walked (only the date order has an index on every table).
      expect(walks((await searchWith(t, `${path}&sort=${path.startsWith('/clients') ? 'name' : 'title'}`)).sql)).toBe(false);
    }
  });
});
