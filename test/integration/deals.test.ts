import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../support/clock.js';
import { DIALECTS } from '../support/dialects.js';
import { expectError } from '../support/expect.js';
import { storeOf } from '../support/stores.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';

/** `YYYY-MM-DDTHH:MM:SSZ`, no fraction (DECISIONS.md, Representation). */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
/** A lower-case UUID whose version nibble is 7 (and RFC 4122 variant). */
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const UNKNOWN_UUID = '0190f5c2-7e1a-7b3c-8d4e-5f6a7b8c9d0e';

/** Every key of the contract's Deal, in any order. */
const DEAL_KEYS = [
  'id',
  'title',
  'description',
  'value',
  'currency',
  'phase',
  'priority',
  'probability',
  'status',
  'expected_close_date',
  'source',
  'loss_reason',
  'tags',
  'is_starred',
  'store_id',
  'client_id',
  'client',
  'responsible_id',
  'case_id',
  'ai_summary',
  'ai_win_probability',
  'created_at',
  'updated_at',
].sort();

/** What every PUT answers with, besides the fields the body sent. */
const PUT_BASE_KEYS = ['id', 'title', 'value', 'phase', 'priority', 'probability', 'status', 'updated_at'];

const PHASE_PROBABILITY: Record<string, number> = { lead: 10, qualificado: 25, proposta: 50, negociacao: 75, fechamento: 90 };

const sortedKeys = (o: object) => Object.keys(o).sort();

async function createDeal(t: Caller, body: Record<string, unknown> = {}) {
  const res = await t.post('/deals', { title: 'Venda Civic 2024', ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

async function createClient(t: Caller, name = 'João da Silva') {
  const res = await t.post('/clients', { type: 'PF', name });
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: string; name: string };
}

async function getDeal(t: Caller, id: string) {
  const res = await t.get(`/deals/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

for (const dialect of DIALECTS) {
  describe(`deals endpoints (${dialect})`, () => {
    let h: Harness;
    // Time is the test's: writes get the times it sets, and "later" is one advance away (no sleeping).
    const clock = fakeClock();
    beforeAll(async () => {
      h = await createHarness(dialect, { clock });
    });
    afterAll(() => h.close());

    describe('POST /deals', () => {
      it('creates a deal with only a title, filling every default', async () => {
        const t = await h.team();
        const res = await t.post('/deals', { title: 'Venda Civic 2024' });
        expect(res.status).toBe(201);
        expect(res.body.success).toBe(true);
        expect(sortedKeys(res.body)).toEqual(['data', 'success']);
        const deal = res.body.data;
        expect(sortedKeys(deal)).toEqual(DEAL_KEYS);
        expect(deal).toEqual({
          id: expect.stringMatching(UUID_V7),
          title: 'Venda Civic 2024',
          description: null,
          value: null,
          currency: 'BRL',
          phase: 'lead',
          priority: 'media',
          probability: 10,
          status: 'ativo',
          expected_close_date: null,
          source: null,
          loss_reason: null,
          tags: [],
          is_starred: false,
          store_id: null,
          client_id: null,
          client: null,
          responsible_id: null,
          case_id: null,
          // Issue 28: the summary of a deal with nothing linked; no probability under 40 closed deals.
          ai_summary: 'Cliente não informado. Em Lead desde hoje. Nenhum contato registrado; nada agendado.',
          ai_win_probability: null,
          created_at: expect.stringMatching(TIMESTAMP),
          updated_at: expect.stringMatching(TIMESTAMP),
        });
        expect(deal.updated_at).toBe(deal.created_at);
      });

      it('stores every field sent and embeds the client as {id, name}', async () => {
        const t = await h.team();
        const client = await createClient(t, 'Maria Oliveira');
        const centro = await storeOf(h, t.teamId);
        const res = await t.post('/deals', {
          title: 'Corolla XEi',
          description: 'Cliente quer troca',
          value: 150000.5,
          phase: 'proposta',
          priority: 'alta',
          probability: 60,
          expected_close_date: '2026-11-22',
          client_id: client.id,
          responsible_id: 'user-42',
          source: 'showroom',
          store_id: centro,
          case_id: 'case-7',
          tags: ['suv', 'financiado'],
        });
        expect(res.status).toBe(201);
        expect(res.body.success).toBe(true);
        const deal = res.body.data;
        expect(sortedKeys(deal)).toEqual(DEAL_KEYS);
        expect(deal).toMatchObject({
          title: 'Corolla XEi',
          description: 'Cliente quer troca',
          value: 150000.5,
          currency: 'BRL',
          phase: 'proposta',
          priority: 'alta',
          probability: 60,
          status: 'ativo',
          expected_close_date: '2026-11-22',
          source: 'showroom',
          loss_reason: null,
          tags: ['suv', 'financiado'],
          is_starred: false,
          store_id: centro,
          client_id: client.id,
          client: { id: client.id, name: 'Maria Oliveira' },
          responsible_id: 'user-42',
          case_id: 'case-7',
          ai_summary: 'Maria Oliveira, R$ 150.000,50. Em Proposta desde hoje. Nenhum contato registrado; nada agendado.',
          ai_win_probability: null,
        });
        expect(deal.client).toEqual({ id: client.id, name: 'Maria Oliveira' });
        expect(await getDeal(t, deal.id)).toEqual(deal);
      });

      it.each(Object.entries(PHASE_PROBABILITY))('a deal created in phase %s without probability gets %i', async (phase, probability) => {
        const t = await h.team();
        const deal = await createDeal(t, { phase });
        expect(deal.phase).toBe(phase);
        expect(deal.probability).toBe(probability);
        expect((await getDeal(t, deal.id)).probability).toBe(probability);
      });

      it('keeps an explicit probability, including the bounds 0 and 100', async () => {
        const t = await h.team();
        expect((await createDeal(t, { phase: 'negociacao', probability: 33 })).probability).toBe(33);
        const zero = await createDeal(t, { phase: 'fechamento', probability: 0 });
        expect(zero.probability).toBe(0);
        expect((await getDeal(t, zero.id)).probability).toBe(0);
        const hundred = await createDeal(t, { probability: 100 });
        expect(hundred.probability).toBe(100);
        expect((await getDeal(t, hundred.id)).probability).toBe(100);
      });

      it('accepts a non-integer probability and a value with two decimals', async () => {
        const t = await h.team();
        const deal = await createDeal(t, { probability: 12.5, value: 1234.56 });
        expect(deal.probability).toBe(12.5);
        expect(deal.value).toBe(1234.56);
        const stored = await getDeal(t, deal.id);
        expect(stored.probability).toBe(12.5);
        expect(stored.value).toBe(1234.56);
      });

      it('accepts value 0 and an explicit null for optional fields', async () => {
        const t = await h.team();
        const deal = await createDeal(t, { value: 0, description: null, expected_close_date: null, client_id: null, source: null });
        expect(deal).toMatchObject({ value: 0, description: null, expected_close_date: null, client_id: null, client: null, source: null });
      });

      it('accepts the largest value, 999999999999.99, and refuses more', async () => {
        const t = await h.team();
        const deal = await createDeal(t, { value: 999999999999.99 });
        expect(deal.value).toBe(999999999999.99);
        expect((await getDeal(t, deal.id)).value).toBe(999999999999.99);
        const res = await t.post('/deals', { title: 'X', value: 1000000000000 });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
      });

      it('accepts a client that was deactivated', async () => {
        const t = await h.team();
        const client = await createClient(t, 'Cliente Inativo');
        expect((await t.delete(`/clients/${client.id}`)).status).toBe(200);
        const deal = await createDeal(t, { client_id: client.id });
        expect(deal.client).toEqual({ id: client.id, name: 'Cliente Inativo' });
      });

      it('ignores unknown body fields', async () => {
        const t = await h.team();
        const res = await t.post('/deals', { title: 'Venda HB20', foo: 'bar', nested: { a: 1 }, archived_at: 'x' });
        expect(res.status).toBe(201);
        expect(sortedKeys(res.body.data)).toEqual(DEAL_KEYS);
        expect(res.body.data.title).toBe('Venda HB20');
      });

      it('gives time-ordered UUID v7 ids', async () => {
        const t = await h.team();
        const a = await createDeal(t);
        const b = await createDeal(t);
        expect(a.id).toMatch(UUID_V7);
        expect(b.id).toMatch(UUID_V7);
        expect(a.id < b.id).toBe(true);
      });

      describe('validation', () => {
        const cases: Array<[string, Record<string, unknown>, string]> = [
          ['title missing', { description: 'sem título' }, "Campo 'title' é obrigatório"],
          ['title missing is reported before other errors', { priority: 'urgente', probability: 500 }, "Campo 'title' é obrigatório"],
          ['empty title', { title: '' }, "Campo 'title' não pode ser vazio"],
          ['blank title', { title: '   ' }, "Campo 'title' não pode ser vazio"],
          ['title null', { title: null }, "Campo 'title' deve ser um texto"],
          ['title as number', { title: 123 }, "Campo 'title' deve ser um texto"],
          ['invalid priority', { title: 'X', priority: 'urgente' }, 'Prioridade inválida'],
          ['probability -1', { title: 'X', probability: -1 }, 'Probabilidade deve ser entre 0 e 100'],
          ['probability 101', { title: 'X', probability: 101 }, 'Probabilidade deve ser entre 0 e 100'],
          ['probability as string', { title: 'X', probability: '50' }, "Campo 'probability' deve ser um número"],
          ['value as string', { title: 'X', value: '100' }, "Campo 'value' deve ser um número"],
          ['negative value', { title: 'X', value: -1 }, "Campo 'value' não pode ser negativo"],
          ['value with three decimals', { title: 'X', value: 10.123 }, "Campo 'value' deve ter no máximo duas casas decimais"],
          ['tags as string', { title: 'X', tags: 'suv' }, "Campo 'tags' deve ser uma lista"],
          ['month 13', { title: 'X', expected_close_date: '2026-13-01' }, "Campo 'expected_close_date' deve ser uma data válida no formato YYYY-MM-DD"],
          ['February 30', { title: 'X', expected_close_date: '2026-02-30' }, "Campo 'expected_close_date' deve ser uma data válida no formato YYYY-MM-DD"],
          ['dd/mm/yyyy date', { title: 'X', expected_close_date: '22/11/2026' }, "Campo 'expected_close_date' deve ser uma data válida no formato YYYY-MM-DD"],
          ['phase not in the team', { title: 'X', phase: 'inexistente' }, 'Fase inválida'],
          ['a status used as phase', { title: 'X', phase: 'ganho' }, 'Fase inválida'],
          ['client_id not a UUID', { title: 'X', client_id: 'abc' }, 'Cliente não encontrado'],
          ['client_id unknown', { title: 'X', client_id: UNKNOWN_UUID }, 'Cliente não encontrado'],
          ['title over 200 characters', { title: 'x'.repeat(201) }, "Campo 'title' deve ter no máximo 200 caracteres"],
          ['more than 50 tags', { title: 'X', tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, "Campo 'tags' deve ter no máximo 50 itens"],
          ['an empty tag', { title: 'X', tags: ['ok', ''] }, "Campo 'tags' deve ser uma lista de textos não vazios de até 50 caracteres"],
          ['phase null', { title: 'X', phase: null }, "Campo 'phase' deve ser um texto"],
          ['priority null', { title: 'X', priority: null }, 'Prioridade inválida'],
          ['probability null', { title: 'X', probability: null }, "Campo 'probability' deve ser um número"],
        ];
        it.each(cases)('%s: 400 VALIDATION_ERROR', async (_name, body, message) => {
          const t = await h.team();
          const res = await t.post('/deals', body);
          expectError(res, 400, 'VALIDATION_ERROR', message);
          // Nothing was created.
          const list = await t.get('/deals');
          expect(list.body.pagination.total).toBe(0);
        });

        it("client_id of another team's client: 400 Cliente não encontrado", async () => {
          const other = await h.team();
          const foreign = await createClient(other, 'Cliente Alheio');
          const t = await h.team();
          expectError(await t.post('/deals', { title: 'X', client_id: foreign.id }), 400, 'VALIDATION_ERROR', 'Cliente não encontrado');
          expect((await t.get('/deals')).body.pagination.total).toBe(0);
        });

        it('malformed JSON: 400 JSON inválido', async () => {
          const t = await h.team();
          const res = await h.inject({
            method: 'POST',
            url: '/api/v1/deals',
            headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
            payload: '{"title": "Civic",',
          });
          expectError(res, 400, 'VALIDATION_ERROR', 'JSON inválido');
        });

        it('a JSON body that is not an object: 400', async () => {
          const t = await h.team();
          expectError(await t.post('/deals', ['title']), 400, 'VALIDATION_ERROR', 'O corpo da requisição deve ser um objeto JSON');
        });
      });
    });

    describe('GET /deals/:id', () => {
      it('returns the full deal, the same shape as POST and as list items', async () => {
        const t = await h.team();
        const client = await createClient(t);
        const created = await createDeal(t, { client_id: client.id, value: 99.9, tags: ['a'] });
        const res = await t.get(`/deals/${created.id}`);
        expect(res.status).toBe(200);
        expect(sortedKeys(res.body)).toEqual(['data', 'success']);
        expect(res.body.success).toBe(true);
        expect(sortedKeys(res.body.data)).toEqual(DEAL_KEYS);
        expect(res.body.data).toEqual(created);
        const list = await t.get('/deals');
        expect(list.status).toBe(200);
        expect(list.body.data).toHaveLength(1);
        expect(sortedKeys(list.body.data[0])).toEqual(DEAL_KEYS);
        expect(list.body.data[0]).toEqual(res.body.data);
      });

      it('unknown UUID: 404 Negócio não encontrado', async () => {
        const t = await h.team();
        expectError(await t.get(`/deals/${UNKNOWN_UUID}`), 404, 'NOT_FOUND', 'Negócio não encontrado');
      });

      it.each(['abc', '123', 'not-a-uuid-at-all', `${UNKNOWN_UUID}x`])('non-UUID id %s: 404 Negócio não encontrado', async (id) => {
        const t = await h.team();
        expectError(await t.get(`/deals/${id}`), 404, 'NOT_FOUND', 'Negócio não encontrado');
      });

      it("another team's deal: 404, never 403", async () => {
        const owner = await h.team();
        const deal = await createDeal(owner);
        const t = await h.team();
        expectError(await t.get(`/deals/${deal.id}`), 404, 'NOT_FOUND', 'Negócio não encontrado');
      });
    });

    describe('PUT /deals/:id', () => {
      it('answers with id, the summary fields, the fields sent and updated_at only', async () => {
        const t = await h.team();
        const deal = await createDeal(t, { value: 5000, phase: 'proposta', priority: 'alta' });
        const res = await t.put(`/deals/${deal.id}`, { description: 'x' });
        expect(res.status).toBe(200);
        expect(res.body.success).toBe(true);
        expect(sortedKeys(res.body)).toEqual(['data', 'success']);
        expect(sortedKeys(res.body.data)).toEqual([...PUT_BASE_KEYS, 'description'].sort());
        expect(res.body.data).toEqual({
          id: deal.id,
          title: deal.title,
          value: 5000,
          phase: 'proposta',
          priority: 'alta',
          probability: 50,
          status: 'ativo',
          description: 'x',
          updated_at: expect.stringMatching(TIMESTAMP),
        });
      });

      it('a summary field sent adds no other key', async () => {
        const t = await h.team();
        const deal = await createDeal(t);
        const res = await t.put(`/deals/${deal.id}`, { title: 'Novo título' });
        expect(res.status).toBe(200);
        expect(sortedKeys(res.body.data)).toEqual([...PUT_BASE_KEYS].sort());
        expect(res.body.data.title).toBe('Novo título');
      });

      it('unknown fields next to known ones are ignored and not echoed', async () => {
        const t = await h.team();
        const deal = await createDeal(t);
        const res = await t.put(`/deals/${deal.id}`, { source: 'site', foo: 'bar' });
        expect(res.status).toBe(200);
        expect(sortedKeys(res.body.data)).toEqual([...PUT_BASE_KEYS, 'source'].sort());
        expect(res.body.data.source).toBe('site');
      });

      it('applies many fields at once, echoes each and GET shows them', async () => {
        const t = await h.team();
        const client = await createClient(t, 'Carlos Souza');
        const deal = await createDeal(t);
        const body = {
          title: 'Compass Limited',
          description: 'Test drive feito',
          value: 210000.99,
          priority: 'baixa',
          expected_close_date: '2027-01-31',
          responsible_id: 'user-9',
          source: 'instagram',
          client_id: client.id,
          case_id: 'case-99',
          tags: ['jeep', 'top'],
          is_starred: true,
          store_id: await storeOf(h, t.teamId, 'Loja 2'),
        };
        const res = await t.put(`/deals/${deal.id}`, body);
        expect(res.status).toBe(200);
        expect(sortedKeys(res.body.data)).toEqual([...new Set([...PUT_BASE_KEYS, ...Object.keys(body), 'client'])].sort());
        expect(res.body.data).toMatchObject({ ...body, client: { id: client.id, name: 'Carlos Souza' }, phase: 'lead', probability: 10, status: 'ativo' });
        const stored = await getDeal(t, deal.id);
        expect(stored).toMatchObject({ ...body, client: { id: client.id, name: 'Carlos Souza' }, phase: 'lead', probability: 10, status: 'ativo' });
        expect(stored.created_at).toBe(deal.created_at);
        expect(stored.updated_at).toBe(res.body.data.updated_at);
      });

      it('a phase change without probability takes the new phase suggestion', async () => {
        const t = await h.team();
        const deal = await createDeal(t);
        const res = await t.put(`/deals/${deal.id}`, { phase: 'negociacao' });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ phase: 'negociacao', probability: 75 });
        expect(await getDeal(t, deal.id)).toMatchObject({ phase: 'negociacao', probability: 75 });
        // Also from a custom probability.
        await t.put(`/deals/${deal.id}`, { probability: 40 });
        const back = await t.put(`/deals/${deal.id}`, { phase: 'qualificado' });
        expect(back.body.data).toMatchObject({ phase: 'qualificado', probability: 25 });
      });

      it('a phase change with probability keeps the explicit probability', async () => {
        const t = await h.team();
        const deal = await createDeal(t);
        const res = await t.put(`/deals/${deal.id}`, { phase: 'fechamento', probability: 42 });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ phase: 'fechamento', probability: 42 });
        expect(await getDeal(t, deal.id)).toMatchObject({ phase: 'fechamento', probability: 42 });
      });

      it('sending the phase the deal already has keeps a custom probability', async () => {
        const t = await h.team();
        const deal = await createDeal(t, { phase: 'proposta', probability: 63 });
        const res = await t.put(`/deals/${deal.id}`, { phase: 'proposta' });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ phase: 'proposta', probability: 63 });
        expect(await getDeal(t, deal.id)).toMatchObject({ phase: 'proposta', probability: 63 });
      });

      it('accepts probability 0 and 100', async () => {
        const t = await h.team();
        const deal = await createDeal(t);
        expect((await t.put(`/deals/${deal.id}`, { probability: 0 })).body.data.probability).toBe(0);
        expect((await getDeal(t, deal.id)).probability).toBe(0);
        expect((await t.put(`/deals/${deal.id}`, { probability: 100 })).body.data.probability).toBe(100);
        expect((await getDeal(t, deal.id)).probability).toBe(100);
      });

      it('moves status between all states: ganho -> ativo, arquivado -> ativo', async () => {
        const t = await h.team();
        const deal = await createDeal(t);
        for (const status of ['ganho', 'ativo', 'perdido', 'ganho', 'arquivado', 'ativo', 'arquivado', 'perdido', 'ativo'] as const) {
          const res = await t.put(`/deals/${deal.id}`, { status });
          expect(res.status, `-> ${status}: ${res.text}`).toBe(200);
          expect(res.body.data.status).toBe(status);
          expect((await getDeal(t, deal.id)).status).toBe(status);
        }
      });

      it('an archived deal is reactivated by PUT status ativo and is listed again', async () => {
        const t = await h.team();
        const deal = await createDeal(t);
        expect((await t.delete(`/deals/${deal.id}`)).status).toBe(200);
        expect((await t.get('/deals')).body.data).toEqual([]);
        const res = await t.put(`/deals/${deal.id}`, { status: 'ativo' });
        expect(res.status).toBe(200);
        expect(res.body.data.status).toBe('ativo');
        const list = await t.get('/deals');
        expect(list.body.data.map((d: any) => d.id)).toEqual([deal.id]);
      });

      it('perdido with loss_reason stores it; it is kept after moving back to ativo', async () => {
        const t = await h.team();
        const deal = await createDeal(t);
        const lost = await t.put(`/deals/${deal.id}`, { status: 'perdido', loss_reason: 'Preço acima do orçamento' });
        expect(lost.status).toBe(200);
        expect(sortedKeys(lost.body.data)).toEqual([...PUT_BASE_KEYS, 'loss_reason'].sort());
        expect(lost.body.data).toMatchObject({ status: 'perdido', loss_reason: 'Preço acima do orçamento' });
        expect(await getDeal(t, deal.id)).toMatchObject({ status: 'perdido', loss_reason: 'Preço acima do orçamento' });
        const back = await t.put(`/deals/${deal.id}`, { status: 'ativo' });
        expect(back.status).toBe(200);
        expect(back.body.data.status).toBe('ativo');
        expect(await getDeal(t, deal.id)).toMatchObject({ status: 'ativo', loss_reason: 'Preço acima do orçamento' });
      });

      it('null clears description, value and client_id (client becomes null)', async () => {
        const t = await h.team();
        const client = await createClient(t);
        const deal = await createDeal(t, { description: 'desc', value: 1000, client_id: client.id, expected_close_date: '2026-12-01' });
        expect(deal.client).toEqual({ id: client.id, name: client.name });
        const res = await t.put(`/deals/${deal.id}`, { description: null, value: null, client_id: null, expected_close_date: null });
        expect(res.status).toBe(200);
        expect(sortedKeys(res.body.data)).toEqual([...PUT_BASE_KEYS, 'description', 'client_id', 'client', 'expected_close_date'].sort());
        expect(res.body.data).toMatchObject({ description: null, value: null, client_id: null, client: null, expected_close_date: null });
        expect(await getDeal(t, deal.id)).toMatchObject({ description: null, value: null, client_id: null, client: null, expected_close_date: null });
      });

      it('setting a client embeds it in the answer and in GET', async () => {
        const t = await h.team();
        const client = await createClient(t, 'Ana Paula');
        const deal = await createDeal(t);
        const res = await t.put(`/deals/${deal.id}`, { client_id: client.id });
        expect(res.status).toBe(200);
        expect(sortedKeys(res.body.data)).toEqual([...PUT_BASE_KEYS, 'client_id', 'client'].sort());
        expect(res.body.data).toMatchObject({ client_id: client.id, client: { id: client.id, name: 'Ana Paula' } });
        expect((await getDeal(t, deal.id)).client).toEqual({ id: client.id, name: 'Ana Paula' });
      });

      it('a PUT that changes nothing leaves updated_at as it was; a change moves it', async () => {
        const t = await h.team();
        const deal = await createDeal(t, { description: 'mesma', priority: 'alta' });
        const before = await getDeal(t, deal.id);
        clock.advance(1_100);
        const same = await t.put(`/deals/${deal.id}`, { title: deal.title, description: 'mesma', priority: 'alta', phase: 'lead' });
        expect(same.status).toBe(200);
        expect(same.body.data.updated_at).toBe(before.updated_at);
        expect(await getDeal(t, deal.id)).toEqual(before);
        const changed = await t.put(`/deals/${deal.id}`, { description: 'outra' });
        expect(changed.status).toBe(200);
        expect(changed.body.data.updated_at > before.updated_at).toBe(true);
        const after = await getDeal(t, deal.id);
        expect(after.updated_at).toBe(changed.body.data.updated_at);
        expect(after.created_at).toBe(before.created_at);
        expect(after.description).toBe('outra');
      });

      describe('validation', () => {
        const cases: Array<[string, Record<string, unknown>, string]> = [
          ['empty body', {}, 'Nenhum campo para atualizar'],
          ['only unknown fields', { foo: 'bar', archived_at: '2026-01-01', id: UNKNOWN_UUID }, 'Nenhum campo para atualizar'],
          ['invalid priority', { priority: 'urgente' }, 'Prioridade inválida'],
          ['probability -1', { probability: -1 }, 'Probabilidade deve ser entre 0 e 100'],
          ['probability 101', { probability: 101 }, 'Probabilidade deve ser entre 0 e 100'],
          ['status outside the set', { status: 'fechado' }, 'Status inválido'],
          ['empty title', { title: '' }, "Campo 'title' não pode ser vazio"],
          ['title null', { title: null }, "Campo 'title' deve ser um texto"],
          ['value as string', { value: '100' }, "Campo 'value' deve ser um número"],
          ['negative value', { value: -0.01 }, "Campo 'value' não pode ser negativo"],
          ['value with three decimals', { value: 1.005 }, "Campo 'value' deve ter no máximo duas casas decimais"],
          ['tags as string', { tags: 'suv' }, "Campo 'tags' deve ser uma lista"],
          ['is_starred as string', { is_starred: 'true' }, "Campo 'is_starred' deve ser verdadeiro ou falso (boolean)"],
          ['bad date', { expected_close_date: '2026-02-30' }, "Campo 'expected_close_date' deve ser uma data válida no formato YYYY-MM-DD"],
          ['phase not in the team', { phase: 'inexistente' }, 'Fase inválida'],
          ['client_id not a UUID', { client_id: 'abc' }, 'Cliente não encontrado'],
          ['client_id unknown', { client_id: UNKNOWN_UUID }, 'Cliente não encontrado'],
          ['phase null', { phase: null }, "Campo 'phase' deve ser um texto"],
          ['priority null', { priority: null }, 'Prioridade inválida'],
          ['probability null', { probability: null }, "Campo 'probability' deve ser um número"],
          ['status null', { status: null }, 'Status inválido'],
          ['tags null', { tags: null }, "Campo 'tags' deve ser uma lista"],
          ['is_starred null', { is_starred: null }, "Campo 'is_starred' deve ser verdadeiro ou falso (boolean)"],
          ['loss_reason as number', { loss_reason: 5 }, "Campo 'loss_reason' deve ser um texto"],
        ];
        it.each(cases)('%s: 400 VALIDATION_ERROR and the deal is unchanged', async (_name, body, message) => {
          const t = await h.team();
          const deal = await createDeal(t, { value: 100, description: 'orig' });
          const before = await getDeal(t, deal.id);
          expectError(await t.put(`/deals/${deal.id}`, body), 400, 'VALIDATION_ERROR', message);
          expect(await getDeal(t, deal.id)).toEqual(before);
        });

        it("client_id of another team's client: 400 Cliente não encontrado", async () => {
          const other = await h.team();
          const foreign = await createClient(other);
          const t = await h.team();
          const deal = await createDeal(t);
          expectError(await t.put(`/deals/${deal.id}`, { client_id: foreign.id }), 400, 'VALIDATION_ERROR', 'Cliente não encontrado');
          expect((await getDeal(t, deal.id)).client_id).toBeNull();
        });

        it('an invalid field next to valid ones changes nothing', async () => {
          const t = await h.team();
          const deal = await createDeal(t);
          const before = await getDeal(t, deal.id);
          expectError(await t.put(`/deals/${deal.id}`, { title: 'Outro', phase: 'inexistente' }), 400, 'VALIDATION_ERROR', 'Fase inválida');
          expect(await getDeal(t, deal.id)).toEqual(before);
        });

        it('malformed JSON: 400 JSON inválido', async () => {
          const t = await h.team();
          const deal = await createDeal(t);
          const res = await h.inject({
            method: 'PUT',
            url: `/api/v1/deals/${deal.id}`,
            headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
            payload: "{title: 'x'}",
          });
          expectError(res, 400, 'VALIDATION_ERROR', 'JSON inválido');
        });

        it('no body at all: 400 VALIDATION_ERROR', async () => {
          const t = await h.team();
          const deal = await createDeal(t);
          const res = await t.put(`/deals/${deal.id}`);
          expect(res.status).toBe(400);
          expect(res.body).toEqual({ success: false, error: { code: 'VALIDATION_ERROR', message: expect.any(String) } });
        });
      });

      it('unknown UUID: 404 Negócio não encontrado', async () => {
        const t = await h.team();
        expectError(await t.put(`/deals/${UNKNOWN_UUID}`, { title: 'X' }), 404, 'NOT_FOUND', 'Negócio não encontrado');
      });

      it('non-UUID id: 404 Negócio não encontrado', async () => {
        const t = await h.team();
        expectError(await t.put('/deals/abc', { title: 'X' }), 404, 'NOT_FOUND', 'Negócio não encontrado');
      });

      it("another team's deal: 404, never 403, and it is left untouched", async () => {
        const owner = await h.team();
        const deal = await createDeal(owner);
        const t = await h.team();
        expectError(await t.put(`/deals/${deal.id}`, { title: 'Roubado' }), 404, 'NOT_FOUND', 'Negócio não encontrado');
        expect((await getDeal(owner, deal.id)).title).toBe(deal.title);
      });
    });

    describe('DELETE /deals/:id', () => {
      it('archives: 200 {id, status: arquivado, archived_at}, and the record is kept', async () => {
        const t = await h.team();
        const deal = await createDeal(t);
        const res = await t.delete(`/deals/${deal.id}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          success: true,
          data: { id: deal.id, status: 'arquivado', archived_at: expect.stringMatching(TIMESTAMP) },
        });
        expect(sortedKeys(res.body.data)).toEqual(['archived_at', 'id', 'status']);
        const stored = await getDeal(t, deal.id);
        expect(sortedKeys(stored)).toEqual(DEAL_KEYS);
        expect(stored).toMatchObject({ id: deal.id, title: deal.title, status: 'arquivado' });
        expect(res.body.data.archived_at >= deal.created_at).toBe(true);
      });

      it('is idempotent: a second DELETE answers 200 with the same archived_at', async () => {
        const t = await h.team();
        const deal = await createDeal(t);
        const first = await t.delete(`/deals/${deal.id}`);
        expect(first.status).toBe(200);
        clock.advance(1_100);
        const second = await t.delete(`/deals/${deal.id}`);
        expect(second.status).toBe(200);
        expect(second.body).toEqual(first.body);
        expect((await getDeal(t, deal.id)).status).toBe('arquivado');
      });

      it('archived deals leave the default list and appear with status=arquivado', async () => {
        const t = await h.team();
        const kept = await createDeal(t, { title: 'Fica' });
        const gone = await createDeal(t, { title: 'Sai' });
        expect((await t.delete(`/deals/${gone.id}`)).status).toBe(200);
        const list = await t.get('/deals');
        expect(list.body.data.map((d: any) => d.id)).toEqual([kept.id]);
        expect(list.body.pagination.total).toBe(1);
        const archived = await t.get('/deals?status=arquivado');
        expect(archived.status).toBe(200);
        expect(archived.body.data.map((d: any) => d.id)).toEqual([gone.id]);
        expect(archived.body.data[0].status).toBe('arquivado');
        expect(archived.body.pagination.total).toBe(1);
      });

      it('a deal archived by PUT status arquivado answers DELETE with 200 and an archived_at', async () => {
        const t = await h.team();
        const deal = await createDeal(t);
        expect((await t.put(`/deals/${deal.id}`, { status: 'arquivado' })).status).toBe(200);
        const res = await t.delete(`/deals/${deal.id}`);
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({ id: deal.id, status: 'arquivado', archived_at: expect.stringMatching(TIMESTAMP) });
      });

      it('works when the client sends Content-Type: application/json with no body', async () => {
        const t = await h.team();
        const deal = await createDeal(t);
        const res = await h.inject({
          method: 'DELETE',
          url: `/api/v1/deals/${deal.id}`,
          headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
        });
        expect(res.status).toBe(200);
        expect(res.body.data.status).toBe('arquivado');
      });

      it('unknown UUID: 404 Negócio não encontrado', async () => {
        const t = await h.team();
        expectError(await t.delete(`/deals/${UNKNOWN_UUID}`), 404, 'NOT_FOUND', 'Negócio não encontrado');
      });

      it('non-UUID id: 404 Negócio não encontrado', async () => {
        const t = await h.team();
        expectError(await t.delete('/deals/abc'), 404, 'NOT_FOUND', 'Negócio não encontrado');
      });

      it("another team's deal: 404, never 403, and it stays active", async () => {
        const owner = await h.team();
        const deal = await createDeal(owner);
        const t = await h.team();
        expectError(await t.delete(`/deals/${deal.id}`), 404, 'NOT_FOUND', 'Negócio não encontrado');
        expect((await getDeal(owner, deal.id)).status).toBe('ativo');
      });
    });
  });
}
