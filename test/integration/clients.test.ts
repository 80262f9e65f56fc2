import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../support/clock.js';
import { DIALECTS } from '../support/dialects.js';
import { expectError } from '../support/expect.js';
import { storeOf } from '../support/stores.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';

// Single-record client endpoints: POST, GET, PUT, DELETE /clients(/:id), and the CPF/CNPJ rules.

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const UNKNOWN_UUID = '0190a0a0-1111-7222-8333-444455556666';

const CONTACT = ['id', 'type', 'name', 'display_name', 'email', 'phone', 'mobile_phone', 'whatsapp'];
const TAIL = ['segment', 'source', 'status', 'store_id', 'address', 'notes', 'tags', 'credit_limit', 'created_at', 'updated_at'];
const PF_KEYS = [...CONTACT, 'cpf', 'rg', 'birth_date', 'gender', 'marital_status', 'nationality', ...TAIL].sort();
const PJ_KEYS = [...CONTACT, 'cnpj', 'legal_name', 'trade_name', 'state_registration', ...TAIL].sort();
const ADDRESS_KEYS = ['street', 'number', 'complement', 'neighborhood', 'city', 'state', 'zip_code', 'country'];
const NULL_ADDRESS = Object.fromEntries(ADDRESS_KEYS.map((k) => [k, null]));

const keysOf = (o: object) => Object.keys(o).sort();

async function create(t: Caller, body: Record<string, unknown>) {
  const res = await t.post('/clients', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as Record<string, any>;
}

const pf = (extra: Record<string, unknown> = {}) => ({ type: 'PF', name: 'Maria da Silva', ...extra });
const pj = (extra: Record<string, unknown> = {}) => ({ type: 'PJ', name: 'Auto Peças Ltda', ...extra });

for (const dialect of DIALECTS) {
  describe(`clients: single-record endpoints (${dialect})`, () => {
    let h: Harness;
    // Time is the test's: writes get the times it sets, and "later" is one advance away (no sleeping).
    const clock = fakeClock();
    beforeAll(async () => {
      h = await createHarness(dialect, { clock });
    });
    afterAll(() => h.close());

    describe('POST /clients', () => {
      it('creates a minimal PF: 201, active, tags [], every unsent field null, UUID v7, timestamps without fraction', async () => {
        const t = await h.team();
        const res = await t.post('/clients', { type: 'PF', name: 'João Pereira' });
        expect(res.status).toBe(201);
        expect(res.body.success).toBe(true);
        const c = res.body.data;
        expect(keysOf(c)).toEqual(PF_KEYS);
        expect(c.id).toMatch(UUID_V7);
        expect(c.type).toBe('PF');
        expect(c.name).toBe('João Pereira');
        expect(c.status).toBe('active');
        expect(c.tags).toEqual([]);
        expect(c.address).toBeNull();
        expect(c.created_at).toMatch(TIMESTAMP);
        expect(c.updated_at).toMatch(TIMESTAMP);
        for (const k of PF_KEYS.filter((k) => !['id', 'type', 'name', 'status', 'tags', 'created_at', 'updated_at'].includes(k))) {
          expect(c[k], k).toBeNull();
        }
      });

      it('creates a minimal PJ with the PJ key set (no PF fields, no municipal_registration)', async () => {
        const t = await h.team();
        const res = await t.post('/clients', { type: 'PJ', name: 'Auto Center Ltda' });
        expect(res.status).toBe(201);
        const c = res.body.data;
        expect(keysOf(c)).toEqual(PJ_KEYS);
        expect(c.id).toMatch(UUID_V7);
        expect(c.status).toBe('active');
        expect(c.tags).toEqual([]);
        for (const k of ['cnpj', 'legal_name', 'trade_name', 'state_registration', 'address', 'credit_limit', 'segment', 'notes']) {
          expect(c[k], k).toBeNull();
        }
        expect(c.created_at).toMatch(TIMESTAMP);
        expect(c.updated_at).toMatch(TIMESTAMP);
      });

      it('echoes every PF field sent, and GET /clients/:id returns the same full record', async () => {
        const t = await h.team();
        const body = {
          type: 'PF',
          name: 'Ana Beatriz Souza',
          display_name: 'Bia',
          email: 'ana@example.com',
          phone: '(11) 3333-4444',
          mobile_phone: '(11) 98888-7777',
          whatsapp: '5511988887777',
          cpf: '529.982.247-25',
          rg: '12.345.678-9',
          birth_date: '1990-03-15',
          gender: 'feminino',
          marital_status: 'casada',
          nationality: 'brasileira',
          segment: 'vip',
          source: 'showroom',
          store_id: await storeOf(h, t.teamId),
          address: {
            street: 'Av. Paulista',
            number: '1000',
            complement: 'ap 12',
            neighborhood: 'Bela Vista',
            city: 'São Paulo',
            state: 'SP',
            zip_code: '01310-100',
            country: 'BR',
          },
          notes: 'Cliente antiga',
          tags: ['suv', 'financiamento'],
          credit_limit: 150000.5,
        };
        const c = await create(t, body);
        expect(keysOf(c)).toEqual(PF_KEYS);
        const { type: _type, ...rest } = body;
        expect(c).toMatchObject(rest);
        expect(c.type).toBe('PF');
        const got = await t.get(`/clients/${c.id}`);
        expect(got.status).toBe(200);
        expect(got.body).toEqual({ success: true, data: c });
      });

      it('echoes every PJ field sent; municipal_registration is accepted but never returned', async () => {
        const t = await h.team();
        const body = {
          type: 'PJ',
          name: 'Revenda Boa Viagem',
          display_name: 'Boa Viagem',
          email: 'contato@boaviagem.com.br',
          cnpj: '11.222.333/0001-81',
          legal_name: 'Revenda Boa Viagem Comércio de Veículos Ltda',
          trade_name: 'Boa Viagem Veículos',
          state_registration: '123.456.789.110',
          municipal_registration: '9876543',
          segment: 'premium',
          credit_limit: 1000000,
          tags: ['frota'],
        };
        const c = await create(t, body);
        expect(keysOf(c)).toEqual(PJ_KEYS);
        expect(c).not.toHaveProperty('municipal_registration');
        const { type: _type, municipal_registration: _mr, ...rest } = body;
        expect(c).toMatchObject(rest);
        const got = await t.get(`/clients/${c.id}`);
        expect(got.status).toBe(200);
        expect(got.body).toEqual({ success: true, data: c });
        expect(got.body.data).not.toHaveProperty('municipal_registration');
      });

      it('a partial address comes back with all eight members, unset ones null', async () => {
        const t = await h.team();
        const c = await create(t, pf({ address: { city: 'Curitiba', state: 'PR' } }));
        expect(c.address).toEqual({ ...NULL_ADDRESS, city: 'Curitiba', state: 'PR' });
        const got = await t.get(`/clients/${c.id}`);
        expect(got.body.data.address).toEqual({ ...NULL_ADDRESS, city: 'Curitiba', state: 'PR' });
      });

      it('explicit nulls on create are the same as leaving the fields out', async () => {
        const t = await h.team();
        const c = await create(t, pf({ email: null, segment: null, address: null, credit_limit: null, cpf: null }));
        expect(c.email).toBeNull();
        expect(c.segment).toBeNull();
        expect(c.address).toBeNull();
        expect(c.credit_limit).toBeNull();
        expect(c.cpf).toBeNull();
      });

      it('stores CPF and CNPJ as sent (punctuation and case kept)', async () => {
        const t = await h.team();
        expect((await create(t, pf({ cpf: '12345678909' }))).cpf).toBe('12345678909');
        expect((await create(t, pf({ cpf: '111.444.777-35' }))).cpf).toBe('111.444.777-35');
        const alpha = await create(t, pj({ cnpj: '12abc34501de35' }));
        expect(alpha.cnpj).toBe('12abc34501de35');
        expect((await t.get(`/clients/${alpha.id}`)).body.data.cnpj).toBe('12abc34501de35');
      });
    });

    describe('POST /clients validation', () => {
      it('name missing: 400 VALIDATION_ERROR "Campo \'name\' é obrigatório"', async () => {
        const t = await h.team();
        expectError(await t.post('/clients', { type: 'PF' }), 400, 'VALIDATION_ERROR', "Campo 'name' é obrigatório");
        expectError(await t.post('/clients', { type: 'PJ', email: 'a@b.com' }), 400, 'VALIDATION_ERROR', "Campo 'name' é obrigatório");
      });

      it('type missing or not PF/PJ: 400 with the contract message', async () => {
        const t = await h.team();
        const msg = "Campo 'type' é obrigatório. Use: PF ou PJ";
        expectError(await t.post('/clients', { name: 'Fulano' }), 400, 'VALIDATION_ERROR', msg);
        expectError(await t.post('/clients', { name: 'Fulano', type: 'PX' }), 400, 'VALIDATION_ERROR', msg);
        expectError(await t.post('/clients', { name: 'Fulano', type: 'pf' }), 400, 'VALIDATION_ERROR', msg);
        expectError(await t.post('/clients', { name: 'Fulano', type: null }), 400, 'VALIDATION_ERROR');
        expectError(await t.post('/clients', {}), 400, 'VALIDATION_ERROR', msg);
      });

      it('empty or blank name: 400 "Campo \'name\' não pode ser vazio"', async () => {
        const t = await h.team();
        expectError(await t.post('/clients', pf({ name: '' })), 400, 'VALIDATION_ERROR', "Campo 'name' não pode ser vazio");
        expectError(await t.post('/clients', pf({ name: '   ' })), 400, 'VALIDATION_ERROR', "Campo 'name' não pode ser vazio");
        expectError(await t.post('/clients', pf({ name: null })), 400, 'VALIDATION_ERROR');
      });

      it('bad e-mail and bad birth_date', async () => {
        const t = await h.team();
        expectError(await t.post('/clients', pf({ email: 'not-an-email' })), 400, 'VALIDATION_ERROR', "Campo 'email' deve ser um e-mail válido");
        const dateMsg = "Campo 'birth_date' deve ser uma data válida no formato YYYY-MM-DD";
        expectError(await t.post('/clients', pf({ birth_date: '15/03/1990' })), 400, 'VALIDATION_ERROR', dateMsg);
        expectError(await t.post('/clients', pf({ birth_date: '1990-02-30' })), 400, 'VALIDATION_ERROR', dateMsg);
        expectError(await t.post('/clients', pf({ birth_date: '1990-3-5' })), 400, 'VALIDATION_ERROR', dateMsg);
      });

      it('gender and segment outside their sets', async () => {
        const t = await h.team();
        expectError(await t.post('/clients', pf({ gender: 'x' })), 400, 'VALIDATION_ERROR', 'Gênero inválido');
        expectError(await t.post('/clients', pf({ gender: 'Masculino' })), 400, 'VALIDATION_ERROR', 'Gênero inválido');
        expectError(await t.post('/clients', pf({ segment: 'gold' })), 400, 'VALIDATION_ERROR', 'Segmento inválido');
        expectError(await t.post('/clients', pj({ segment: 'VIP' })), 400, 'VALIDATION_ERROR', 'Segmento inválido');
        for (const gender of ['masculino', 'feminino', 'outro']) expect((await create(t, pf({ gender }))).gender).toBe(gender);
        for (const segment of ['vip', 'premium', 'regular', 'occasional']) expect((await create(t, pj({ segment }))).segment).toBe(segment);
      });

      it('negative credit_limit and more than two decimals', async () => {
        const t = await h.team();
        expectError(await t.post('/clients', pf({ credit_limit: -1 })), 400, 'VALIDATION_ERROR', "Campo 'credit_limit' não pode ser negativo");
        expectError(
          await t.post('/clients', pf({ credit_limit: 10.123 })),
          400,
          'VALIDATION_ERROR',
          "Campo 'credit_limit' deve ter no máximo duas casas decimais",
        );
        expect((await create(t, pf({ credit_limit: 0 }))).credit_limit).toBe(0);
        expect((await create(t, pf({ credit_limit: 0.1 }))).credit_limit).toBe(0.1);
      });

      it('wrong JSON types name the field', async () => {
        const t = await h.team();
        expectError(await t.post('/clients', pf({ name: 123 })), 400, 'VALIDATION_ERROR', "Campo 'name' deve ser um texto");
        expectError(await t.post('/clients', pf({ credit_limit: '100' })), 400, 'VALIDATION_ERROR', "Campo 'credit_limit' deve ser um número");
        expectError(await t.post('/clients', pf({ tags: 'vip' })), 400, 'VALIDATION_ERROR', "Campo 'tags' deve ser uma lista");
        expectError(await t.post('/clients', pf({ address: 'Rua A' })), 400, 'VALIDATION_ERROR', "Campo 'address' deve ser um objeto");
        expectError(await t.post('/clients', pf({ email: true })), 400, 'VALIDATION_ERROR', "Campo 'email' deve ser um texto");
        expectError(await t.post('/clients', pf({ cpf: 52998224725 })), 400, 'VALIDATION_ERROR', "Campo 'cpf' deve ser um texto");
        expectError(await t.post('/clients', pf({ address: { city: 1 } })), 400, 'VALIDATION_ERROR', "Campo 'address.city' deve ser um texto");
        expectError(await t.post('/clients', pf({ tags: null })), 400, 'VALIDATION_ERROR');
        expectError(await t.post('/clients', pf({ tags: [1] })), 400, 'VALIDATION_ERROR');
        // nothing was written
        expect((await t.get('/clients')).body.pagination.total).toBe(0);
      });

      it('malformed JSON: 400 "JSON inválido"; a JSON value that is not an object: 400', async () => {
        const t = await h.team();
        const raw = (payload: string) =>
          h.inject({ method: 'POST', url: '/api/v1/clients', headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' }, payload });
        expectError(await raw('{"type":"PF","name":'), 400, 'VALIDATION_ERROR', 'JSON inválido');
        expectError(await raw("{'type':'PF'}"), 400, 'VALIDATION_ERROR', 'JSON inválido');
        expectError(await raw('[]'), 400, 'VALIDATION_ERROR', 'O corpo da requisição deve ser um objeto JSON');
        expectError(await raw('"PF"'), 400, 'VALIDATION_ERROR', 'O corpo da requisição deve ser um objeto JSON');
      });

      it('unknown body fields are ignored', async () => {
        const t = await h.team();
        const c = await create(t, pf({ favourite_colour: 'azul', is_active: false, status: 'inactive' }));
        expect(c).not.toHaveProperty('favourite_colour');
        expect(c.status).toBe('active');
      });

      it('name is limited to 200 characters', async () => {
        const t = await h.team();
        expect((await create(t, pf({ name: 'x'.repeat(200) }))).name).toHaveLength(200);
        expectError(await t.post('/clients', pf({ name: 'x'.repeat(201) })), 400, 'VALIDATION_ERROR', "Campo 'name' deve ter no máximo 200 caracteres");
      });
    });

    describe('CPF / CNPJ rules', () => {
      it('invalid CPF: 400 "CPF inválido"', async () => {
        const t = await h.team();
        for (const cpf of ['529.982.247-26', '111.111.111-11', '52998224725', '1234', 'abc.def.ghi-jk']) {
          const res = await t.post('/clients', pf({ cpf }));
          if (cpf === '52998224725') {
            expect(res.status).toBe(201);
            continue;
          }
          expectError(res, 400, 'VALIDATION_ERROR', 'CPF inválido');
        }
      });

      it('invalid CNPJ (numeric and alphanumeric): 400 "CNPJ inválido"', async () => {
        const t = await h.team();
        for (const cnpj of ['11.222.333/0001-82', '12.ABC.345/01DE-36', '11111111111111', '123']) {
          expectError(await t.post('/clients', pj({ cnpj })), 400, 'VALIDATION_ERROR', 'CNPJ inválido');
        }
        expect((await create(t, pj({ cnpj: '11.222.333/0001-81' }))).cnpj).toBe('11.222.333/0001-81');
        expect((await create(t, pj({ cnpj: '12.ABC.345/01DE-35' }))).cnpj).toBe('12.ABC.345/01DE-35');
      });

      it('a cpf on a PJ, or a cnpj on a PF, is 400 (and other-type fields too)', async () => {
        const t = await h.team();
        expectError(await t.post('/clients', pj({ cpf: '529.982.247-25' })), 400, 'VALIDATION_ERROR', "Campo 'cpf' não se aplica a clientes do tipo PJ");
        expectError(await t.post('/clients', pf({ cnpj: '11.222.333/0001-81' })), 400, 'VALIDATION_ERROR', "Campo 'cnpj' não se aplica a clientes do tipo PF");
        expectError(await t.post('/clients', pf({ legal_name: 'X Ltda' })), 400, 'VALIDATION_ERROR', "Campo 'legal_name' não se aplica a clientes do tipo PF");
        expectError(
          await t.post('/clients', pf({ municipal_registration: '123' })),
          400,
          'VALIDATION_ERROR',
          "Campo 'municipal_registration' não se aplica a clientes do tipo PF",
        );
        expectError(
          await t.post('/clients', pj({ birth_date: '1990-01-01' })),
          400,
          'VALIDATION_ERROR',
          "Campo 'birth_date' não se aplica a clientes do tipo PJ",
        );
        expect((await t.get('/clients')).body.pagination.total).toBe(0);
      });

      it('duplicate CPF in the same team: 422 DUPLICATE_ENTRY "CPF já cadastrado", whatever the punctuation', async () => {
        const t = await h.team();
        await create(t, pf({ cpf: '529.982.247-25' }));
        expectError(await t.post('/clients', pf({ name: 'Outro', cpf: '529.982.247-25' })), 422, 'DUPLICATE_ENTRY', 'CPF já cadastrado');
        expectError(await t.post('/clients', pf({ name: 'Outro', cpf: '52998224725' })), 422, 'DUPLICATE_ENTRY', 'CPF já cadastrado');
        expectError(await t.post('/clients', pf({ name: 'Outro', cpf: '529 982 247 25' })), 422, 'DUPLICATE_ENTRY', 'CPF já cadastrado');
        // the reverse order too
        await create(t, pf({ cpf: '11144477735' }));
        expectError(await t.post('/clients', pf({ cpf: '111.444.777-35' })), 422, 'DUPLICATE_ENTRY', 'CPF já cadastrado');
        expect((await t.get('/clients')).body.pagination.total).toBe(2);
      });

      it('duplicate CPF also when the first client is inactive', async () => {
        const t = await h.team();
        const first = await create(t, pf({ cpf: '935.411.347-80' }));
        expect((await t.delete(`/clients/${first.id}`)).status).toBe(200);
        expectError(await t.post('/clients', pf({ cpf: '93541134780' })), 422, 'DUPLICATE_ENTRY', 'CPF já cadastrado');
      });

      it('duplicate CNPJ: 422 "CNPJ já cadastrado", numeric with other punctuation and alphanumeric in another case', async () => {
        const t = await h.team();
        await create(t, pj({ cnpj: '11.222.333/0001-81' }));
        expectError(await t.post('/clients', pj({ cnpj: '11222333000181' })), 422, 'DUPLICATE_ENTRY', 'CNPJ já cadastrado');
        await create(t, pj({ cnpj: '12.ABC.345/01DE-35' }));
        expectError(await t.post('/clients', pj({ cnpj: '12abc34501de35' })), 422, 'DUPLICATE_ENTRY', 'CNPJ já cadastrado');
        expectError(await t.post('/clients', pj({ cnpj: '12.abc.345/01de-35' })), 422, 'DUPLICATE_ENTRY', 'CNPJ já cadastrado');
        expectError(await t.post('/clients', pj({ cnpj: '12ABC34501DE35' })), 422, 'DUPLICATE_ENTRY', 'CNPJ já cadastrado');
      });

      it('duplicate CNPJ also when the first client is inactive', async () => {
        const t = await h.team();
        const first = await create(t, pj({ cnpj: '12abc34501de35' }));
        expect((await t.delete(`/clients/${first.id}`)).status).toBe(200);
        expectError(await t.post('/clients', pj({ cnpj: '12.ABC.345/01DE-35' })), 422, 'DUPLICATE_ENTRY', 'CNPJ já cadastrado');
      });

      it('the same CPF and CNPJ in another team are fine', async () => {
        const a = await h.team();
        const b = await h.team();
        await create(a, pf({ cpf: '529.982.247-25' }));
        await create(a, pj({ cnpj: '11.222.333/0001-81' }));
        expect((await create(b, pf({ cpf: '52998224725' }))).cpf).toBe('52998224725');
        expect((await create(b, pj({ cnpj: '11.222.333/0001-81' }))).cnpj).toBe('11.222.333/0001-81');
      });

      it('many clients without CPF/CNPJ are fine (nulls are not duplicates)', async () => {
        const t = await h.team();
        await create(t, pf());
        await create(t, pf());
        await create(t, pj());
        await create(t, pj());
        expect((await t.get('/clients')).body.pagination.total).toBe(4);
      });

      it('PUT setting a CPF that another client of the team has: 422, and nothing changes', async () => {
        const t = await h.team();
        await create(t, pf({ name: 'Primeiro', cpf: '529.982.247-25' }));
        const second = await create(t, pf({ name: 'Segundo', cpf: '111.444.777-35' }));
        expectError(await t.put(`/clients/${second.id}`, { cpf: '52998224725', notes: 'x' }), 422, 'DUPLICATE_ENTRY', 'CPF já cadastrado');
        const got = (await t.get(`/clients/${second.id}`)).body.data;
        expect(got.cpf).toBe('111.444.777-35');
        expect(got.notes).toBeNull();
        // a client without a CPF cannot take it either
        const third = await create(t, pf({ name: 'Terceiro' }));
        expectError(await t.put(`/clients/${third.id}`, { cpf: '529.982.247-25' }), 422, 'DUPLICATE_ENTRY', 'CPF já cadastrado');
      });

      it('PUT setting a CNPJ that another client of the team has: 422', async () => {
        const t = await h.team();
        await create(t, pj({ cnpj: '12.ABC.345/01DE-35' }));
        const other = await create(t, pj({ cnpj: '11.222.333/0001-81' }));
        expectError(await t.put(`/clients/${other.id}`, { cnpj: '12abc34501de35' }), 422, 'DUPLICATE_ENTRY', 'CNPJ já cadastrado');
        expect((await t.get(`/clients/${other.id}`)).body.data.cnpj).toBe('11.222.333/0001-81');
      });

      it('PUT keeping its own CPF / CNPJ (even re-punctuated) is fine', async () => {
        const t = await h.team();
        const c = await create(t, pf({ cpf: '529.982.247-25' }));
        const same = await t.put(`/clients/${c.id}`, { cpf: '529.982.247-25', name: 'Novo Nome' });
        expect(same.status).toBe(200);
        expect(same.body.data.cpf).toBe('529.982.247-25');
        const repunct = await t.put(`/clients/${c.id}`, { cpf: '52998224725' });
        expect(repunct.status).toBe(200);
        expect(repunct.body.data.cpf).toBe('52998224725');
        const j = await create(t, pj({ cnpj: '12.ABC.345/01DE-35' }));
        const jr = await t.put(`/clients/${j.id}`, { cnpj: '12abc34501de35' });
        expect(jr.status).toBe(200);
        expect(jr.body.data.cnpj).toBe('12abc34501de35');
      });

      it('PUT with an invalid CPF/CNPJ: 400, and a CPF on a PJ / CNPJ on a PF: 400', async () => {
        const t = await h.team();
        const p = await create(t, pf());
        const j = await create(t, pj());
        expectError(await t.put(`/clients/${p.id}`, { cpf: '529.982.247-26' }), 400, 'VALIDATION_ERROR', 'CPF inválido');
        expectError(await t.put(`/clients/${j.id}`, { cnpj: '11.222.333/0001-82' }), 400, 'VALIDATION_ERROR', 'CNPJ inválido');
        expectError(
          await t.put(`/clients/${p.id}`, { cnpj: '11.222.333/0001-81' }),
          400,
          'VALIDATION_ERROR',
          "Campo 'cnpj' não se aplica a clientes do tipo PF",
        );
        expectError(await t.put(`/clients/${j.id}`, { cpf: '529.982.247-25' }), 400, 'VALIDATION_ERROR', "Campo 'cpf' não se aplica a clientes do tipo PJ");
      });

      it('10 simultaneous POSTs with the same CPF: exactly one 201, nine 422', async () => {
        const t = await h.team();
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => t.post('/clients', pf({ name: `Concorrente ${i}`, cpf: i % 2 ? '529.982.247-25' : '52998224725' }))),
        );
        const statuses = results.map((r) => r.status).sort();
        expect(statuses).toEqual([201, ...Array(9).fill(422)]);
        for (const r of results.filter((r) => r.status === 422)) expectError(r, 422, 'DUPLICATE_ENTRY', 'CPF já cadastrado');
        const list = await t.get('/clients');
        expect(list.body.pagination.total).toBe(1);
        expect(list.body.data).toHaveLength(1);
      });

      it('10 simultaneous POSTs with the same CNPJ: exactly one 201, nine 422', async () => {
        const t = await h.team();
        const forms = ['12.ABC.345/01DE-35', '12abc34501de35', '12ABC34501DE35'];
        const results = await Promise.all(Array.from({ length: 10 }, (_, i) => t.post('/clients', pj({ name: `Empresa ${i}`, cnpj: forms[i % 3] }))));
        expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(422)]);
        for (const r of results.filter((r) => r.status === 422)) expectError(r, 422, 'DUPLICATE_ENTRY', 'CNPJ já cadastrado');
        const list = await t.get('/clients');
        expect(list.body.pagination.total).toBe(1);
        expect(list.body.data).toHaveLength(1);
      });
    });

    describe('GET /clients/:id', () => {
      it('unknown, non-UUID and other-team ids: 404 NOT_FOUND "Cliente não encontrado", never 403', async () => {
        const owner = await h.team();
        const stranger = await h.team();
        const c = await create(owner, pf());
        for (const id of [UNKNOWN_UUID, 'abc', '123', 'not-a-uuid-at-all']) {
          expectError(await owner.get(`/clients/${id}`), 404, 'NOT_FOUND', 'Cliente não encontrado');
        }
        expectError(await stranger.get(`/clients/${c.id}`), 404, 'NOT_FOUND', 'Cliente não encontrado');
        expect((await owner.get(`/clients/${c.id}`)).status).toBe(200);
      });
    });

    describe('PUT /clients/:id', () => {
      it('returns exactly id, the fields sent and updated_at; GET reflects the change', async () => {
        const t = await h.team();
        const c = await create(t, pf({ email: 'old@example.com' }));
        const res = await t.put(`/clients/${c.id}`, { name: 'Maria Souza', email: 'nova@example.com', segment: 'vip', tags: ['a', 'b'] });
        expect(res.status).toBe(200);
        expect(res.body.success).toBe(true);
        expect(keysOf(res.body.data)).toEqual(['email', 'id', 'name', 'segment', 'tags', 'updated_at']);
        expect(res.body.data).toMatchObject({ id: c.id, name: 'Maria Souza', email: 'nova@example.com', segment: 'vip', tags: ['a', 'b'] });
        expect(res.body.data.updated_at).toMatch(TIMESTAMP);
        const got = (await t.get(`/clients/${c.id}`)).body.data;
        expect(keysOf(got)).toEqual(PF_KEYS);
        expect(got).toMatchObject({ name: 'Maria Souza', email: 'nova@example.com', segment: 'vip', tags: ['a', 'b'], status: 'active' });
        expect(got.created_at).toBe(c.created_at);
        expect(got.updated_at).toBe(res.body.data.updated_at);
      });

      it('unknown fields are ignored in the response; sending the same type is accepted', async () => {
        const t = await h.team();
        const c = await create(t, pj());
        const res = await t.put(`/clients/${c.id}`, { type: 'PJ', trade_name: 'Nova Marca', bogus: 1 });
        expect(res.status).toBe(200);
        expect(keysOf(res.body.data)).toEqual(['id', 'trade_name', 'type', 'updated_at']);
      });

      it('empty body or only unknown fields: 400 "Nenhum campo para atualizar"', async () => {
        const t = await h.team();
        const c = await create(t, pf());
        expectError(await t.put(`/clients/${c.id}`, {}), 400, 'VALIDATION_ERROR', 'Nenhum campo para atualizar');
        expectError(await t.put(`/clients/${c.id}`, { foo: 'bar', is_active: true }), 400, 'VALIDATION_ERROR', 'Nenhum campo para atualizar');
        // status is not a PUT field (DELETE deactivates, any valid PUT reactivates)
        expectError(await t.put(`/clients/${c.id}`, { status: 'inactive' }), 400, 'VALIDATION_ERROR', 'Nenhum campo para atualizar');
        expect((await t.get(`/clients/${c.id}`)).body.data.status).toBe('active');
      });

      it('PUT without a body or with malformed JSON: 400', async () => {
        const t = await h.team();
        const c = await create(t, pf());
        expectError(await t.put(`/clients/${c.id}`), 400, 'VALIDATION_ERROR');
        const res = await h.inject({
          method: 'PUT',
          url: `/api/v1/clients/${c.id}`,
          headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
          payload: '{"name": "x",}',
        });
        expectError(res, 400, 'VALIDATION_ERROR', 'JSON inválido');
      });

      it('PUT changing type: 400, and the client keeps its type', async () => {
        const t = await h.team();
        const c = await create(t, pf());
        expectError(await t.put(`/clients/${c.id}`, { type: 'PJ' }), 400, 'VALIDATION_ERROR', "Campo 'type' não pode ser alterado");
        expectError(await t.put(`/clients/${c.id}`, { type: 'XX' }), 400, 'VALIDATION_ERROR');
        expect((await t.get(`/clients/${c.id}`)).body.data.type).toBe('PF');
      });

      it('PUT validates like POST (empty name, null name, bad e-mail, enums, negative credit_limit, wrong types)', async () => {
        const t = await h.team();
        const c = await create(t, pf());
        expectError(await t.put(`/clients/${c.id}`, { name: '' }), 400, 'VALIDATION_ERROR', "Campo 'name' não pode ser vazio");
        expectError(await t.put(`/clients/${c.id}`, { name: null }), 400, 'VALIDATION_ERROR');
        expectError(await t.put(`/clients/${c.id}`, { tags: null }), 400, 'VALIDATION_ERROR');
        expectError(await t.put(`/clients/${c.id}`, { email: 'x@' }), 400, 'VALIDATION_ERROR', "Campo 'email' deve ser um e-mail válido");
        expectError(await t.put(`/clients/${c.id}`, { gender: 'x' }), 400, 'VALIDATION_ERROR', 'Gênero inválido');
        expectError(await t.put(`/clients/${c.id}`, { segment: 'gold' }), 400, 'VALIDATION_ERROR', 'Segmento inválido');
        expectError(await t.put(`/clients/${c.id}`, { credit_limit: -10 }), 400, 'VALIDATION_ERROR', "Campo 'credit_limit' não pode ser negativo");
        expectError(await t.put(`/clients/${c.id}`, { credit_limit: '10' }), 400, 'VALIDATION_ERROR', "Campo 'credit_limit' deve ser um número");
        expectError(
          await t.put(`/clients/${c.id}`, { birth_date: '2001-13-01' }),
          400,
          'VALIDATION_ERROR',
          "Campo 'birth_date' deve ser uma data válida no formato YYYY-MM-DD",
        );
        const got = (await t.get(`/clients/${c.id}`)).body.data;
        expect(got.updated_at).toBe(c.updated_at);
        expect(got.name).toBe(c.name);
      });

      it('a partial address is merged into the stored one; the response carries the whole merged address', async () => {
        const t = await h.team();
        const c = await create(t, pf({ address: { city: 'São Paulo' } }));
        const res = await t.put(`/clients/${c.id}`, { address: { street: 'Rua A' } });
        expect(res.status).toBe(200);
        expect(keysOf(res.body.data)).toEqual(['address', 'id', 'updated_at']);
        expect(res.body.data.address).toEqual({ ...NULL_ADDRESS, city: 'São Paulo', street: 'Rua A' });
        expect((await t.get(`/clients/${c.id}`)).body.data.address).toEqual({ ...NULL_ADDRESS, city: 'São Paulo', street: 'Rua A' });
        // a member sent as null clears only that member
        const res2 = await t.put(`/clients/${c.id}`, { address: { city: null, number: '42' } });
        expect(res2.body.data.address).toEqual({ ...NULL_ADDRESS, street: 'Rua A', number: '42' });
      });

      it('address on a client that had none gets all eight members', async () => {
        const t = await h.team();
        const c = await create(t, pj());
        const res = await t.put(`/clients/${c.id}`, { address: { zip_code: '01310-100' } });
        expect(res.body.data.address).toEqual({ ...NULL_ADDRESS, zip_code: '01310-100' });
      });

      it('address: null clears the address', async () => {
        const t = await h.team();
        const c = await create(t, pf({ address: { city: 'Recife', state: 'PE' } }));
        const res = await t.put(`/clients/${c.id}`, { address: null });
        expect(res.status).toBe(200);
        expect(res.body.data.address).toBeNull();
        expect((await t.get(`/clients/${c.id}`)).body.data.address).toBeNull();
      });

      it('nulls clear optional fields', async () => {
        const t = await h.team();
        const c = await create(
          t,
          pf({
            email: 'a@b.com',
            segment: 'vip',
            credit_limit: 500,
            notes: 'n',
            cpf: '529.982.247-25',
            birth_date: '1980-01-01',
            gender: 'outro',
            store_id: await storeOf(h, t.teamId),
          }),
        );
        const res = await t.put(`/clients/${c.id}`, {
          email: null,
          segment: null,
          credit_limit: null,
          notes: null,
          cpf: null,
          birth_date: null,
          gender: null,
          store_id: null,
        });
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({
          id: c.id,
          email: null,
          segment: null,
          credit_limit: null,
          notes: null,
          cpf: null,
          birth_date: null,
          gender: null,
          store_id: null,
          updated_at: expect.stringMatching(TIMESTAMP),
        });
        const got = (await t.get(`/clients/${c.id}`)).body.data;
        for (const k of ['email', 'segment', 'credit_limit', 'notes', 'cpf', 'birth_date', 'gender', 'store_id']) expect(got[k], k).toBeNull();
        // the cleared CPF is free again
        expect((await create(t, pf({ cpf: '52998224725' }))).cpf).toBe('52998224725');
      });

      it('municipal_registration is accepted on PUT and never echoed', async () => {
        const t = await h.team();
        const c = await create(t, pj({ municipal_registration: '111' }));
        const only = await t.put(`/clients/${c.id}`, { municipal_registration: '222' });
        expect(only.status).toBe(200);
        expect(keysOf(only.body.data)).toEqual(['id', 'updated_at']);
        const mixed = await t.put(`/clients/${c.id}`, { municipal_registration: '333', legal_name: 'Razão' });
        expect(mixed.status).toBe(200);
        expect(keysOf(mixed.body.data)).toEqual(['id', 'legal_name', 'updated_at']);
        expect((await t.get(`/clients/${c.id}`)).body.data).not.toHaveProperty('municipal_registration');
      });

      it('a PUT with a valid field on an inactive client reactivates it (status in the response, GET, default list)', async () => {
        const t = await h.team();
        const c = await create(t, pf());
        expect((await t.delete(`/clients/${c.id}`)).status).toBe(200);
        expect((await t.get('/clients')).body.data).toHaveLength(0);
        const res = await t.put(`/clients/${c.id}`, { notes: 'voltou' });
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({ id: c.id, notes: 'voltou', status: 'active', updated_at: expect.stringMatching(TIMESTAMP) });
        expect((await t.get(`/clients/${c.id}`)).body.data.status).toBe('active');
        const list = await t.get('/clients');
        expect(list.body.data.map((x: any) => x.id)).toEqual([c.id]);
        expect((await t.get('/clients?status=inactive')).body.data).toHaveLength(0);
      });

      it('reactivation also happens when the field sent has the value already stored', async () => {
        const t = await h.team();
        const c = await create(t, pf({ name: 'Mesmo Nome' }));
        await t.delete(`/clients/${c.id}`);
        const res = await t.put(`/clients/${c.id}`, { name: 'Mesmo Nome' });
        expect(res.status).toBe(200);
        expect(res.body.data.status).toBe('active');
        expect((await t.get(`/clients/${c.id}`)).body.data.status).toBe('active');
      });

      it('an invalid PUT does not reactivate an inactive client', async () => {
        const t = await h.team();
        const c = await create(t, pf());
        await t.delete(`/clients/${c.id}`);
        expectError(await t.put(`/clients/${c.id}`, { email: 'bad' }), 400, 'VALIDATION_ERROR');
        expectError(await t.put(`/clients/${c.id}`, {}), 400, 'VALIDATION_ERROR', 'Nenhum campo para atualizar');
        expect((await t.get(`/clients/${c.id}`)).body.data.status).toBe('inactive');
      });

      it('unknown, non-UUID and other-team ids: 404 "Cliente não encontrado", and the other team\'s client is untouched', async () => {
        const owner = await h.team();
        const stranger = await h.team();
        const c = await create(owner, pf({ name: 'Intocado' }));
        for (const id of [UNKNOWN_UUID, 'abc', '42']) {
          expectError(await owner.put(`/clients/${id}`, { name: 'X' }), 404, 'NOT_FOUND', 'Cliente não encontrado');
        }
        expectError(await stranger.put(`/clients/${c.id}`, { name: 'Invadido' }), 404, 'NOT_FOUND', 'Cliente não encontrado');
        expect((await owner.get(`/clients/${c.id}`)).body.data.name).toBe('Intocado');
      });
    });

    describe('DELETE /clients/:id', () => {
      it('deactivates: 200 {id, status: inactive, deactivated_at}; the record is kept', async () => {
        const t = await h.team();
        const c = await create(t, pf({ name: 'Guardado', cpf: '529.982.247-25' }));
        const res = await t.delete(`/clients/${c.id}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ success: true, data: { id: c.id, status: 'inactive', deactivated_at: expect.stringMatching(TIMESTAMP) } });
        const got = await t.get(`/clients/${c.id}`);
        expect(got.status).toBe(200);
        expect(got.body.data).toMatchObject({ id: c.id, name: 'Guardado', cpf: '529.982.247-25', status: 'inactive' });
        expect(keysOf(got.body.data)).toEqual(PF_KEYS);
      });

      it('a second DELETE answers 200 with the same deactivated_at', async () => {
        const t = await h.team();
        const c = await create(t, pj());
        const first = await t.delete(`/clients/${c.id}`);
        expect(first.status).toBe(200);
        clock.advance(1_100); // timestamps have second precision: a fresh one would differ
        const second = await t.delete(`/clients/${c.id}`);
        expect(second.status).toBe(200);
        expect(second.body).toEqual(first.body);
      });

      it('unknown, non-UUID and other-team ids: 404 "Cliente não encontrado"; the other team\'s client stays active', async () => {
        const owner = await h.team();
        const stranger = await h.team();
        const c = await create(owner, pf());
        for (const id of [UNKNOWN_UUID, 'xyz', '1']) {
          expectError(await owner.delete(`/clients/${id}`), 404, 'NOT_FOUND', 'Cliente não encontrado');
        }
        expectError(await stranger.delete(`/clients/${c.id}`), 404, 'NOT_FOUND', 'Cliente não encontrado');
        expect((await owner.get(`/clients/${c.id}`)).body.data.status).toBe('active');
      });
    });
  });
}
