import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeOf } from '../support/stores.js';
import { createHarness, type Harness } from '../support/harness.js';
import { DIALECTS } from '../support/dialects.js';

/**
 * Issue 15: the GET by id that reads the auth_epoch counter (a cached authentication) selects only the
 * columns its answer is made of (DEAL_VIEW_COLUMNS, CLIENT_STATE_COLUMNS, VEHICLE_VIEW_COLUMNS), not the
 * whole row. The guarantee it touches: identical answers. A key's first request (checked in full) is
 * answered from the whole row; its later ones (cached) from the narrowed read: both bodies must be the
 * same bytes, for records with every field the answer carries filled in.
 */

const RESOURCES = ['deals', 'clients', 'vehicles'] as const;
type Resource = (typeof RESOURCES)[number];

describe.each(DIALECTS)('%s: GET by id through the counter read answers what the whole-row read answers', (dialect) => {
  let h: Harness;
  let teamId: string;
  const ids = {} as Record<Resource, string[]>;

  beforeAll(async () => {
    h = await createHarness(dialect);
    const t = await h.team();
    teamId = t.teamId;
    const centro = await storeOf(h, teamId);
    const created = async (path: string, body: Record<string, unknown>) => {
      const res = await t.post(path, body);
      expect(res.status, res.text).toBe(201);
      return res.body.data.id as string;
    };
    const pf = await created('/clients', {
      type: 'PF',
      name: 'Maria da Conceição',
      display_name: 'Maria',
      email: 'maria@example.com',
      phone: '1133334444',
      mobile_phone: '11999998888',
      whatsapp: '11999998888',
      rg: '12.345.678-9',
      birth_date: '1980-02-29',
      gender: 'feminino',
      marital_status: 'casada',
      nationality: 'brasileira',
      segment: 'premium',
      source: 'indicação',
      store_id: centro,
      address: {
        street: 'Rua das Flores',
        number: '10',
        complement: null,
        neighborhood: 'Centro',
        city: 'São Paulo',
        state: 'SP',
        zip_code: '01001000',
        country: 'BR',
      },
      notes: 'Prefere contato à tarde',
      tags: ['vip', 'financiamento'],
      credit_limit: 50000.5,
    });
    const pj = await created('/clients', {
      type: 'PJ',
      name: 'Auto Peças Ltda',
      legal_name: 'Auto Peças Ltda',
      trade_name: 'AutoPeças',
      state_registration: '123.456.789.110',
    });
    ids.clients = [pf, pj];
    ids.deals = [
      await created('/deals', {
        title: 'Corolla XEi',
        description: 'Cliente quer troca',
        value: 150000.5,
        phase: 'proposta',
        priority: 'alta',
        probability: 60,
        expected_close_date: '2026-11-22',
        client_id: pf,
        responsible_id: 'user-42',
        source: 'showroom',
        store_id: centro,
        case_id: 'case-7',
        tags: ['suv', 'financiado'],
      }),
      await created('/deals', { title: 'Sem cliente' }),
    ];
    const sold = await created('/vehicles', {
      title: 'Chevrolet Onix LT 2022',
      brand: 'Chevrolet',
      model: 'Onix',
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
      description: 'Único dono',
      features: ['ar-condicionado'],
      tags: ['destaque'],
      store_id: centro,
    });
    expect((await t.put(`/vehicles/${sold}`, { status: 'vendido' })).status).toBe(200);
    ids.vehicles = [sold, await created('/vehicles', { title: 'Fiat Uno', brand: 'Fiat', model: 'Uno' })];
  });
  afterAll(async () => {
    await h?.close();
  });

  it.each(RESOURCES)('%s: the first (full check) and a later (cached) GET by id answer the same bytes', async (resource) => {
    for (const id of ids[resource]) {
      const { key } = await h.key(teamId);
      const get = () => h.inject({ method: 'GET', url: `/api/v1/${resource}/${id}`, headers: { authorization: `Bearer ${key}` } });
      const first = await get();
      expect(first.status, first.text).toBe(200);
      // Later requests of the same key are served from the cache, through the counter read (a few, until it is warm).
      for (let i = 0; i < 5; i++) {
        const later = await get();
        expect(later.status).toBe(200);
        expect(later.text).toBe(first.text);
      }
    }
  });
});
