import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Caller, type Harness, type Response } from '../support/harness.js';
import { bearer, expectError } from '../support/security.js';

/**
 * Issue 10, point 7: an error about one field names it in `error.field` (our addition to the
 * contract's envelope; the message text is unchanged), and `Fase inválida` lists the team's phases in
 * `error.details.allowed`. Every answer is also checked against the OpenAPI document by the harness.
 */

const DEFAULT_PHASES = ['lead', 'qualificado', 'proposta', 'negociacao', 'fechamento'];

for (const dialect of DIALECTS) {
  describe(`error.field and error.details (${dialect})`, () => {
    let h: Harness;
    let me: Caller;
    let dealId: string;
    let pfId: string;

    const expectField = (res: Response, message: string, field: string, status = 400, code = 'VALIDATION_ERROR') =>
      expectError(res, status, code, message, { field, details: undefined });

    beforeAll(async () => {
      h = await createHarness(dialect);
      me = await h.team();
      dealId = (await me.post('/deals', { title: 'Negócio com campos' })).body.data.id;
      pfId = (await me.post('/clients', { type: 'PF', name: 'Pessoa com campos', cpf: '529.982.247-25' })).body.data.id;
    });
    afterAll(async () => {
      await h?.close();
    });

    it('schema validation of the body names the field (nested paths with dots, list items by their list)', async () => {
      expectField(await me.post('/deals', {}), "Campo 'title' é obrigatório", 'title');
      expectField(await me.post('/deals', { title: 'x', priority: 'urgente' }), 'Prioridade inválida', 'priority');
      expectField(await me.post('/deals', { title: 'x', probability: 101 }), 'Probabilidade deve ser entre 0 e 100', 'probability');
      expectField(await me.post('/deals', { title: 'x', value: '10' }), "Campo 'value' deve ser um número", 'value');
      expectField(await me.put(`/deals/${dealId}`, { status: 'talvez' }), 'Status inválido', 'status');
      expectField(await me.post('/clients', { name: 'x' }), "Campo 'type' é obrigatório. Use: PF ou PJ", 'type');
      expectField(
        await me.post('/clients', { type: 'PF', name: 'x', address: { city: 'x'.repeat(201) } }),
        "Campo 'address.city' deve ter no máximo 200 caracteres",
        'address.city',
      );
      expectField(await me.put(`/clients/${pfId}`, { tags: ['ok', ''] }), "Campo 'tags' deve ser uma lista de textos não vazios de até 50 caracteres", 'tags');
    });

    it('query parameters are named too', async () => {
      expectField(await me.get('/deals?page=0'), "Parâmetro 'page' deve ser um número inteiro positivo", 'page');
      expectField(await me.get('/deals?min_value=muito'), "Parâmetro 'min_value' deve ser um número", 'min_value');
      expectField(await me.get('/clients?status=talvez'), 'Status inválido', 'status');
      const sort = await me.get('/deals?sort=id');
      expectError(sort, 400, 'VALIDATION_ERROR', undefined, { field: 'sort' });
      expect(sort.body.error.message).toMatch(/^Parâmetro 'sort' inválido/);
    });

    it('rules checked by the services name their field, with the contract’s messages unchanged', async () => {
      expectField(await me.post('/clients', { type: 'PF', name: 'x', cpf: '111.111.111-11' }), 'CPF inválido', 'cpf');
      expectField(await me.post('/clients', { type: 'PJ', name: 'x', cnpj: '11.111.111/1111-11' }), 'CNPJ inválido', 'cnpj');
      expectField(await me.post('/clients', { type: 'PF', name: 'x', cnpj: '11.222.333/0001-81' }), "Campo 'cnpj' não se aplica a clientes do tipo PF", 'cnpj');
      expectField(await me.put(`/clients/${pfId}`, { type: 'PJ' }), "Campo 'type' não pode ser alterado", 'type');
      expectField(
        await me.post('/clients', { type: 'PF', name: 'x', credit_limit: 10.001 }),
        "Campo 'credit_limit' deve ter no máximo duas casas decimais",
        'credit_limit',
      );
      expectField(await me.post('/deals', { title: 'x', value: 1.005 }), "Campo 'value' deve ter no máximo duas casas decimais", 'value');
      expectField(await me.post('/deals', { title: 'x', client_id: '01900000-0000-7000-8000-000000000000' }), 'Cliente não encontrado', 'client_id');
      expectField(await me.post('/deals', { title: 'x', tags: ['ok', 'a\u0000'] }), "Campo 'tags' contém o caractere nulo (\\u0000), que não é aceito", 'tags');
      expectField(await me.post('/clients', { type: 'PF', name: 'Outra pessoa', cpf: '52998224725' }), 'CPF já cadastrado', 'cpf', 422, 'DUPLICATE_ENTRY');
    });

    it('errors about the body as a whole, or a header, have no field', async () => {
      const none = { field: undefined, details: undefined };
      expectError(await me.put(`/deals/${dealId}`, {}), 400, 'VALIDATION_ERROR', 'Nenhum campo para atualizar', none);
      expectError(await me.post('/deals', []), 400, 'VALIDATION_ERROR', 'O corpo da requisição deve ser um objeto JSON', none);
      const raw = (payload: string, headers: Record<string, string> = {}) =>
        h.inject({ method: 'POST', url: '/api/v1/deals', headers: { authorization: bearer(me.key), 'content-type': 'application/json', ...headers }, payload });
      expectError(await raw('{"title":'), 400, 'VALIDATION_ERROR', 'JSON inválido', none);
      expectError(await raw('{"title":"x"}', { 'idempotency-key': 'k'.repeat(256) }), 400, 'VALIDATION_ERROR', undefined, none);
    });

    it('Fase inválida keeps its message and lists the team’s phases, in pipeline order, in details.allowed', async () => {
      const res = await me.post('/deals', { title: 'x', phase: 'string' });
      expectError(res, 400, 'VALIDATION_ERROR', 'Fase inválida', { field: 'phase', details: { allowed: DEFAULT_PHASES } });
      expectError(await me.put(`/deals/${dealId}`, { phase: 'Lead' }), 400, 'VALIDATION_ERROR', 'Fase inválida', {
        field: 'phase',
        details: { allowed: DEFAULT_PHASES },
      });

      // The team's own configuration, not a fixed list.
      const other = await h.team();
      await h.testDb.db.kysely.insertInto('team_phases').values({ team_id: other.teamId, name: 'test_drive', position: 6, probability: 40 }).execute();
      const custom = await other.post('/deals', { title: 'x', phase: 'visita' });
      expectError(custom, 400, 'VALIDATION_ERROR', 'Fase inválida', {
        field: 'phase',
        details: { allowed: [...DEFAULT_PHASES, 'test_drive'] },
      });
      expect((await other.post('/deals', { title: 'x', phase: 'test_drive' })).status).toBe(201);
    });
  });
}
