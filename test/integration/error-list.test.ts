import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { expectError } from '../support/expect.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';
import { signedIn, TEST_HASHING, type PanelBrowser } from '../support/panel.js';

/**
 * Issue 25, point 6: a 400 about fields answers every invalid field at once in `error.errors`
 * (`field` and the Portuguese message), the first one being `error.field` and `error.message` as
 * before: schema problems together, the services' rule problems together, the API and the panel alike.
 */
describe.each(DIALECTS)('error.errors: every invalid field at once (%s)', (dialect) => {
  let h: Harness;
  let api: Caller;
  let panel: PanelBrowser;
  beforeAll(async () => {
    h = await createHarness(dialect, { passwordHashing: TEST_HASHING });
    const signed = await signedIn(h, 'owner');
    panel = signed.browser;
    api = await h.key(signed.teamId);
  });
  afterAll(() => h.close());

  const both = async (method: 'post' | 'put', path: string, body: unknown) => [await api[method](path, body), await panel[method](path, body)];

  it('schema problems: every field of the body, the first unchanged', async () => {
    for (const res of await both('post', '/deals', { priority: 'urgente', probability: 101, value: '10' })) {
      expectError(res, 400, 'VALIDATION_ERROR', "Campo 'title' é obrigatório", { field: 'title' });
      expect(res.body.error.errors).toEqual([
        { field: 'title', message: "Campo 'title' é obrigatório" },
        { field: 'value', message: "Campo 'value' deve ser um número" },
        { field: 'priority', message: 'Prioridade inválida' },
        { field: 'probability', message: 'Probabilidade deve ser entre 0 e 100' },
      ]);
    }
  });

  it("the services' rules: plate, RENAVAM and chassis in one answer (vehicles), CPF and credit limit (clients), phase and client (deals)", async () => {
    const vehicle = { title: 'Onix', brand: 'Chevrolet', model: 'Onix', plate: 'XX', renavam: '123', chassis: 'abc', price: 10.001 };
    for (const res of await both('post', '/vehicles', vehicle)) {
      expectError(res, 400, 'VALIDATION_ERROR', 'Placa inválida', { field: 'plate' });
      expect(res.body.error.errors).toEqual([
        { field: 'plate', message: 'Placa inválida' },
        { field: 'renavam', message: 'RENAVAM inválido' },
        { field: 'chassis', message: 'Chassi inválido' },
        { field: 'price', message: "Campo 'price' deve ter no máximo duas casas decimais" },
      ]);
    }
    for (const res of await both('post', '/clients', { type: 'PF', name: 'Ana', cpf: '111.111.111-12', credit_limit: 1.001 })) {
      expect(res.body.error.errors).toEqual([
        { field: 'cpf', message: 'CPF inválido' },
        { field: 'credit_limit', message: "Campo 'credit_limit' deve ter no máximo duas casas decimais" },
      ]);
    }
    for (const res of await both('post', '/deals', { title: 'x', phase: 'nenhuma', client_id: '00000000-0000-4000-8000-000000000000', value: 1.001 })) {
      expectError(res, 400, 'VALIDATION_ERROR', 'Fase inválida', { field: 'phase' });
      expect(res.body.error.details.allowed).toHaveLength(5);
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).toEqual(['phase', 'client_id', 'value']);
    }
    const deal = (await api.post('/deals', { title: 'Onix' })).body.data;
    for (const res of await both('put', `/deals/${deal.id}`, { phase: 'nenhuma', client_id: 'x' })) {
      expect(res.body.error.errors).toEqual([
        { field: 'phase', message: 'Fase inválida' },
        { field: 'client_id', message: 'Cliente não encontrado' },
      ]);
    }
    // Nothing was written.
    expect((await api.get('/vehicles')).body.data).toEqual([]);
  });

  it('a body the schema refuses also gets the rules that need no database: CPF, plate, RENAVAM, chassis in the same answer', async () => {
    for (const res of await both('post', '/clients', { type: 'PF', name: '', email: 'x', cpf: '528.417.396-10' })) {
      expectError(res, 400, 'VALIDATION_ERROR', "Campo 'name' não pode ser vazio", { field: 'name' });
      expect(res.body.error.errors).toEqual([
        { field: 'name', message: "Campo 'name' não pode ser vazio" },
        { field: 'email', message: "Campo 'email' deve ser um e-mail válido" },
        { field: 'cpf', message: 'CPF inválido' },
      ]);
    }
    const deal = (await api.post('/vehicles', { title: 'Onix', brand: 'Chevrolet', model: 'Onix' })).body.data;
    for (const res of await both('put', `/vehicles/${deal.id}`, { title: '', plate: 'XX', renavam: '123', chassis: 'abc' })) {
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).toEqual(['title', 'plate', 'renavam', 'chassis']);
    }
    for (const res of await both('post', '/vehicles', { brand: 'Chevrolet', model: 'Onix', plate: 'XX' })) {
      expect(res.body.error.errors).toEqual([
        { field: 'title', message: "Campo 'title' é obrigatório" },
        { field: 'plate', message: 'Placa inválida' },
      ]);
    }
  });

  it('one problem: errors holds it alone; an error about no field has no errors', async () => {
    const res = await api.post('/clients', { type: 'PF', name: 'Ana', cpf: '111.111.111-12' });
    expect(res.body.error).toEqual({ code: 'VALIDATION_ERROR', message: 'CPF inválido', field: 'cpf', errors: [{ field: 'cpf', message: 'CPF inválido' }] });
    const deal = (await api.post('/deals', { title: 'Onix' })).body.data;
    expect((await api.put(`/deals/${deal.id}`, {})).body.error).toEqual({ code: 'VALIDATION_ERROR', message: 'Nenhum campo para atualizar' });
    expect((await api.get('/deals/00000000-0000-4000-8000-000000000000')).body.error).toEqual({ code: 'NOT_FOUND', message: 'Negócio não encontrado' });
  });
});
