import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../support/clock.js';
import { DIALECTS } from '../support/dialects.js';
import { expectError } from '../support/expect.js';
import { storeOf } from '../support/stores.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';

const UNKNOWN_UUID = '0190f5c2-7e1a-7b3c-8d4e-5f6a7b8c9d0e';
const SORT_FIELDS = ['created_at', 'updated_at', 'title', 'value', 'probability', 'expected_close_date', 'priority', 'phase', 'status'];

async function createDeal(t: Caller, body: Record<string, unknown> = {}) {
  const res = await t.post('/deals', { title: 'Negócio', ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

/** Creates the deals one after the other (ids and created_at follow the order). */
async function createDeals(t: Caller, bodies: Array<Record<string, unknown>>) {
  const deals: any[] = [];
  for (const body of bodies) deals.push(await createDeal(t, body));
  return deals;
}

async function setStatus(t: Caller, id: string, status: string) {
  const res = await t.put(`/deals/${id}`, { status });
  expect(res.status, res.text).toBe(200);
}

/** GET /deals?query, expecting 200; answers the body. */
async function list(t: Caller, query = '') {
  const res = await t.get(`/deals${query ? `?${query}` : ''}`);
  expect(res.status, res.text).toBe(200);
  expect(res.body.success).toBe(true);
  return res.body as { success: true; data: any[]; pagination: { page: number; limit: number; total: number; pages: number } };
}

const idsOf = async (t: Caller, query = '') => (await list(t, query)).data.map((d) => d.id as string);
const titlesOf = async (t: Caller, query = '') => (await list(t, query)).data.map((d) => d.title as string);

/** `YYYY-MM-DD` shifted by whole days. */
function shiftDay(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

for (const dialect of DIALECTS) {
  describe(`GET /deals (${dialect})`, () => {
    let h: Harness;
    // Time is the test's: writes get the times it sets, and "later" is one advance away (no sleeping).
    const clock = fakeClock();
    beforeAll(async () => {
      h = await createHarness(dialect, { clock });
    });
    afterAll(() => h.close());

    describe('pagination', () => {
      it('an empty team: [] with page 1, limit 20, total 0, pages 0', async () => {
        const t = await h.team();
        const res = await t.get('/deals');
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ success: true, data: [], pagination: { page: 1, limit: 20, total: 0, pages: 0 } });
      });

      it('defaults to page 1, limit 20, newest first', async () => {
        const t = await h.team();
        const deals = await createDeals(
          t,
          Array.from({ length: 21 }, (_, i) => ({ title: `Negócio ${i}` })),
        );
        const newestFirst = deals.map((d) => d.id).reverse();
        const first = await list(t);
        expect(first.pagination).toEqual({ page: 1, limit: 20, total: 21, pages: 2 });
        expect(first.data.map((d) => d.id)).toEqual(newestFirst.slice(0, 20));
        const second = await list(t, 'page=2');
        expect(second.pagination).toEqual({ page: 2, limit: 20, total: 21, pages: 2 });
        expect(second.data.map((d) => d.id)).toEqual(newestFirst.slice(20));
        expect(await idsOf(t, 'sort=-created_at&limit=100')).toEqual(newestFirst);
      });

      it('limit=100 is accepted; limit=500 is clamped to 100', async () => {
        const t = await h.team();
        await createDeals(t, [{}, {}, {}]);
        const hundred = await list(t, 'limit=100');
        expect(hundred.pagination).toEqual({ page: 1, limit: 100, total: 3, pages: 1 });
        expect(hundred.data).toHaveLength(3);
        const clamped = await list(t, 'limit=500');
        expect(clamped.pagination).toEqual({ page: 1, limit: 100, total: 3, pages: 1 });
        expect(clamped.data).toHaveLength(3);
      });

      it.each([
        ['page=0', 'page'],
        ['page=-1', 'page'],
        ['page=abc', 'page'],
        ['page=1.5', 'page'],
        ['limit=0', 'limit'],
        ['limit=-5', 'limit'],
        ['limit=1.5', 'limit'],
        ['limit=abc', 'limit'],
      ])('%s: 400 VALIDATION_ERROR', async (query, param) => {
        const t = await h.team();
        expectError(await t.get(`/deals?${query}`), 400, 'VALIDATION_ERROR', `Parâmetro '${param}' deve ser um número inteiro positivo`);
      });

      it('pages = ceil(total / limit); a page past the end is [] with the right total', async () => {
        const t = await h.team();
        await createDeals(t, [{}, {}, {}, {}, {}]);
        expect((await list(t, 'limit=2')).pagination).toEqual({ page: 1, limit: 2, total: 5, pages: 3 });
        expect((await list(t, 'limit=5')).pagination).toEqual({ page: 1, limit: 5, total: 5, pages: 1 });
        expect((await list(t, 'limit=3')).pagination).toEqual({ page: 1, limit: 3, total: 5, pages: 2 });
        const last = await list(t, 'limit=2&page=3');
        expect(last.data).toHaveLength(1);
        const past = await list(t, 'limit=2&page=4');
        expect(past.data).toEqual([]);
        expect(past.pagination).toEqual({ page: 4, limit: 2, total: 5, pages: 3 });
        const farPast = await list(t, 'page=999999');
        expect(farPast.data).toEqual([]);
        expect(farPast.pagination).toEqual({ page: 999999, limit: 20, total: 5, pages: 1 });
      });

      it('paging through with limit=2 visits every item exactly once, in order', async () => {
        const t = await h.team();
        const deals = await createDeals(t, [{ title: 'A' }, { title: 'B' }, { title: 'C' }, { title: 'D' }, { title: 'E' }]);
        const seen: string[] = [];
        for (let page = 1; page <= 3; page++) seen.push(...(await idsOf(t, `limit=2&page=${page}`)));
        expect(seen).toEqual(deals.map((d) => d.id).reverse());
        const byTitle: string[] = [];
        for (let page = 1; page <= 3; page++) byTitle.push(...(await titlesOf(t, `limit=2&page=${page}&sort=title`)));
        expect(byTitle).toEqual(['A', 'B', 'C', 'D', 'E']);
      });

      it('with ties on the sort field, paging is stable: ties are broken by id', async () => {
        const t = await h.team();
        const deals = await createDeals(
          t,
          Array.from({ length: 7 }, () => ({ probability: 50, priority: 'alta', value: 10 })),
        );
        const ids = deals.map((d) => d.id);
        for (const [sort, expected] of [
          ['probability', ids],
          ['-probability', [...ids].reverse()],
          ['priority', ids],
          ['-value', [...ids].reverse()],
        ] as const) {
          const seen: string[] = [];
          for (let page = 1; page <= 4; page++) seen.push(...(await idsOf(t, `limit=2&page=${page}&sort=${sort}`)));
          expect(seen, sort).toEqual(expected);
        }
      });
    });

    describe('filters', () => {
      it('status: the default leaves out arquivado; each status lists only its deals', async () => {
        const t = await h.team();
        const [ativo, ganho, perdido, arquivado] = await createDeals(t, [{ title: 'ativo' }, { title: 'ganho' }, { title: 'perdido' }, { title: 'arquivado' }]);
        await setStatus(t, ganho.id, 'ganho');
        await setStatus(t, perdido.id, 'perdido');
        expect((await t.delete(`/deals/${arquivado.id}`)).status).toBe(200);
        expect(await idsOf(t)).toEqual([perdido.id, ganho.id, ativo.id]);
        expect((await list(t)).pagination.total).toBe(3);
        expect(await idsOf(t, 'status=ativo')).toEqual([ativo.id]);
        expect(await idsOf(t, 'status=ganho')).toEqual([ganho.id]);
        expect(await idsOf(t, 'status=perdido')).toEqual([perdido.id]);
        const archived = await list(t, 'status=arquivado');
        expect(archived.data.map((d) => d.id)).toEqual([arquivado.id]);
        expect(archived.pagination).toEqual({ page: 1, limit: 20, total: 1, pages: 1 });
      });

      it('status outside the set: 400 Status inválido', async () => {
        const t = await h.team();
        expectError(await t.get('/deals?status=fechado'), 400, 'VALIDATION_ERROR', 'Status inválido');
      });

      it('phase', async () => {
        const t = await h.team();
        const [, proposta1, , proposta2] = await createDeals(t, [{ phase: 'lead' }, { phase: 'proposta' }, { phase: 'negociacao' }, { phase: 'proposta' }]);
        expect(await idsOf(t, 'phase=proposta')).toEqual([proposta2.id, proposta1.id]);
        expect((await list(t, 'phase=proposta')).pagination.total).toBe(2);
        expect(await idsOf(t, 'phase=fechamento')).toEqual([]);
        expect(await idsOf(t, 'phase=inexistente')).toEqual([]);
      });

      it('client_id: the client deals; a non-UUID or unknown id matches nothing (200)', async () => {
        const t = await h.team();
        const c1 = (await t.post('/clients', { type: 'PF', name: 'Cliente Um' })).body.data;
        const c2 = (await t.post('/clients', { type: 'PF', name: 'Cliente Dois' })).body.data;
        const [a, , c] = await createDeals(t, [{ client_id: c1.id }, { client_id: c2.id }, { client_id: c1.id }, {}]);
        const res = await list(t, `client_id=${c1.id}`);
        expect(res.data.map((d) => d.id)).toEqual([c.id, a.id]);
        expect(res.data.every((d) => d.client?.id === c1.id && d.client?.name === 'Cliente Um')).toBe(true);
        expect(res.pagination.total).toBe(2);
        expect(await idsOf(t, `client_id=${c1.id.toUpperCase()}`)).toEqual([c.id, a.id]);
        for (const bad of ['abc', 'not-a-uuid', UNKNOWN_UUID]) {
          const empty = await t.get(`/deals?client_id=${bad}`);
          expect(empty.status, bad).toBe(200);
          expect(empty.body, bad).toEqual({ success: true, data: [], pagination: { page: 1, limit: 20, total: 0, pages: 0 } });
        }
      });

      it('responsible_id, source and store_id are exact filters', async () => {
        const t = await h.team();
        const [loja1, loja2] = [await storeOf(h, t.teamId, 'Loja 1'), await storeOf(h, t.teamId, 'Loja 2')];
        const [a, b, c] = await createDeals(t, [
          { responsible_id: 'user-1', source: 'showroom', store_id: loja1 },
          { responsible_id: 'user-2', source: 'portal', store_id: loja1 },
          { responsible_id: 'user-1', source: 'portal', store_id: loja2 },
          {},
        ]);
        expect(await idsOf(t, 'responsible_id=user-1')).toEqual([c.id, a.id]);
        expect(await idsOf(t, 'responsible_id=user-2')).toEqual([b.id]);
        expect(await idsOf(t, 'responsible_id=user')).toEqual([]);
        expect(await idsOf(t, 'source=portal')).toEqual([c.id, b.id]);
        expect(await idsOf(t, 'source=showroom')).toEqual([a.id]);
        expect(await idsOf(t, 'source=site')).toEqual([]);
        expect(await idsOf(t, `store_id=${loja1}`)).toEqual([b.id, a.id]);
        expect(await idsOf(t, `store_id=${loja2}`)).toEqual([c.id]);
        expect((await list(t, `store_id=${loja1}`)).pagination.total).toBe(2);
      });

      it('min_value and max_value are inclusive; deals without value never match', async () => {
        const t = await h.team();
        const [v100, v200, v300, , v250] = await createDeals(t, [{ value: 100 }, { value: 200 }, { value: 300 }, {}, { value: 200.5 }]);
        expect(await idsOf(t, 'min_value=200')).toEqual([v250.id, v300.id, v200.id]);
        expect(await idsOf(t, 'max_value=200')).toEqual([v200.id, v100.id]);
        expect(await idsOf(t, 'min_value=200&max_value=200')).toEqual([v200.id]);
        expect(await idsOf(t, 'min_value=100&max_value=300')).toEqual([v250.id, v300.id, v200.id, v100.id]);
        expect(await idsOf(t, 'min_value=200.5&max_value=200.5')).toEqual([v250.id]);
        expect(await idsOf(t, 'min_value=0')).toHaveLength(4);
        expect(await idsOf(t, 'min_value=301')).toEqual([]);
        expect((await list(t, 'min_value=200')).pagination.total).toBe(3);
      });

      it('min_value that is not a number: 400', async () => {
        const t = await h.team();
        expectError(await t.get('/deals?min_value=abc'), 400, 'VALIDATION_ERROR', "Parâmetro 'min_value' deve ser um número");
      });

      it('from and to are inclusive on the UTC creation date', async () => {
        const t = await h.team();
        const deal = await createDeal(t);
        const today = deal.created_at.slice(0, 10);
        const yesterday = shiftDay(today, -1);
        const tomorrow = shiftDay(today, 1);
        expect(await idsOf(t, `from=${today}&to=${today}`)).toEqual([deal.id]);
        expect(await idsOf(t, `from=${today}`)).toEqual([deal.id]);
        expect(await idsOf(t, `to=${today}`)).toEqual([deal.id]);
        expect(await idsOf(t, `from=${yesterday}&to=${tomorrow}`)).toEqual([deal.id]);
        expect(await idsOf(t, `to=${yesterday}`)).toEqual([]);
        expect(await idsOf(t, `from=${tomorrow}`)).toEqual([]);
        expect((await list(t, `to=${yesterday}`)).pagination).toEqual({ page: 1, limit: 20, total: 0, pages: 0 });
      });

      it.each(['from=2026-13-01', 'to=2026-02-30', 'from=22/11/2026'])('%s: 400', async (query) => {
        const t = await h.team();
        const param = query.split('=')[0]!;
        expectError(await t.get(`/deals?${query}`), 400, 'VALIDATION_ERROR', `Parâmetro '${param}' deve ser uma data válida no formato YYYY-MM-DD`);
      });

      it('unknown query parameters are ignored', async () => {
        const t = await h.team();
        const deal = await createDeal(t);
        expect(await idsOf(t, 'foo=bar&sort_by=title')).toEqual([deal.id]);
      });

      it('combined filters all apply', async () => {
        const t = await h.team();
        const client = (await t.post('/clients', { type: 'PF', name: 'Cliente Combo' })).body.data;
        const [loja1, loja9] = [await storeOf(h, t.teamId, 'Loja 1'), await storeOf(h, t.teamId, 'Loja 9')];
        const base = { phase: 'proposta', value: 500, source: 'site', store_id: loja9, client_id: client.id, responsible_id: 'u1' };
        const [match, , , , , , , , other] = await createDeals(t, [
          { ...base, title: 'Civic alvo' },
          { ...base, title: 'Civic fase errada', phase: 'lead' },
          { ...base, title: 'Civic valor baixo', value: 100 },
          { ...base, title: 'Civic fonte errada', source: 'portal' },
          { ...base, title: 'Civic loja errada', store_id: loja1 },
          { ...base, title: 'Civic sem cliente', client_id: null },
          { ...base, title: 'Civic outro responsável', responsible_id: 'u2' },
          { ...base, title: 'Corolla busca errada' },
          { ...base, title: 'Civic ganho' },
        ]);
        await setStatus(t, other.id, 'ganho');
        const query = `status=ativo&phase=proposta&min_value=200&max_value=500&source=site&store_id=${loja9}&client_id=${client.id}&responsible_id=u1&search=civic`;
        const res = await list(t, query);
        expect(res.data.map((d) => d.id)).toEqual([match.id]);
        expect(res.pagination).toEqual({ page: 1, limit: 20, total: 1, pages: 1 });
        expect(await idsOf(t, `status=ganho&phase=proposta&search=civic&client_id=${client.id}`)).toEqual([other.id]);
      });

      it("never lists another team's deals", async () => {
        const other = await h.team();
        await createDeal(other, { title: 'Alheio' });
        const t = await h.team();
        const mine = await createDeal(t, { title: 'Meu' });
        expect(await idsOf(t)).toEqual([mine.id]);
        expect(await idsOf(t, 'search=alheio')).toEqual([]);
      });
    });

    describe('sort', () => {
      it('created_at ascending and descending (descending is the default)', async () => {
        const t = await h.team();
        const ids = (await createDeals(t, [{ title: 'c' }, { title: 'a' }, { title: 'b' }])).map((d) => d.id);
        expect(await idsOf(t, 'sort=created_at')).toEqual(ids);
        expect(await idsOf(t, 'sort=-created_at')).toEqual([...ids].reverse());
        expect(await idsOf(t)).toEqual([...ids].reverse());
      });

      it('updated_at ascending and descending', async () => {
        const t = await h.team();
        const [a, b, c] = await createDeals(t, [{ title: 'a' }, { title: 'b' }, { title: 'c' }]);
        clock.advance(1_000);
        expect((await t.put(`/deals/${a.id}`, { title: 'a2' })).status).toBe(200);
        expect(await idsOf(t, 'sort=updated_at')).toEqual([b.id, c.id, a.id]);
        expect(await idsOf(t, 'sort=-updated_at')).toEqual([a.id, c.id, b.id]);
      });

      it('title: case- and accent-insensitive, ascending and descending', async () => {
        const t = await h.team();
        await createDeals(
          t,
          ['banana', 'Ábaco', 'cereja', 'abacaxi', 'Damasco', 'Éclair', 'zebra'].map((title) => ({ title })),
        );
        const asc = ['abacaxi', 'Ábaco', 'banana', 'cereja', 'Damasco', 'Éclair', 'zebra'];
        expect(await titlesOf(t, 'sort=title')).toEqual(asc);
        expect(await titlesOf(t, 'sort=-title')).toEqual([...asc].reverse());
      });

      it('value: ascending and descending, deals without value last in both', async () => {
        const t = await h.team();
        const [v300, v100, none, v200, v1000] = await createDeals(t, [{ value: 300 }, { value: 100 }, {}, { value: 200 }, { value: 1000 }]);
        expect(await idsOf(t, 'sort=value')).toEqual([v100.id, v200.id, v300.id, v1000.id, none.id]);
        expect(await idsOf(t, 'sort=-value')).toEqual([v1000.id, v300.id, v200.id, v100.id, none.id]);
      });

      it('probability: ascending and descending, ties by id in the same direction', async () => {
        const t = await h.team();
        const [p20a, p10, p20b, p90] = await createDeals(t, [{ probability: 20 }, { probability: 10 }, { probability: 20 }, { probability: 90 }]);
        expect(await idsOf(t, 'sort=probability')).toEqual([p10.id, p20a.id, p20b.id, p90.id]);
        expect(await idsOf(t, 'sort=-probability')).toEqual([p90.id, p20b.id, p20a.id, p10.id]);
      });

      it('expected_close_date: ascending and descending, deals without date last in both', async () => {
        const t = await h.team();
        const [mar, none, jan, dec] = await createDeals(t, [
          { expected_close_date: '2026-03-01' },
          {},
          { expected_close_date: '2026-01-15' },
          { expected_close_date: '2026-12-31' },
        ]);
        expect(await idsOf(t, 'sort=expected_close_date')).toEqual([jan.id, mar.id, dec.id, none.id]);
        expect(await idsOf(t, 'sort=-expected_close_date')).toEqual([dec.id, mar.id, jan.id, none.id]);
      });

      it('priority: by rank (baixa < media < alta), not alphabetically', async () => {
        const t = await h.team();
        const [baixa, alta, media] = await createDeals(t, [{ priority: 'baixa' }, { priority: 'alta' }, { priority: 'media' }]);
        expect(await idsOf(t, 'sort=priority')).toEqual([baixa.id, media.id, alta.id]);
        expect(await idsOf(t, 'sort=-priority')).toEqual([alta.id, media.id, baixa.id]);
      });

      it('phase: by pipeline order, not alphabetically', async () => {
        const t = await h.team();
        const deals = await createDeals(
          t,
          ['fechamento', 'lead', 'negociacao', 'qualificado', 'proposta'].map((phase) => ({ phase })),
        );
        const pipeline = ['lead', 'qualificado', 'proposta', 'negociacao', 'fechamento'];
        const phases = async (q: string) => (await list(t, q)).data.map((d) => d.phase);
        expect(await phases('sort=phase')).toEqual(pipeline);
        expect(await phases('sort=-phase')).toEqual([...pipeline].reverse());
        expect(deals).toHaveLength(5);
      });

      it('status: by value, ascending and descending', async () => {
        const t = await h.team();
        const [perdido, ativo, ganho] = await createDeals(t, [{ title: 'p' }, { title: 'a' }, { title: 'g' }]);
        await setStatus(t, perdido.id, 'perdido');
        await setStatus(t, ganho.id, 'ganho');
        expect(await idsOf(t, 'sort=status')).toEqual([ativo.id, ganho.id, perdido.id]);
        expect(await idsOf(t, 'sort=-status')).toEqual([perdido.id, ganho.id, ativo.id]);
      });

      it.each(['-bogus', 'bogus', 'value;drop', 'value%3Bdrop', 'value desc', '--value', '+value', 'id', 'client', '-'])(
        'sort=%s: 400 listing the allowed fields',
        async (sort) => {
          const t = await h.team();
          const encoded = sort.includes('%') ? sort : encodeURIComponent(sort);
          const res = await t.get(`/deals?sort=${encoded}`);
          expect(res.status).toBe(400);
          expect(res.body.success).toBe(false);
          expect(res.body.error.code).toBe('VALIDATION_ERROR');
          expect(res.body.error.message).toMatch(/^Parâmetro 'sort' inválido\. Use um de: /);
          for (const field of SORT_FIELDS) expect(res.body.error.message).toContain(field);
        },
      );
    });

    describe('search', () => {
      it('is case- and accent-insensitive over title and description', async () => {
        const t = await h.team();
        const [joao, civic, negociacao] = await createDeals(t, [
          { title: 'Proposta para João' },
          { title: 'Honda Civic 2024' },
          { title: 'Corolla', description: 'Negociação avançada com desconto' },
          { title: 'Onix', description: 'sem detalhes' },
        ]);
        expect(await idsOf(t, 'search=joao')).toEqual([joao.id]);
        expect(await idsOf(t, `search=${encodeURIComponent('JOÃO')}`)).toEqual([joao.id]);
        expect(await idsOf(t, 'search=CIVIC')).toEqual([civic.id]);
        expect(await idsOf(t, 'search=civic')).toEqual([civic.id]);
        expect(await idsOf(t, `search=${encodeURIComponent('ção')}`)).toEqual([negociacao.id]);
        expect(await idsOf(t, 'search=NEGOCIACAO')).toEqual([negociacao.id]);
        expect(await idsOf(t, `search=${encodeURIComponent('avançada')}`)).toEqual([negociacao.id]);
        expect(await idsOf(t, 'search=inexistente')).toEqual([]);
        expect((await list(t, 'search=joao')).pagination.total).toBe(1);
      });

      it('% and _ are matched literally', async () => {
        const t = await h.team();
        const [pct, , under] = await createDeals(t, [
          { title: 'Desconto 50% à vista' },
          { title: 'Desconto 500 reais' },
          { title: 'codigo a_b' },
          { title: 'codigo axb' },
        ]);
        expect(await idsOf(t, `search=${encodeURIComponent('50%')}`)).toEqual([pct.id]);
        expect(await idsOf(t, `search=${encodeURIComponent('%')}`)).toEqual([pct.id]);
        expect(await idsOf(t, `search=${encodeURIComponent('a_b')}`)).toEqual([under.id]);
        expect(await idsOf(t, `search=${encodeURIComponent('_')}`)).toEqual([under.id]);
        const slash = await createDeal(t, { title: 'pasta c:\\dados' });
        expect(await idsOf(t, `search=${encodeURIComponent('\\')}`)).toEqual([slash.id]);
        expect(await idsOf(t, `search=${encodeURIComponent(':\\d')}`)).toEqual([slash.id]);
      });

      it('combines with status: archived deals are found only with status=arquivado', async () => {
        const t = await h.team();
        const [kept, gone] = await createDeals(t, [{ title: 'Civic ativo' }, { title: 'Civic arquivado' }]);
        expect((await t.delete(`/deals/${gone.id}`)).status).toBe(200);
        expect(await idsOf(t, 'search=civic')).toEqual([kept.id]);
        expect(await idsOf(t, 'search=civic&status=arquivado')).toEqual([gone.id]);
      });
    });
  });
}
