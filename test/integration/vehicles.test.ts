import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventRow } from '../../src/storage/database.js';
import { fakeClock } from '../support/clock.js';
import { DIALECTS } from '../support/dialects.js';
import { expectError } from '../support/expect.js';
import { storeOf } from '../support/stores.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';

/** Vehicles (DECISIONS.md, Vehicles): fields, identifiers, in-stock uniqueness, board, status, lists, events, the deal link. */

const ONIX = { title: 'Chevrolet Onix LT 2022', brand: 'Chevrolet', model: 'Onix' };
const EVENT_OBJECT_KEYS = ['brand', 'created_at', 'id', 'model', 'phase', 'price', 'status', 'title'];

for (const dialect of DIALECTS) {
  describe(`vehicles (${dialect})`, () => {
    let h: Harness;
    // Stands still except one second per reading: successive writes get distinct times.
    const clock = fakeClock('2026-11-22T12:00:00.000Z', { step: 1000 });

    beforeAll(async () => {
      h = await createHarness(dialect, { clock });
    });
    afterAll(() => h.close());

    async function created(t: Caller, body: Record<string, unknown> = {}): Promise<any> {
      const res = await t.post('/vehicles', { ...ONIX, ...body });
      expect(res.status, res.text).toBe(201);
      return res.body.data;
    }

    async function events(teamId: string): Promise<EventRow[]> {
      const rows = await h.testDb.db.kysely.selectFrom('events').selectAll().where('team_id', '=', teamId).execute();
      return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    }

    /** The events a call adds: kind, data.object and previous_attributes. */
    async function eventsOf(teamId: string, op: () => Promise<unknown>) {
      const before = new Set((await events(teamId)).map((e) => e.id));
      await op();
      return (await events(teamId))
        .filter((e) => !before.has(e.id))
        .map((e) => ({
          type: e.type,
          object: JSON.parse(e.object) as Record<string, unknown>,
          previous: e.previous_attributes === null ? null : (JSON.parse(e.previous_attributes) as Record<string, unknown>),
        }));
    }

    describe('create and read', () => {
      it('POST with title, brand and model: 201 with defaults; GET and the list give the same full shape', async () => {
        const t = await h.team();
        const v = await created(t);
        expect(v).toEqual({
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          ...ONIX,
          version: null,
          plate: null,
          renavam: null,
          chassis: null,
          manufacture_year: null,
          model_year: null,
          mileage: null,
          color: null,
          fuel: null,
          transmission: null,
          body_type: null,
          doors: null,
          condition: 'usado',
          fipe_code: null,
          price: null,
          purchase_price: null,
          phase: 'entrada',
          status: 'ativo',
          sold_at: null,
          description: null,
          features: [],
          tags: [],
          store_id: null,
          created_at: expect.stringMatching(/^2026-11-22T12:\d{2}:\d{2}Z$/),
          updated_at: v.created_at,
        });
        expect((await t.get(`/vehicles/${v.id}`)).body.data).toEqual(v);
        expect((await t.get('/vehicles')).body).toEqual({ success: true, data: [v], pagination: { page: 1, limit: 20, total: 1, pages: 1 } });
      });

      it('stores every field as sent (plate, RENAVAM and chassis too)', async () => {
        const t = await h.team();
        const body = {
          ...ONIX,
          version: 'LT 1.0 Turbo',
          plate: 'bra-2e19',
          renavam: '86769597308',
          chassis: '9bgks48u0ng123456',
          manufacture_year: 2021,
          model_year: 2022,
          mileage: 38500,
          color: 'Prata',
          fuel: 'flex',
          transmission: 'automatico',
          body_type: 'hatch',
          doors: 4,
          condition: 'seminovo',
          fipe_code: '004462-5',
          price: 82900.5,
          purchase_price: 71000,
          phase: 'preparacao',
          description: 'Único dono',
          features: ['ar-condicionado'],
          tags: ['destaque'],
          store_id: await storeOf(h, t.teamId),
        };
        const v = await created(t, body);
        expect(v).toMatchObject(body);
      });

      it('title, brand and model are required', async () => {
        const t = await h.team();
        for (const field of ['title', 'brand', 'model'] as const) {
          const body: Record<string, unknown> = { ...ONIX };
          delete body[field];
          expectError(await t.post('/vehicles', body), 400, 'VALIDATION_ERROR', `Campo '${field}' é obrigatório`, { field });
        }
      });

      it('refuses bad identifiers, years, doors, FIPE codes and enums', async () => {
        const t = await h.team();
        const cases: Array<[Record<string, unknown>, string, string]> = [
          [{ plate: 'AB-1234' }, 'Placa inválida', 'plate'],
          [{ plate: 'ABC-12C4' }, 'Placa inválida', 'plate'],
          [{ renavam: '12345678901' }, 'RENAVAM inválido', 'renavam'],
          [{ renavam: '00000000000' }, 'RENAVAM inválido', 'renavam'],
          [{ renavam: '12345678' }, 'RENAVAM inválido', 'renavam'],
          [{ chassis: '9BGKS48U0NG12345' }, 'Chassi inválido', 'chassis'],
          [{ chassis: '9BGKS48U0NG1234O' }, 'Chassi inválido', 'chassis'],
          [{ chassis: '9BGIS48U0NG123456' }, 'Chassi inválido', 'chassis'],
          [{ manufacture_year: 1899 }, 'Ano de fabricação deve ser entre 1900 e 2027', 'manufacture_year'],
          [{ manufacture_year: 2028 }, 'Ano de fabricação deve ser entre 1900 e 2027', 'manufacture_year'],
          [{ manufacture_year: 2020, model_year: 2022 }, 'Ano do modelo deve ser igual ao ano de fabricação ou o seguinte', 'model_year'],
          [{ manufacture_year: 2020, model_year: 2019 }, 'Ano do modelo deve ser igual ao ano de fabricação ou o seguinte', 'model_year'],
          [{ fipe_code: '0044625' }, 'Código FIPE inválido: use o formato NNNNNN-N', 'fipe_code'],
          [{ price: 10.001 }, "Campo 'price' deve ter no máximo duas casas decimais", 'price'],
          [{ phase: 'vitrine' }, 'Fase inválida', 'phase'],
        ];
        for (const [body, message, field] of cases) {
          expectError(await t.post('/vehicles', { ...ONIX, ...body }), 400, 'VALIDATION_ERROR', message, { field });
        }
        for (const body of [{ doors: 1 }, { doors: 6 }, { mileage: -1 }, { fuel: 'alcool' }, { condition: 'velho' }, { body_type: 'barco' }]) {
          const res = await t.post('/vehicles', { ...ONIX, ...body });
          expectError(res, 400, 'VALIDATION_ERROR', undefined, { field: Object.keys(body)[0] });
        }
        expectError(await t.post('/vehicles', { ...ONIX, phase: 'vitrine' }), 400, 'VALIDATION_ERROR', 'Fase inválida', {
          field: 'phase',
          details: { allowed: ['entrada', 'preparacao', 'documentacao', 'disponivel', 'reservado'] },
        });
        expect((await t.get('/vehicles')).body.pagination.total).toBe(0);
      });

      it('accepts the RENAVAM vectors and 9-digit numbers; a model year one after manufacture', async () => {
        const t = await h.team();
        for (const renavam of ['86769597308', '35298206229', '639884962']) await created(t, { renavam });
        await created(t, { manufacture_year: 2027, model_year: 2028 });
      });

      it('new vehicles start in the first phase of the team board, which the team configures', async () => {
        const t = await h.team();
        await h.services.phases.replace(t.teamId, 'vehicles', [{ name: 'chegada' }, { name: 'vitrine' }]);
        expect((await created(t)).phase).toBe('chegada');
        expect((await created(t, { phase: 'vitrine' })).phase).toBe('vitrine');
        expectError(await t.post('/vehicles', { ...ONIX, phase: 'entrada' }), 400, 'VALIDATION_ERROR', 'Fase inválida', {
          details: { allowed: ['chegada', 'vitrine'] },
        });
      });
    });

    describe('Idempotency-Key', () => {
      it('a retried POST /vehicles answers the first answer (no duplicate, no 422 for its own plate)', async () => {
        const t = await h.team();
        const send = () =>
          h.inject({
            method: 'POST',
            url: '/api/v1/vehicles',
            headers: { authorization: `Bearer ${t.key}`, 'idempotency-key': 'estoque-onix-1' },
            payload: { ...ONIX, plate: 'IDP-1234' },
          });
        const first = await send();
        const second = await send();
        expect(first.status, first.text).toBe(201);
        expect(second.status, second.text).toBe(201);
        expect(second.body).toEqual(first.body);
        expect(second.headers['idempotent-replayed']).toBe('true');
        expect((await t.get('/vehicles')).body.pagination.total).toBe(1);
      });
    });

    describe('uniqueness among vehicles in stock', () => {
      it('ABC-1234 and ABC1C34 are the same plate; chassis and RENAVAM in canonical form too', async () => {
        const t = await h.team();
        await created(t, { plate: 'ABC-1234', chassis: '9bwzzz377vt004251', renavam: '639884962' });
        for (const plate of ['ABC1C34', 'abc 1234', 'abc-1c34']) {
          expectError(await t.post('/vehicles', { ...ONIX, plate }), 422, 'DUPLICATE_ENTRY', 'Placa já cadastrada', { field: 'plate' });
        }
        expectError(await t.post('/vehicles', { ...ONIX, chassis: '9BWZZZ377VT004251' }), 422, 'DUPLICATE_ENTRY', 'Chassi já cadastrado', { field: 'chassis' });
        expectError(await t.post('/vehicles', { ...ONIX, renavam: '00639884962' }), 422, 'DUPLICATE_ENTRY', 'RENAVAM já cadastrado', { field: 'renavam' });
        // Another team may hold the same car.
        await created(await h.team(), { plate: 'ABC1C34', chassis: '9BWZZZ377VT004251', renavam: '00639884962' });
        expect((await t.get('/vehicles')).body.pagination.total).toBe(1);
      });

      it('concurrent creates of one plate: exactly one 201', async () => {
        const t = await h.team();
        const plates = ['QRS-4321', 'QRS4D21', 'qrs4321', 'QRS 4D21', 'qrs-4d21', 'QRS4321', 'QRS4D21', 'qrs4d21'];
        const answers = await Promise.all(plates.map((plate) => t.post('/vehicles', { ...ONIX, plate })));
        expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
        for (const res of answers.filter((r) => r.status !== 201)) expectError(res, 422, 'DUPLICATE_ENTRY', 'Placa já cadastrada');
        expect((await t.get('/vehicles')).body.pagination.total).toBe(1);
      });

      it('a sold or archived car frees its plate; bringing it back while another is in stock is 422', async () => {
        const t = await h.team();
        const sold = await created(t, { plate: 'JKL-5678', chassis: '9BWZZZ377VT009999' });
        expect((await t.put(`/vehicles/${sold.id}`, { status: 'vendido' })).status).toBe(200);
        const again = await created(t, { plate: 'JKL5G78' });
        expectError(await t.put(`/vehicles/${sold.id}`, { status: 'ativo' }), 422, 'DUPLICATE_ENTRY', 'Placa já cadastrada');
        expect((await t.get(`/vehicles/${sold.id}`)).body.data.status).toBe('vendido');
        expect((await t.delete(`/vehicles/${again.id}`)).status).toBe(200);
        expect((await t.put(`/vehicles/${sold.id}`, { status: 'ativo' })).status).toBe(200);
        // A PUT giving a car in stock the plate of another car in stock.
        const other = await created(t, { plate: 'MNO-1111' });
        expectError(await t.put(`/vehicles/${other.id}`, { plate: 'JKL5678' }), 422, 'DUPLICATE_ENTRY', 'Placa já cadastrada');
        expectError(await t.put(`/vehicles/${other.id}`, { chassis: '9bwzzz377vt009999' }), 422, 'DUPLICATE_ENTRY', 'Chassi já cadastrado');
      });
    });

    describe('PUT and DELETE', () => {
      it('PUT answers id, the summary fields, the other fields that changed, and updated_at', async () => {
        const t = await h.team();
        const v = await created(t, { price: 80000, mileage: 100 });
        const res = await t.put(`/vehicles/${v.id}`, { mileage: 200, color: 'Preto', price: 80000 });
        expect(res.status, res.text).toBe(200);
        expect(res.body.data).toEqual({
          id: v.id,
          title: v.title,
          brand: v.brand,
          model: v.model,
          price: 80000,
          phase: 'entrada',
          status: 'ativo',
          mileage: 200,
          color: 'Preto',
          updated_at: expect.any(String),
        });
        expect(res.body.data.updated_at > v.updated_at).toBe(true);
        // A field sent with its stored value did not change: not in the answer.
        const same = await t.put(`/vehicles/${v.id}`, { color: 'Preto', mileage: 250 });
        expect(Object.keys(same.body.data).sort()).toEqual(['brand', 'id', 'mileage', 'model', 'phase', 'price', 'status', 'title', 'updated_at']);
        expectError(await t.put(`/vehicles/${v.id}`, {}), 400, 'VALIDATION_ERROR', 'Nenhum campo para atualizar');
        expectError(await t.put(`/vehicles/${v.id}`, { plate: 'x' }), 400, 'VALIDATION_ERROR', 'Placa inválida');
        expectError(await t.put(`/vehicles/${v.id}`, { model_year: 1800 }), 400, 'VALIDATION_ERROR', 'Ano do modelo deve ser entre 1900 e 2028');
      });

      it('vendido sets sold_at (now unless sent); leaving vendido clears it', async () => {
        const t = await h.team();
        const v = await created(t);
        const sold = await t.put(`/vehicles/${v.id}`, { status: 'vendido' });
        expect(sold.body.data.sold_at).toBe(sold.body.data.updated_at);
        const back = await t.put(`/vehicles/${v.id}`, { status: 'ativo' });
        expect(back.body.data.sold_at).toBeNull();
        const dated = await t.put(`/vehicles/${v.id}`, { status: 'vendido', sold_at: '2026-11-20T15:30:00-03:00' });
        expect(dated.body.data.sold_at).toBe('2026-11-20T18:30:00Z');
        expect((await t.get(`/vehicles/${v.id}`)).body.data.sold_at).toBe('2026-11-20T18:30:00Z');
        expectError(await t.put(`/vehicles/${v.id}`, { status: 'ativo', sold_at: '2026-11-20T15:30:00Z' }), 400, 'VALIDATION_ERROR', undefined, {
          field: 'sold_at',
        });
      });

      it('DELETE archives (archived_at), idempotently; archived vehicles leave the default list', async () => {
        const t = await h.team();
        const v = await created(t);
        const first = await t.delete(`/vehicles/${v.id}`);
        expect(first.body).toEqual({ success: true, data: { id: v.id, status: 'arquivado', archived_at: expect.any(String) } });
        const second = await t.delete(`/vehicles/${v.id}`);
        expect(second.body).toEqual(first.body);
        expect((await t.get('/vehicles')).body.pagination.total).toBe(0);
        expect((await t.get('/vehicles?status=arquivado')).body.data.map((x: { id: string }) => x.id)).toEqual([v.id]);
        expect((await t.put(`/vehicles/${v.id}`, { status: 'ativo' })).body.data.status).toBe('ativo');
        expectError(await t.get('/vehicles/not-a-uuid'), 404, 'NOT_FOUND', 'Veículo não encontrado');
      });
    });

    describe('lists', () => {
      let t: Caller;
      const ids: Record<string, string> = {};
      beforeAll(async () => {
        t = await h.team();
        const centro = await storeOf(h, t.teamId);
        const cars: Array<[string, Record<string, unknown>]> = [
          [
            'onix',
            {
              title: 'Chevrolet Onix LT',
              brand: 'Chevrolet',
              model: 'Onix',
              price: 82900,
              model_year: 2022,
              manufacture_year: 2021,
              mileage: 38500,
              fuel: 'flex',
              transmission: 'automatico',
              condition: 'seminovo',
              plate: 'BRA2E19',
              phase: 'disponivel',
              store_id: centro,
            },
          ],
          [
            'hb20',
            {
              title: 'Hyundai HB20 Comfort',
              brand: 'Hyundai',
              model: 'HB20',
              price: 69900,
              model_year: 2020,
              manufacture_year: 2020,
              mileage: 61000,
              fuel: 'flex',
              transmission: 'manual',
              condition: 'usado',
              plate: 'ABC-1234',
              phase: 'entrada',
            },
          ],
          [
            'corolla',
            {
              title: 'Toyota Corolla XEi Híbrido',
              brand: 'Toyota',
              model: 'Corolla',
              version: 'Altis Hybrid Premium',
              price: 154900,
              model_year: 2024,
              manufacture_year: 2023,
              mileage: 12000,
              fuel: 'hibrido',
              transmission: 'cvt',
              condition: 'seminovo',
              chassis: '9BRBDWHE0R0123456',
              phase: 'reservado',
            },
          ],
          [
            'compass',
            {
              title: 'Jeep Compass Longitude',
              brand: 'Jeep',
              model: 'Compass',
              price: null,
              model_year: 2023,
              manufacture_year: 2023,
              mileage: 0,
              fuel: 'diesel',
              transmission: 'automatico',
              condition: 'novo',
              phase: 'preparacao',
            },
          ],
          [
            'strada',
            {
              title: 'Fiat Strada Freedom',
              brand: 'Fiat',
              model: 'Strada',
              price: 109900,
              model_year: 2025,
              manufacture_year: 2025,
              mileage: null,
              fuel: 'flex',
              transmission: 'manual',
              condition: 'novo',
              phase: 'documentacao',
            },
          ],
        ];
        for (const [name, body] of cars) ids[name] = (await created(t, body)).id;
        await t.delete(`/vehicles/${(await created(t, { title: 'Arquivado Onix', brand: 'Chevrolet', model: 'Onix' })).id}`);
      });

      const names = async (query: string): Promise<string[]> => {
        const res = await t.get(`/vehicles?${query}`);
        expect(res.status, res.text).toBe(200);
        const byId = Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));
        return res.body.data.map((v: { id: string }) => byId[v.id] ?? v.id);
      };

      it('default order is newest first; archived left out', async () => {
        expect(await names('')).toEqual(['strada', 'compass', 'corolla', 'hb20', 'onix']);
      });

      it('filters', async () => {
        expect(await names('brand=chevrolet')).toEqual(['onix']);
        expect(await names('model=hb20')).toEqual(['hb20']);
        expect(await names('condition=novo')).toEqual(['strada', 'compass']);
        expect(await names('fuel=flex&transmission=manual')).toEqual(['strada', 'hb20']);
        expect(await names('min_price=80000&max_price=154900')).toEqual(['strada', 'corolla', 'onix']);
        expect(await names('min_year=2022&max_year=2024')).toEqual(['compass', 'corolla', 'onix']);
        expect(await names('max_mileage=12000')).toEqual(['compass', 'corolla']);
        expect(await names('phase=reservado')).toEqual(['corolla']);
        expect(await names(`store_id=${(await h.services.stores.all(t.teamId))[0]!.id}`)).toEqual(['onix']);
        expect(await names('status=arquivado')).toHaveLength(1);
        expectError(await t.get('/vehicles?fuel=alcool'), 400, 'VALIDATION_ERROR');
      });

      it('sorts: price and mileage with nulls last, phase in board order, brand, title', async () => {
        expect(await names('sort=price')).toEqual(['hb20', 'onix', 'strada', 'corolla', 'compass']);
        expect(await names('sort=-price')).toEqual(['corolla', 'strada', 'onix', 'hb20', 'compass']);
        expect(await names('sort=mileage')).toEqual(['compass', 'corolla', 'onix', 'hb20', 'strada']);
        expect(await names('sort=-model_year')).toEqual(['strada', 'corolla', 'compass', 'onix', 'hb20']);
        expect(await names('sort=phase')).toEqual(['hb20', 'compass', 'strada', 'onix', 'corolla']);
        expect(await names('sort=brand')).toEqual(['onix', 'strada', 'hb20', 'compass', 'corolla']);
        expect(await names('sort=-title')).toEqual(['corolla', 'compass', 'hb20', 'strada', 'onix']);
        expectError(await t.get('/vehicles?sort=value'), 400, 'VALIDATION_ERROR', undefined, { field: 'sort' });
      });

      it('search: title, brand, model, version, plate in any form, chassis; case and accents ignored', async () => {
        expect(await names('search=HIBRIDO')).toEqual(['corolla']);
        expect(await names('search=altis')).toEqual(['corolla']);
        expect(await names('search=hyundai')).toEqual(['hb20']);
        for (const plate of ['ABC-1234', 'abc1234', 'ABC1C34', 'abc-1c34', 'c34']) expect(await names(`search=${plate}`), plate).toEqual(['hb20']);
        for (const plate of ['BRA2E19', 'bra-2e19', 'BRA2419', 'BRA-2419']) expect(await names(`search=${plate}`), plate).toEqual(['onix']);
        expect(await names('search=9brbdwhe0r0123456')).toEqual(['corolla']);
        expect(await names('search=r0123')).toEqual(['corolla']);
        expect(await names('search=onix')).toEqual(['onix']);
        expect((await t.get('/vehicles?search=onix&status=arquivado')).body.pagination.total).toBe(1);
      });
    });

    describe('range filters on a larger stock', () => {
      it('a wide range (page read along the date index) and a narrow one (read from the range index) list the same way', async () => {
        const t = await h.team();
        const ids: string[] = [];
        for (let i = 0; i < 130; i++) {
          const v = await h.services.vehicles.create(t.teamId, { ...ONIX, manufacture_year: 2021, model_year: i % 10 === 0 ? 2021 : 2022, mileage: i });
          ids.push(v.id);
        }
        const newestFirst = [...ids].reverse();
        const wide = await t.get('/vehicles?min_year=2022&limit=100');
        expect(wide.body.pagination.total).toBe(117);
        expect(wide.body.data.map((v: { id: string }) => v.id)).toEqual(newestFirst.filter((_, j) => (129 - j) % 10 !== 0).slice(0, 100));
        const narrow = await t.get('/vehicles?max_mileage=5');
        expect(narrow.body.pagination.total).toBe(6);
        expect(narrow.body.data.map((v: { id: string }) => v.id)).toEqual(ids.slice(0, 6).reverse());
        const second = await t.get('/vehicles?min_year=2022&limit=100&page=2');
        expect(second.body.data).toHaveLength(17);
        const priced = await t.get('/vehicles?max_mileage=50&min_year=2022&sort=mileage&limit=3');
        expect(priced.body.data.map((v: { mileage: number }) => v.mileage)).toEqual([1, 2, 3]);
      });
    });

    describe('sort by phase', () => {
      it('follows the board order (as reordered), then creation time and id, both ways; filters apply', async () => {
        const t = await h.team();
        await h.services.phases.replace(t.teamId, 'vehicles', [{ name: 'vitrine' }, { name: 'entrada' }, { name: 'oficina' }]);
        const made: Array<[string, string]> = [];
        for (const phase of ['entrada', 'oficina', 'vitrine', 'entrada', 'vitrine', 'oficina']) {
          made.push([phase, (await created(t, { phase, price: made.length * 1000 })).id]);
        }
        const expected = ['vitrine', 'entrada', 'oficina'].flatMap((phase) => made.filter(([p]) => p === phase).map(([, id]) => id));
        const ids = async (query: string) => (await t.get(`/vehicles?${query}`)).body.data.map((v: { id: string }) => v.id);
        expect(await ids('sort=phase')).toEqual(expected);
        expect(await ids('sort=-phase')).toEqual([...expected].reverse());
        expect(await ids('sort=phase&limit=2&page=2')).toEqual(expected.slice(2, 4));
        expect(await ids('sort=phase&min_price=2000')).toEqual(expected.filter((id) => made.findIndex(([, m]) => m === id) >= 2));
        await t.delete(`/vehicles/${made[2]![1]}`);
        expect(await ids('sort=phase')).toEqual(expected.filter((id) => id !== made[2]![1]));
      });
    });

    describe('events', () => {
      it('created, then updated with the specific kinds in order, then removed; data.object has exactly the eight fields', async () => {
        const t = await h.team();
        let v: any;
        const onCreate = await eventsOf(t.teamId, async () => (v = await created(t, { price: 80000, mileage: 1000 })));
        const object = { id: v.id, title: v.title, brand: v.brand, model: v.model, price: 80000, phase: 'entrada', created_at: v.created_at };
        expect(onCreate).toEqual([{ type: 'vehicle.created', object: { ...object, status: 'ativo' }, previous: null }]);
        expect(Object.keys(onCreate[0]!.object).sort()).toEqual(EVENT_OBJECT_KEYS);

        const data = await eventsOf(t.teamId, () => t.put(`/vehicles/${v.id}`, { mileage: 1200, color: 'Azul' }));
        expect(data).toEqual([{ type: 'vehicle.updated', object: { ...object, status: 'ativo' }, previous: { mileage: 1000, color: null } }]);

        const all = await eventsOf(t.teamId, () => t.put(`/vehicles/${v.id}`, { phase: 'disponivel', price: 78500, status: 'vendido' }));
        const after = { ...object, phase: 'disponivel', price: 78500, status: 'vendido' };
        const previous = { phase: 'entrada', price: 80000, status: 'ativo', sold_at: null };
        expect(all).toEqual(
          ['vehicle.updated', 'vehicle.phase_changed', 'vehicle.price_changed', 'vehicle.sold'].map((type) => ({ type, object: after, previous })),
        );

        expect(await eventsOf(t.teamId, () => t.put(`/vehicles/${v.id}`, { price: 78500, mileage: 1200 }))).toEqual([]);

        const soldAt = (await t.get(`/vehicles/${v.id}`)).body.data.sold_at;
        const removed = await eventsOf(t.teamId, () => t.delete(`/vehicles/${v.id}`));
        expect(removed).toEqual([{ type: 'vehicle.removed', object: { ...after, status: 'arquivado' }, previous: { status: 'vendido', sold_at: soldAt } }]);
        expect(await eventsOf(t.teamId, () => t.delete(`/vehicles/${v.id}`))).toEqual([]);
      });

      it('a refused write emits nothing', async () => {
        const t = await h.team();
        await created(t, { plate: 'XYZ-9876' });
        expect(await eventsOf(t.teamId, () => t.post('/vehicles', { ...ONIX, plate: 'XYZ9I76' }))).toEqual([]);
      });
    });

    describe('a won deal sells its vehicle', () => {
      it('deal PUT to ganho with case_id of an in-stock vehicle: vendido in the same transaction, deal events then vehicle events', async () => {
        const t = await h.team();
        const v = await created(t, { price: 99000 });
        const deal = (await t.post('/deals', { title: 'Venda do Onix', case_id: v.id })).body.data;
        const emitted = await eventsOf(t.teamId, () => t.put(`/deals/${deal.id}`, { status: 'ganho' }));
        expect(emitted.map((e) => e.type)).toEqual(['deal.updated', 'deal.won', 'vehicle.updated', 'vehicle.sold']);
        const sold = (await t.get(`/vehicles/${v.id}`)).body.data;
        expect(sold.status).toBe('vendido');
        expect(sold.sold_at).toBe(sold.updated_at);
        expect(emitted[3]).toEqual({
          type: 'vehicle.sold',
          object: { id: v.id, title: v.title, brand: v.brand, model: v.model, price: 99000, phase: 'entrada', status: 'vendido', created_at: v.created_at },
          previous: { status: 'ativo', sold_at: null },
        });
      });

      it('nothing happens to a vehicle that is not in stock, of another team, or not named', async () => {
        const t = await h.team();
        const archived = await created(t);
        await t.delete(`/vehicles/${archived.id}`);
        const foreign = await created(await h.team());
        for (const caseId of [archived.id, foreign.id, 'PED-123']) {
          const deal = (await t.post('/deals', { title: 'Venda', case_id: caseId })).body.data;
          const emitted = await eventsOf(t.teamId, () => t.put(`/deals/${deal.id}`, { status: 'ganho' }));
          expect(emitted.map((e) => e.type)).toEqual(['deal.updated', 'deal.won']);
        }
        expect((await t.get(`/vehicles/${archived.id}`)).body.data.status).toBe('arquivado');
        // A deal already won does not sell a vehicle named later.
        const v = await created(t);
        const won = (await t.post('/deals', { title: 'Venda' })).body.data;
        await t.put(`/deals/${won.id}`, { status: 'ganho' });
        await t.put(`/deals/${won.id}`, { case_id: v.id });
        expect((await t.get(`/vehicles/${v.id}`)).body.data.status).toBe('ativo');
      });

      it('a failing deal PUT leaves the vehicle in stock', async () => {
        const t = await h.team();
        const v = await created(t);
        const deal = (await t.post('/deals', { title: 'Venda', case_id: v.id })).body.data;
        expectError(await t.put(`/deals/${deal.id}`, { status: 'ganho', phase: 'inexistente' }), 400, 'VALIDATION_ERROR', 'Fase inválida');
        expect((await t.get(`/vehicles/${v.id}`)).body.data.status).toBe('ativo');
      });
    });

    describe('scopes', () => {
      it('new keys hold the vehicle scopes by default; a key without them gets 403', async () => {
        const t = await h.team();
        const key = await h.services.keys.list(t.teamId);
        expect(key[0]!.scopes).toEqual(expect.arrayContaining(['vehicles:read', 'vehicles:write']));
        const dealsOnly = await h.key(t.teamId, ['deals:read', 'deals:write']);
        expectError(await dealsOnly.get('/vehicles'), 403, 'FORBIDDEN');
        const readOnly = await h.key(t.teamId, ['vehicles:read']);
        expect((await readOnly.get('/vehicles')).status).toBe(200);
        expectError(await readOnly.post('/vehicles', ONIX), 403, 'FORBIDDEN');
      });
    });
  });
}
