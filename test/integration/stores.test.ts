import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../support/clock.js';
import { DIALECTS } from '../support/dialects.js';
import { expectError } from '../support/expect.js';
import { createHarness, type Harness } from '../support/harness.js';

// Stores (issue 26, slice 1): the service, GET /stores and /stores/:id, and store_id checked on every record that has it.

const CNPJ = '11.222.333/0001-81';
const OTHER_CNPJ = '11.444.777/0001-61';

for (const dialect of DIALECTS) {
  describe(`stores (${dialect})`, () => {
    let h: Harness;
    const clock = fakeClock();
    beforeAll(async () => {
      h = await createHarness(dialect, { clock });
    });
    afterAll(() => h.close());

    it('create, update, deactivate and list through the service; CNPJ checked and unique per team', async () => {
      const t = await h.team();
      const stores = h.services.stores;
      const centro = await stores.create(t.teamId, {
        name: 'Loja Centro',
        cnpj: CNPJ,
        phone: '(11) 3456-7890',
        address: { city: 'Campinas', state: 'SP' },
      });
      expect(centro).toMatchObject({ name: 'Loja Centro', cnpj: CNPJ, status: 'active', whatsapp: null });
      expect(centro.address).toMatchObject({ city: 'Campinas', state: 'SP', street: null });
      await expect(stores.create(t.teamId, { name: 'Outra', cnpj: '11.222.333/0001-82' })).rejects.toMatchObject({ message: 'CNPJ inválido' });
      await expect(stores.create(t.teamId, { name: 'Outra', cnpj: '11222333000181' })).rejects.toMatchObject({
        code: 'DUPLICATE_ENTRY',
        message: 'CNPJ já cadastrado',
      });
      // Another team may hold the same CNPJ.
      const other = await h.team();
      await stores.create(other.teamId, { name: 'Loja de outro time', cnpj: CNPJ });

      clock.advance(1000);
      const updated = await stores.update(t.teamId, centro.id, { whatsapp: '(11) 99999-0000', address: { street: 'Av. Brasil' } });
      expect(updated.whatsapp).toBe('(11) 99999-0000');
      expect(updated.address).toMatchObject({ street: 'Av. Brasil', city: 'Campinas' });
      expect(updated.updated_at > centro.updated_at).toBe(true);
      const shopping = await stores.create(t.teamId, { name: 'Loja Shopping', cnpj: OTHER_CNPJ });
      const off = await stores.deactivate(t.teamId, shopping.id);
      expect(off.status).toBe('inactive');
      expect((await stores.deactivate(t.teamId, shopping.id)).status).toBe('inactive');
      expect((await stores.all(t.teamId)).map((s) => [s.name, s.status])).toEqual([
        ['Loja Centro', 'active'],
        ['Loja Shopping', 'inactive'],
      ]);
      await expect(stores.update(other.teamId, centro.id, { name: 'x' })).rejects.toMatchObject({ statusCode: 404, message: 'Loja não encontrada' });
    });

    it('GET /stores: every status by default, status filter, search on name and CNPJ, sort and pagination; GET /stores/:id', async () => {
      const t = await h.team();
      const a = await h.services.stores.create(t.teamId, { name: 'Auto Centro', cnpj: CNPJ });
      clock.advance(1000);
      const b = await h.services.stores.create(t.teamId, { name: 'Bela Vista Motors' });
      clock.advance(1000);
      const c = await h.services.stores.create(t.teamId, { name: 'Céu Azul Veículos', cnpj: OTHER_CNPJ });
      await h.services.stores.deactivate(t.teamId, c.id);

      const page = await t.get('/stores');
      expect(page.status).toBe(200);
      expect(page.body.data.map((s: { id: string }) => s.id)).toEqual([c.id, b.id, a.id]);
      expect(page.body.pagination).toEqual({ page: 1, limit: 20, total: 3, pages: 1 });
      expect((await t.get('/stores?status=inactive')).body.data.map((s: { id: string }) => s.id)).toEqual([c.id]);
      expect((await t.get('/stores?sort=name&limit=2')).body).toMatchObject({ data: [{ id: a.id }, { id: b.id }], pagination: { total: 3, pages: 2 } });
      expect((await t.get('/stores?sort=name&limit=2&page=2')).body.data.map((s: { id: string }) => s.id)).toEqual([c.id]);
      const found = async (q: string) => (await t.get(`/stores?search=${encodeURIComponent(q)}&sort=name`)).body.data.map((s: { name: string }) => s.name);
      expect(await found('ceu azul')).toEqual(['Céu Azul Veículos']);
      expect(await found(CNPJ)).toEqual(['Auto Centro']);
      expect(await found('11222333000181')).toEqual(['Auto Centro']);
      expect(await found('motors')).toEqual(['Bela Vista Motors']);
      expectError(await t.get('/stores?sort=cnpj'), 400, 'VALIDATION_ERROR');

      const one = await t.get(`/stores/${a.id}`);
      expect(one.status).toBe(200);
      expect(one.body.data).toMatchObject({ id: a.id, name: 'Auto Centro', cnpj: CNPJ, status: 'active' });
      expectError(await t.get(`/stores/${a.id.toUpperCase()}x`), 404, 'NOT_FOUND', 'Loja não encontrada');
      const other = await h.team();
      expectError(await other.get(`/stores/${a.id}`), 404, 'NOT_FOUND', 'Loja não encontrada');
      expect((await other.get('/stores')).body.data).toEqual([]);
    });

    it('needs stores:read, in every new key by default', async () => {
      const t = await h.team();
      expect((await h.services.keys.list(t.teamId)).every((k) => k.scopes.includes('stores:read'))).toBe(true);
      const narrow = await h.key(t.teamId, ['deals:read']);
      expectError(await narrow.get('/stores'), 403, 'FORBIDDEN');
    });

    it('store_id on deals, clients and vehicles must name an active store of the team (create and update)', async () => {
      const t = await h.team();
      const open = await h.services.stores.create(t.teamId, { name: 'Aberta' });
      const closed = await h.services.stores.create(t.teamId, { name: 'Fechada' });
      await h.services.stores.deactivate(t.teamId, closed.id);
      const foreign = await h.services.stores.create((await h.team()).teamId, { name: 'De outro time' });

      const bodies: Record<string, Record<string, unknown>> = {
        '/deals': { title: 'Negócio' },
        '/clients': { type: 'PF', name: 'Cliente' },
        '/vehicles': { title: 'Carro', brand: 'Fiat', model: 'Uno' },
      };
      for (const [path, body] of Object.entries(bodies)) {
        for (const bad of ['loja-centro', foreign.id, '0193a1f2-5b7c-7d3e-9f10-2a3b4c5d6e7f']) {
          expectError(await t.post(path, { ...body, store_id: bad }), 400, 'VALIDATION_ERROR', 'Loja não encontrada', { field: 'store_id' });
        }
        expectError(await t.post(path, { ...body, store_id: closed.id }), 400, 'VALIDATION_ERROR', 'Loja inativa', { field: 'store_id' });
        const created = await t.post(path, { ...body, store_id: open.id.toUpperCase() });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        expect(created.body.data.store_id).toBe(open.id);
        const id = created.body.data.id as string;
        expectError(await t.put(`${path}/${id}`, { store_id: 'loja-2' }), 400, 'VALIDATION_ERROR', 'Loja não encontrada', { field: 'store_id' });
        expectError(await t.put(`${path}/${id}`, { store_id: closed.id }), 400, 'VALIDATION_ERROR', 'Loja inativa', { field: 'store_id' });
        expect((await t.put(`${path}/${id}`, { store_id: null })).status).toBe(200);
        expect((await t.get(`${path}/${id}`)).body.data.store_id).toBeNull();
        const none = await t.post(path, body);
        expect(none.status).toBe(201);
        expect(none.body.data.store_id).toBeNull();
      }
      // A record of a store deactivated later keeps its store, and other edits still pass.
      const later = await h.services.stores.create(t.teamId, { name: 'Fecha depois' });
      const deal = (await t.post('/deals', { title: 'Antes', store_id: later.id })).body.data;
      await h.services.stores.deactivate(t.teamId, later.id);
      const edited = await t.put(`/deals/${deal.id}`, { title: 'Depois', store_id: later.id });
      expect(edited.status).toBe(200);
      expect((await t.get(`/deals/${deal.id}`)).body.data).toMatchObject({ title: 'Depois', store_id: later.id });
    });
  });
}
