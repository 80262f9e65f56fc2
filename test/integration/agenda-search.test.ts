import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';
import { signedIn, TEST_HASHING, type PanelBrowser } from '../support/panel.js';

/**
 * A search of activities and financial records, in every sort (the default date order included), on
 * the preview API and the panel's lists: the listed records whose text holds the words, exactly, with
 * their total. These resources have no per-status counters, so they never take the counted listed
 * search's statement (it answered 500 on PostgreSQL in date order).
 */

describe.each(DIALECTS)('activities and financial records searched (%s)', (dialect) => {
  let h: Harness;
  let t: Caller;
  let panel: PanelBrowser;
  const activityIds: Record<string, string> = {};
  const recordIds: Record<string, string> = {};

  beforeAll(async () => {
    h = await createHarness(dialect, { passwordHashing: TEST_HASHING });
    t = await h.team({ scopes: ['activities:read', 'activities:write', 'financial:read', 'financial:write'] });
    await h.services.teams.setPreview(t.teamId, { enable: ['financial', 'activities'] });
    ({ browser: panel } = await signedIn(h, 'owner', t.teamId));
    for (let i = 0; i < 30; i++) {
      const title = i % 3 === 0 ? `Ligar para Conceição ${i}` : `Visita ${i}`;
      const a = await h.services.activities.create(t.teamId, {
        type: 'call',
        title,
        due_at: `2026-12-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z`,
      } as never);
      activityIds[title] = a.id;
      const description = i % 3 === 0 ? `Revisão Conceição ${i}` : `Entrada ${i}`;
      const r = await h.services.financial.create(t.teamId, {
        type: 'revenue',
        category: 'venda-veiculo',
        description,
        amount: 100 + i,
        due_date: `2026-12-${String((i % 28) + 1).padStart(2, '0')}`,
      } as never);
      recordIds[description] = r.id;
    }
  });
  afterAll(() => h?.close());

  const expected = (ids: Record<string, string>) =>
    Object.entries(ids)
      .filter(([text]) => text.includes('Conceição'))
      .map(([, id]) => id);

  for (const [resource, sorts, ids] of [
    ['activities', ['', 'created_at', '-created_at', 'due_at', '-updated_at', 'title'], () => activityIds],
    ['financial', ['', 'created_at', '-created_at', 'due_date', 'amount'], () => recordIds],
  ] as const) {
    it(`${resource}: every sort answers the matching records and their total, on the API and the panel`, async () => {
      for (const sort of sorts) {
        for (const search of ['conceicao', 'CONCEIÇÃO', 'ce']) {
          const query = `search=${encodeURIComponent(search)}&limit=4${sort ? `&sort=${sort}` : ''}`;
          const want = expected(ids()).length;
          const seen = new Set<string>();
          for (let page = 1; page <= 20; page++) {
            const api = await t.get(`/${resource}?${query}&page=${page}`);
            expect(api.status, `${resource}?${query} ${api.text}`).toBe(200);
            expect(api.body.pagination.total).toBe(want);
            const viaPanel = await panel.get(`/${resource}?${query}&page=${page}`);
            expect(viaPanel.status, viaPanel.text).toBe(200);
            expect(viaPanel.body.pagination.total).toBe(want);
            if (sort) expect(viaPanel.body.data.map((r: { id: string }) => r.id)).toEqual(api.body.data.map((r: { id: string }) => r.id));
            for (const row of api.body.data as Array<{ id: string }>) seen.add(row.id);
            if (api.body.data.length < 4) break;
          }
          expect([...seen].sort()).toEqual(expected(ids()).sort());
        }
      }
    });
  }
});
