import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../support/clock.js';
import { DIALECTS } from '../support/dialects.js';
import { expectError } from '../support/expect.js';
import { storeOf } from '../support/stores.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';

// GET /clients: list shape, filters, pagination, sorting and search.

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const CONTACT = ['id', 'type', 'name', 'display_name', 'email', 'phone', 'mobile_phone', 'whatsapp'];
const LIST_TAIL = ['segment', 'status', 'store_id', 'created_at'];
const PF_LIST_KEYS = [...CONTACT, 'cpf', ...LIST_TAIL].sort();
const PJ_LIST_KEYS = [...CONTACT, 'cnpj', 'legal_name', 'trade_name', ...LIST_TAIL].sort();
const PAGE_MSG = "Parâmetro 'page' deve ser um número inteiro positivo";
const LIMIT_MSG = "Parâmetro 'limit' deve ser um número inteiro positivo";

const keysOf = (o: object) => Object.keys(o).sort();

async function create(t: Caller, body: Record<string, unknown>) {
  const res = await t.post('/clients', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as Record<string, any>;
}

async function list(t: Caller, query = '') {
  const res = await t.get(`/clients${query ? `?${query}` : ''}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.success).toBe(true);
  return res.body as { success: true; data: Array<Record<string, any>>; pagination: { page: number; limit: number; total: number; pages: number } };
}

const names = async (t: Caller, query: string) => (await list(t, query)).data.map((c) => c.name);
const search = async (t: Caller, q: string) => (await names(t, `search=${encodeURIComponent(q)}&sort=name`)).sort();

for (const dialect of DIALECTS) {
  describe(`clients: GET /clients (${dialect})`, () => {
    let h: Harness;
    // Time is the test's: writes get the times it sets, and "later" is one advance away (no sleeping).
    const clock = fakeClock();
    beforeAll(async () => {
      h = await createHarness(dialect, { clock });
    });
    afterAll(() => h.close());

    describe('list items', () => {
      it('carry only the documented list fields (PF and PJ have their own sets)', async () => {
        const t = await h.team();
        const p = await create(t, {
          type: 'PF',
          name: 'Pessoa Física',
          display_name: 'PF',
          email: 'pf@example.com',
          phone: '1133334444',
          mobile_phone: '11988887777',
          whatsapp: '11988887777',
          cpf: '529.982.247-25',
          rg: '123',
          birth_date: '1990-01-01',
          gender: 'outro',
          segment: 'vip',
          store_id: await storeOf(h, t.teamId),
          source: 'site',
          address: { city: 'São Paulo' },
          notes: 'n',
          tags: ['t'],
          credit_limit: 10,
        });
        const j = await create(t, {
          type: 'PJ',
          name: 'Pessoa Jurídica',
          cnpj: '11.222.333/0001-81',
          legal_name: 'PJ Ltda',
          trade_name: 'PJ',
          state_registration: '1',
          municipal_registration: '2',
          address: { city: 'Rio' },
          notes: 'n',
          tags: ['t'],
          credit_limit: 10,
        });
        const body = await list(t);
        expect(body.data).toHaveLength(2);
        const pfItem = body.data.find((c) => c.id === p.id)!;
        const pjItem = body.data.find((c) => c.id === j.id)!;
        expect(keysOf(pfItem)).toEqual(PF_LIST_KEYS);
        expect(keysOf(pjItem)).toEqual(PJ_LIST_KEYS);
        expect(pfItem).toEqual({
          id: p.id,
          type: 'PF',
          name: 'Pessoa Física',
          display_name: 'PF',
          email: 'pf@example.com',
          phone: '1133334444',
          mobile_phone: '11988887777',
          whatsapp: '11988887777',
          cpf: '529.982.247-25',
          segment: 'vip',
          status: 'active',
          store_id: p.store_id,
          created_at: p.created_at,
        });
        expect(pjItem).toMatchObject({ cnpj: '11.222.333/0001-81', legal_name: 'PJ Ltda', trade_name: 'PJ', status: 'active', created_at: j.created_at });
        expect(pjItem.created_at).toMatch(TIMESTAMP);
        expect(Object.keys(body).sort()).toEqual(['data', 'pagination', 'success']);
      });

      it("lists only the caller team's clients", async () => {
        const a = await h.team();
        const b = await h.team();
        await create(a, { type: 'PF', name: 'Da equipe A' });
        await create(b, { type: 'PF', name: 'Da equipe B' });
        expect(await names(a, '')).toEqual(['Da equipe A']);
        expect(await names(b, '')).toEqual(['Da equipe B']);
      });
    });

    describe('filters', () => {
      it('default excludes inactive clients; status=inactive lists them; status=active the others', async () => {
        const t = await h.team();
        await create(t, { type: 'PF', name: 'Ativo 1' });
        const gone = await create(t, { type: 'PJ', name: 'Inativo' });
        await create(t, { type: 'PF', name: 'Ativo 2' });
        expect((await t.delete(`/clients/${gone.id}`)).status).toBe(200);
        const def = await list(t);
        expect(def.data.map((c) => c.name).sort()).toEqual(['Ativo 1', 'Ativo 2']);
        expect(def.pagination.total).toBe(2);
        const inactive = await list(t, 'status=inactive');
        expect(inactive.data.map((c) => c.name)).toEqual(['Inativo']);
        expect(inactive.data[0]!.status).toBe('inactive');
        expect(inactive.pagination.total).toBe(1);
        expect((await names(t, 'status=active')).sort()).toEqual(['Ativo 1', 'Ativo 2']);
      });

      it('type, segment and store_id filters, alone and combined', async () => {
        const t = await h.team();
        const [loja1, loja2, loja9] = [await storeOf(h, t.teamId, 'Loja 1'), await storeOf(h, t.teamId, 'Loja 2'), await storeOf(h, t.teamId, 'Loja 9')];
        await create(t, { type: 'PF', name: 'PF vip loja1', segment: 'vip', store_id: loja1 });
        await create(t, { type: 'PF', name: 'PF regular loja2', segment: 'regular', store_id: loja2 });
        await create(t, { type: 'PJ', name: 'PJ vip loja2', segment: 'vip', store_id: loja2 });
        await create(t, { type: 'PJ', name: 'PJ sem segmento' });
        expect((await names(t, 'type=PF')).sort()).toEqual(['PF regular loja2', 'PF vip loja1']);
        expect((await names(t, 'type=PJ')).sort()).toEqual(['PJ sem segmento', 'PJ vip loja2']);
        expect((await names(t, 'segment=vip')).sort()).toEqual(['PF vip loja1', 'PJ vip loja2']);
        expect(await names(t, 'segment=premium')).toEqual([]);
        expect((await names(t, `store_id=${loja2}`)).sort()).toEqual(['PF regular loja2', 'PJ vip loja2']);
        expect(await names(t, `store_id=${loja9}`)).toEqual([]);
        expect(await names(t, `type=PJ&segment=vip&store_id=${loja2}`)).toEqual(['PJ vip loja2']);
        const combined = await list(t, 'type=PF&segment=vip');
        expect(combined.data.map((c) => c.name)).toEqual(['PF vip loja1']);
        expect(combined.pagination).toEqual({ page: 1, limit: 20, total: 1, pages: 1 });
      });

      it('filters combine with status=inactive', async () => {
        const t = await h.team();
        const a = await create(t, { type: 'PF', name: 'PF inativo', segment: 'vip' });
        const b = await create(t, { type: 'PJ', name: 'PJ inativo', segment: 'vip' });
        await create(t, { type: 'PF', name: 'PF ativo', segment: 'vip' });
        await t.delete(`/clients/${a.id}`);
        await t.delete(`/clients/${b.id}`);
        expect(await names(t, 'status=inactive&type=PF')).toEqual(['PF inativo']);
        expect((await names(t, 'status=inactive&segment=vip')).sort()).toEqual(['PF inativo', 'PJ inativo']);
        expect(await names(t, 'type=PF&segment=vip')).toEqual(['PF ativo']);
      });

      it('invalid enum filter values: 400 VALIDATION_ERROR', async () => {
        const t = await h.team();
        expectError(await t.get('/clients?type=XX'), 400, 'VALIDATION_ERROR');
        expectError(await t.get('/clients?type=pf'), 400, 'VALIDATION_ERROR');
        expectError(await t.get('/clients?status=deleted'), 400, 'VALIDATION_ERROR', 'Status inválido');
        expectError(await t.get('/clients?status=ativo'), 400, 'VALIDATION_ERROR', 'Status inválido');
        expectError(await t.get('/clients?segment=gold'), 400, 'VALIDATION_ERROR', 'Segmento inválido');
      });

      it('a query-string type error names the parameter, not the body field', async () => {
        const t = await h.team();
        const res = await t.get('/clients?type=XX');
        expect(res.body.error.message).not.toBe("Campo 'type' é obrigatório. Use: PF ou PJ");
        expect(res.body.error.message).toMatch(/^Parâmetro 'type'/);
      });

      it('unknown query parameters are ignored', async () => {
        const t = await h.team();
        await create(t, { type: 'PF', name: 'Único' });
        expect(await names(t, 'foo=bar&is_active=false')).toEqual(['Único']);
      });
    });

    describe('pagination', () => {
      it('an empty team: total 0, pages 0, page 1, limit 20', async () => {
        const t = await h.team();
        const body = await list(t);
        expect(body.data).toEqual([]);
        expect(body.pagination).toEqual({ page: 1, limit: 20, total: 0, pages: 0 });
      });

      it('default limit 20; limit above 100 is clamped to 100; pages = ceil(total/limit)', async () => {
        const t = await h.team();
        for (let i = 0; i < 101; i += 1) await create(t, { type: 'PF', name: `Cliente ${String(i).padStart(3, '0')}` });
        const def = await list(t);
        expect(def.data).toHaveLength(20);
        expect(def.pagination).toEqual({ page: 1, limit: 20, total: 101, pages: 6 });
        const big = await list(t, 'limit=1000');
        expect(big.data).toHaveLength(100);
        expect(big.pagination).toEqual({ page: 1, limit: 100, total: 101, pages: 2 });
        const hundredOne = await list(t, 'limit=101');
        expect(hundredOne.data).toHaveLength(100);
        expect(hundredOne.pagination.limit).toBe(100);
        const last = await list(t, 'limit=100&page=2');
        expect(last.data).toHaveLength(1);
        expect(last.pagination).toEqual({ page: 2, limit: 100, total: 101, pages: 2 });
        const sixth = await list(t, 'page=6');
        expect(sixth.data).toHaveLength(1);
        expect(sixth.pagination).toEqual({ page: 6, limit: 20, total: 101, pages: 6 });
      });

      it('limit=2 paging visits every client exactly once; a page past the end is empty', async () => {
        const t = await h.team();
        const ids: string[] = [];
        for (let i = 0; i < 5; i += 1) ids.push((await create(t, { type: i % 2 ? 'PJ' : 'PF', name: `P${i}` })).id);
        const seen: string[] = [];
        for (let page = 1; page <= 3; page += 1) {
          const body = await list(t, `limit=2&page=${page}`);
          expect(body.pagination).toEqual({ page, limit: 2, total: 5, pages: 3 });
          expect(body.data).toHaveLength(page < 3 ? 2 : 1);
          seen.push(...body.data.map((c) => c.id));
        }
        expect(new Set(seen).size).toBe(5);
        expect([...seen].sort()).toEqual([...ids].sort());
        // default order is -created_at: newest first
        expect(seen).toEqual([...ids].reverse());
        const past = await list(t, 'limit=2&page=4');
        expect(past.data).toEqual([]);
        expect(past.pagination).toEqual({ page: 4, limit: 2, total: 5, pages: 3 });
        const farPast = await list(t, 'page=999999');
        expect(farPast.data).toEqual([]);
        expect(farPast.pagination.total).toBe(5);
      });

      it('limit=2 paging with each sort visits everything once (ties broken by id)', async () => {
        const t = await h.team();
        const ids: string[] = [];
        for (let i = 0; i < 7; i += 1) {
          ids.push((await create(t, { type: i % 3 ? 'PF' : 'PJ', name: i % 2 ? 'Mesmo Nome' : 'Outro Nome', segment: i % 2 ? 'vip' : null })).id);
        }
        for (const sort of ['name', '-name', 'segment', '-segment', 'type', '-type', 'status', '-status', 'created_at', '-updated_at']) {
          const seen: string[] = [];
          for (let page = 1; page <= 4; page += 1) seen.push(...(await list(t, `limit=2&page=${page}&sort=${sort}`)).data.map((c) => c.id));
          expect([...seen].sort(), sort).toEqual([...ids].sort());
        }
      });

      it('page or limit that is not a positive integer: 400', async () => {
        const t = await h.team();
        for (const v of ['0', '-1', 'abc', '1.5']) {
          expectError(await t.get(`/clients?page=${v}`), 400, 'VALIDATION_ERROR', PAGE_MSG);
          expectError(await t.get(`/clients?limit=${v}`), 400, 'VALIDATION_ERROR', LIMIT_MSG);
        }
      });
    });

    describe('sorting', () => {
      it('default is -created_at; created_at ascending reverses it', async () => {
        const t = await h.team();
        for (const name of ['Primeiro', 'Segundo', 'Terceiro']) await create(t, { type: 'PF', name });
        expect(await names(t, '')).toEqual(['Terceiro', 'Segundo', 'Primeiro']);
        expect(await names(t, 'sort=-created_at')).toEqual(['Terceiro', 'Segundo', 'Primeiro']);
        expect(await names(t, 'sort=created_at')).toEqual(['Primeiro', 'Segundo', 'Terceiro']);
      });

      it('updated_at ascending and descending', async () => {
        const t = await h.team();
        const a = await create(t, { type: 'PF', name: 'A' });
        await create(t, { type: 'PF', name: 'B' });
        await create(t, { type: 'PF', name: 'C' });
        clock.advance(1_000);
        expect((await t.put(`/clients/${a.id}`, { notes: 'tocado' })).status).toBe(200);
        expect(await names(t, 'sort=updated_at')).toEqual(['B', 'C', 'A']);
        expect(await names(t, 'sort=-updated_at')).toEqual(['A', 'C', 'B']);
      });

      it('name is accent- and case-insensitive; ties broken by id in the same direction', async () => {
        const t = await h.team();
        for (const name of ['Bruno', 'álvaro', 'carla', 'Alvaro', 'Ana', 'ÉRICA', 'Daniel']) await create(t, { type: 'PF', name });
        expect(await names(t, 'sort=name')).toEqual(['álvaro', 'Alvaro', 'Ana', 'Bruno', 'carla', 'Daniel', 'ÉRICA']);
        expect(await names(t, 'sort=-name')).toEqual(['ÉRICA', 'Daniel', 'carla', 'Bruno', 'Ana', 'Alvaro', 'álvaro']);
      });

      it('segment by value, missing segments last in both directions', async () => {
        const t = await h.team();
        for (const [name, segment] of [
          ['s-vip', 'vip'],
          ['s-none-1', null],
          ['s-regular', 'regular'],
          ['s-occasional', 'occasional'],
          ['s-none-2', null],
          ['s-premium', 'premium'],
        ] as const) {
          await create(t, { type: 'PF', name, segment });
        }
        expect(await names(t, 'sort=segment')).toEqual(['s-occasional', 's-premium', 's-regular', 's-vip', 's-none-1', 's-none-2']);
        expect(await names(t, 'sort=-segment')).toEqual(['s-vip', 's-regular', 's-premium', 's-occasional', 's-none-2', 's-none-1']);
      });

      it('type ascending and descending (ties by id)', async () => {
        const t = await h.team();
        await create(t, { type: 'PJ', name: 'J1' });
        await create(t, { type: 'PF', name: 'F1' });
        await create(t, { type: 'PJ', name: 'J2' });
        await create(t, { type: 'PF', name: 'F2' });
        expect(await names(t, 'sort=type')).toEqual(['F1', 'F2', 'J1', 'J2']);
        expect(await names(t, 'sort=-type')).toEqual(['J2', 'J1', 'F2', 'F1']);
      });

      it('status ascending and descending (ties by id)', async () => {
        const t = await h.team();
        for (const name of ['X1', 'X2', 'X3']) await create(t, { type: 'PF', name });
        expect(await names(t, 'sort=status')).toEqual(['X1', 'X2', 'X3']);
        expect(await names(t, 'sort=-status')).toEqual(['X3', 'X2', 'X1']);
        const x = (await list(t, 'sort=status')).data[0]!;
        await t.delete(`/clients/${x.id}`);
        expect(await names(t, 'status=inactive&sort=-status')).toEqual(['X1']);
      });

      it('a sort outside the allow-list: 400 naming the allowed fields', async () => {
        const t = await h.team();
        for (const sort of ['cpf', '-email', 'foo', 'name,created_at', '--name', 'NAME', 'created_at desc']) {
          const res = await t.get(`/clients?sort=${encodeURIComponent(sort)}`);
          expectError(res, 400, 'VALIDATION_ERROR');
          expect(res.body.error.message, sort).toMatch(/^Parâmetro 'sort' inválido\. Use um de: /);
          for (const f of ['created_at', 'updated_at', 'name', 'segment', 'status', 'type']) expect(res.body.error.message).toContain(f);
        }
      });
    });

    describe('search', () => {
      async function seed(t: Caller) {
        const clients: Array<Record<string, unknown>> = [
          { type: 'PF', name: 'João Silva' },
          { type: 'PF', name: 'Maria Conceicao' },
          { type: 'PF', name: 'Pedro Alves', email: 'PEDRO.Alves@Example.com' },
          { type: 'PF', name: 'Cliente CPF Pontuado', cpf: '123.456.789-09' },
          { type: 'PF', name: 'Cliente CPF Dois', cpf: '529.982.247-25' },
          { type: 'PF', name: 'Cliente CPF Cru', cpf: '11144477735' },
          { type: 'PJ', name: 'Empresa Numérica', cnpj: '11.222.333/0001-81' },
          { type: 'PJ', name: 'Empresa Alfa', cnpj: '12.ABC.345/01DE-35' },
          { type: 'PJ', name: '100% Auto' },
          { type: 'PJ', name: '1000 Motos' },
          { type: 'PJ', name: 'Auto_Center' },
          { type: 'PJ', name: 'AutoXCenter' },
        ];
        for (const c of clients) await create(t, c);
      }

      it('name: case- and accent-insensitive both ways', async () => {
        const t = await h.team();
        await seed(t);
        expect(await search(t, 'joao')).toEqual(['João Silva']);
        expect(await search(t, 'JOÃO')).toEqual(['João Silva']);
        expect(await search(t, 'João Silva')).toEqual(['João Silva']);
        expect(await search(t, 'CONCEIÇÃO')).toEqual(['Maria Conceicao']);
        expect(await search(t, 'conceicao')).toEqual(['Maria Conceicao']);
        expect(await search(t, 'numerica')).toEqual(['Empresa Numérica']);
        expect(await search(t, 'silv')).toEqual(['João Silva']);
      });

      it('a punctuated CPF/CNPJ query also finds one stored without punctuation', async () => {
        const t = await h.team();
        await seed(t);
        expect(await search(t, '111.444.777-35')).toEqual(['Cliente CPF Cru']);
        expect(await search(t, '111.444')).toEqual(['Cliente CPF Cru']);
        expect(await search(t, '12.abc.345/01de-35')).toEqual(['Empresa Alfa']);
      });

      it('e-mail, case-insensitive and partial', async () => {
        const t = await h.team();
        await seed(t);
        expect(await search(t, 'pedro.alves@example.com')).toEqual(['Pedro Alves']);
        expect(await search(t, 'EXAMPLE.COM')).toEqual(['Pedro Alves']);
      });

      it('CPF: digits-only query finds a punctuated CPF; punctuated partial finds it; raw CPF found by digits', async () => {
        const t = await h.team();
        await seed(t);
        expect(await search(t, '12345678909')).toEqual(['Cliente CPF Pontuado']);
        expect(await search(t, '123.456.789-09')).toEqual(['Cliente CPF Pontuado']);
        expect(await search(t, '529.982')).toEqual(['Cliente CPF Dois']);
        expect(await search(t, '982247')).toEqual(['Cliente CPF Dois']);
        expect(await search(t, '11144477735')).toEqual(['Cliente CPF Cru']);
        expect(await search(t, '444777')).toEqual(['Cliente CPF Cru']);
      });

      it('CNPJ: digits, punctuated, and alphanumeric in any case', async () => {
        const t = await h.team();
        await seed(t);
        expect(await search(t, '11222333000181')).toEqual(['Empresa Numérica']);
        expect(await search(t, '11.222.333')).toEqual(['Empresa Numérica']);
        expect(await search(t, '12ABC34501DE35')).toEqual(['Empresa Alfa']);
        expect(await search(t, '12abc34501de35')).toEqual(['Empresa Alfa']);
        expect(await search(t, '12abc345')).toEqual(['Empresa Alfa']);
        expect(await search(t, '12.abc.345/01de-35')).toEqual(['Empresa Alfa']);
        expect(await search(t, 'ABC.345')).toEqual(['Empresa Alfa']);
      });

      it('% and _ are literal', async () => {
        const t = await h.team();
        await seed(t);
        expect(await search(t, '100%')).toEqual(['100% Auto']);
        expect(await search(t, '%')).toEqual(['100% Auto']);
        expect(await search(t, 'Auto_C')).toEqual(['Auto_Center']);
        expect(await search(t, '_')).toEqual(['Auto_Center']);
        expect(await search(t, '\\')).toEqual([]);
      });

      it('no match: empty page with total 0 and pages 0', async () => {
        const t = await h.team();
        await seed(t);
        const body = await list(t, `search=${encodeURIComponent('inexistente xyz')}`);
        expect(body.data).toEqual([]);
        expect(body.pagination).toEqual({ page: 1, limit: 20, total: 0, pages: 0 });
      });

      it('search combines with filters, pagination and leaves out inactive clients by default', async () => {
        const t = await h.team();
        await seed(t);
        const auto = await list(t, 'search=auto&sort=name&limit=2');
        expect(auto.pagination).toEqual({ page: 1, limit: 2, total: 3, pages: 2 });
        expect(auto.data.map((c) => c.name)).toEqual(['100% Auto', 'Auto_Center']);
        expect(await search(t, 'cliente cpf')).toEqual(['Cliente CPF Cru', 'Cliente CPF Dois', 'Cliente CPF Pontuado']);
        const dois = (await list(t, 'search=529.982')).data[0]!;
        await t.delete(`/clients/${dois.id}`);
        expect(await search(t, '529.982')).toEqual([]);
        expect(await names(t, 'status=inactive&search=52998224725')).toEqual(['Cliente CPF Dois']);
        expect(await names(t, 'type=PJ&search=empresa&sort=name')).toEqual(['Empresa Alfa', 'Empresa Numérica']);
        expect(await names(t, 'type=PF&search=empresa')).toEqual([]);
      });

      it('search reflects a PUT (new name, new CPF)', async () => {
        const t = await h.team();
        const c = await create(t, { type: 'PF', name: 'Nome Antigo' });
        await t.put(`/clients/${c.id}`, { name: 'Nome Novíssimo', cpf: '935.411.347-80' });
        expect(await search(t, 'antigo')).toEqual([]);
        expect(await search(t, 'novissimo')).toEqual(['Nome Novíssimo']);
        expect(await search(t, '93541134780')).toEqual(['Nome Novíssimo']);
      });
    });
  });
}
