import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../support/clock.js';
import { DIALECTS } from '../support/dialects.js';
import { expectError } from '../support/expect.js';
import { storeOf } from '../support/stores.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';

const DAY = 86_400_000;
let seq = 0;
/** A distinct e-mail per lead, so leads of one test never match each other's clients by accident. */
const email = (who = 'lead') => `${who}.${++seq}@example.com.br`;

for (const dialect of DIALECTS) {
  describe(`POST /leads (${dialect})`, () => {
    let h: Harness;
    const clock = fakeClock('2026-11-22T12:00:00.000Z');
    beforeAll(async () => {
      h = await createHarness(dialect, { clock });
    });
    afterAll(() => h.close());

    const events = async (teamId: string) =>
      (
        await h.testDb.db.kysely.selectFrom('events').select(['type', 'object']).where('team_id', '=', teamId).orderBy('created_at').orderBy('id').execute()
      ).map((e) => ({ type: e.type, object: JSON.parse(e.object) }));
    const activitiesOf = async (t: Caller, dealId: string) =>
      h.testDb.db.kysely.selectFrom('activities').selectAll().where('team_id', '=', t.teamId).where('deal_id', '=', dealId).orderBy('created_at').execute();
    const seller = async (teamId: string, name: string) =>
      (await h.services.users.create({ teamId, email: email(name.toLowerCase()), name, role: 'seller' })).user;
    const vehicle = async (t: Caller, body: Record<string, unknown> = {}) => {
      const res = await t.post('/vehicles', { title: 'Toyota Corolla XEi 2024', brand: 'Toyota', model: 'Corolla', price: 149990, ...body });
      expect(res.status, res.text).toBe(201);
      return res.body.data;
    };

    it('creates the client, the deal with its car and the "Responder lead" call, with their events (201)', async () => {
      const t = await h.team();
      const ana = await seller(t.teamId, 'Ana');
      const centro = await storeOf(h, t.teamId);
      const car = await vehicle(t, { plate: 'RIO2A18', store_id: centro });
      const res = await t.post('/leads', {
        name: 'Carlos Pereira',
        email: 'Carlos.Pereira@Example.com.br',
        mobile_phone: '(11) 98765-4321',
        message: 'Tenho interesse no Corolla.',
        source: 'webmotors',
        plate: 'rio-2a18',
        tags: ['portal'],
        trade_in: 'Onix 2019',
        wants_financing: true,
      });
      expect(res.status, res.text).toBe(201);
      const { deal, client, client_created, duplicate, responsible_id } = res.body.data;
      expect({ client_created, duplicate, responsible_id }).toEqual({ client_created: true, duplicate: false, responsible_id: ana.id });
      expect(client).toMatchObject({
        type: 'PF',
        name: 'Carlos Pereira',
        email: 'Carlos.Pereira@Example.com.br',
        mobile_phone: '(11) 98765-4321',
        source: 'webmotors',
      });
      expect(deal).toMatchObject({
        title: 'Toyota Corolla XEi 2024 — Carlos Pereira',
        value: 149990,
        phase: 'lead',
        status: 'ativo',
        case_id: car.id,
        store_id: centro,
        source: 'webmotors',
        tags: ['portal'],
        client_id: client.id,
        responsible_id: ana.id,
        description: 'Tenho interesse no Corolla.\n\nCarro na troca: Onix 2019\n\nQuer financiamento: sim',
      });
      const [call] = await activitiesOf(t, deal.id);
      expect(call).toMatchObject({
        type: 'call',
        title: 'Responder lead',
        status: 'pending',
        responsible_id: ana.id,
        client_id: client.id,
        vehicle_id: car.id,
      });
      expect(new Date(call!.due_at!).toISOString()).toBe('2026-11-22T12:15:00.000Z');
      const kinds = (await events(t.teamId)).map((e) => e.type).filter((type) => !type.startsWith('vehicle.'));
      expect(kinds).toEqual(['client.created', 'deal.created', 'activity.created']);
    });

    it('a site lead without a car: title "Lead <source> — <name>", value as sent, nobody to assign', async () => {
      const t = await h.team();
      const sul = await storeOf(h, t.teamId, 'Loja Sul');
      const res = await t.post('/leads', { name: 'Fernanda Lima', phone: '(19) 3232-4545', source: 'site', value: 80000, store_id: sul });
      expect(res.status, res.text).toBe(201);
      expect(res.body.data.deal).toMatchObject({ title: 'Lead site — Fernanda Lima', value: 80000, case_id: null, store_id: sul, responsible_id: null });
      expect(res.body.data.responsible_id).toBeNull();
      const [call] = await activitiesOf(t, res.body.data.deal.id);
      expect(call).toMatchObject({ title: 'Responder lead', responsible_id: null });
    });

    it('refuses in the envelope: no contact, a wrong CPF, a car not in stock, no name', async () => {
      const t = await h.team();
      expectError(await t.post('/leads', { name: 'Sem contato' }), 400, 'VALIDATION_ERROR', 'Informe um e-mail ou telefone', { field: 'email' });
      expectError(await t.post('/leads', { name: 'X', email: email(), cpf: '123.456.789-00' }), 400, 'VALIDATION_ERROR', 'CPF inválido', { field: 'cpf' });
      expectError(await t.post('/leads', { name: 'X', email: email(), plate: 'ABC1D23' }), 400, 'VALIDATION_ERROR', 'Veículo não encontrado', {
        field: 'plate',
      });
      const sold = await vehicle(t);
      await t.put(`/vehicles/${sold.id}`, { status: 'arquivado' });
      expectError(await t.post('/leads', { name: 'X', email: email(), vehicle_id: sold.id }), 400, 'VALIDATION_ERROR', 'Veículo não encontrado', {
        field: 'vehicle_id',
      });
      expectError(await t.post('/leads', { email: email() }), 400, 'VALIDATION_ERROR', "Campo 'name' é obrigatório", { field: 'name' });
      // Nothing was written by the refusals.
      expect(await h.testDb.db.kysely.selectFrom('clients').select('id').where('team_id', '=', t.teamId).execute()).toEqual([]);
    });

    it('matches by CPF first, then e-mail ignoring case, then any phone by its digits (without 55 or a leading 0)', async () => {
      const t = await h.team();
      const byCpf = (await t.post('/clients', { type: 'PF', name: 'Por CPF', cpf: '529.982.247-25', email: 'outro@example.com.br' })).body.data;
      const byEmail = (await t.post('/clients', { type: 'PF', name: 'Por e-mail', email: 'Maria@Example.com.br' })).body.data;
      const byPhone = (await t.post('/clients', { type: 'PF', name: 'Por telefone', whatsapp: '(21) 99888-7766' })).body.data;
      const lead = async (body: Record<string, unknown>) => (await t.post('/leads', { name: 'Lead', source: `s${++seq}`, ...body })).body.data;
      expect((await lead({ cpf: '52998224725', email: 'maria@example.com.br' })).client.id).toBe(byCpf.id);
      expect((await lead({ email: 'MARIA@example.COM.BR', whatsapp: '31998887766' })).client.id).toBe(byEmail.id);
      expect((await lead({ phone: '+55 (21) 99888-7766' })).client.id).toBe(byPhone.id);
      expect((await lead({ mobile_phone: '021 99888-7766' })).client.id).toBe(byPhone.id);
      // A client with another CPF is another person, whatever e-mail they share.
      const other = await lead({ cpf: '111.444.777-35', email: 'outro@example.com.br' });
      expect(other.client_created).toBe(true);
      expect(other.client.id).not.toBe(byCpf.id);
    });

    it('fills in the contact fields the client lacks, never overwriting one it has', async () => {
      const t = await h.team();
      const found = (await t.post('/clients', { type: 'PF', name: 'João', email: 'joao@example.com.br', phone: '(11) 3333-4444' })).body.data;
      const res = await t.post('/leads', { name: 'João Silva', email: 'joao@example.com.br', phone: '(11) 5555-6666', whatsapp: '11 97777-8888' });
      expect(res.body.data.client_created).toBe(false);
      expect(res.body.data.client).toMatchObject({ id: found.id, name: 'João', phone: '(11) 3333-4444', whatsapp: '11 97777-8888' });
      const updated = (await events(t.teamId)).filter((e) => e.type === 'client.updated');
      expect(updated.map((e) => e.object.whatsapp)).toEqual(['11 97777-8888']);
    });

    it("joins the client's recent deal for the same car as a note (200, duplicate), and opens a new one after 30 days", async () => {
      const t = await h.team();
      const car = await vehicle(t);
      const body = { name: 'Paula', email: email(), vehicle_id: car.id, source: 'olx', message: 'Primeira mensagem' };
      const first = await t.post('/leads', body);
      expect(first.status).toBe(201);
      clock.advance(29 * DAY);
      const again = await t.post('/leads', { ...body, source: 'icarros', message: 'Ainda disponível?' });
      expect(again.status, again.text).toBe(200);
      expect(again.body.data).toMatchObject({ duplicate: true, client_created: false, deal: { id: first.body.data.deal.id } });
      const notes = (await activitiesOf(t, first.body.data.deal.id)).filter((a) => a.type === 'note');
      expect(notes).toEqual([expect.objectContaining({ title: 'Nova mensagem do lead', description: 'Ainda disponível?' })]);
      clock.advance(2 * DAY);
      const later = await t.post('/leads', body);
      expect(later.status).toBe(201);
      expect(later.body.data.deal.id).not.toBe(first.body.data.deal.id);
    });

    it('without a car, the same source is a duplicate and another source opens a deal', async () => {
      const t = await h.team();
      const who = { name: 'Rita', whatsapp: `11 9${String(++seq).padStart(4, '0')}-1234` };
      expect((await t.post('/leads', { ...who, source: 'whatsapp' })).status).toBe(201);
      expect((await t.post('/leads', { ...who, source: 'whatsapp', message: 'Oi de novo' })).body.data.duplicate).toBe(true);
      expect((await t.post('/leads', { ...who, source: 'instagram' })).status).toBe(201);
    });

    it('source + external_id again answers the first result (200) and creates nothing', async () => {
      const t = await h.team();
      const body = { name: 'Pedro', email: email(), source: 'webmotors', external_id: 'WM-1' };
      const first = await t.post('/leads', body);
      expect(first.status).toBe(201);
      const again = await t.post('/leads', { ...body, message: 'reenviado pelo portal' });
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual(first.body.data);
      // Another source with the same external id is another lead.
      expect((await t.post('/leads', { ...body, source: 'olx' })).status).toBe(201);
      const deals = await h.testDb.db.kysely.selectFrom('deals').select('id').where('team_id', '=', t.teamId).execute();
      expect(deals).toHaveLength(2);
    });

    it('two copies at once give one deal, one client and one set of events', async () => {
      const t = await h.team();
      const body = { name: 'Simultâneo', email: email(), cpf: '390.533.447-05', source: 'mobiauto', external_id: 'MB-77' };
      const answers = await Promise.all([t.post('/leads', body), t.post('/leads', body), t.post('/leads', body)]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 201]);
      expect(new Set(answers.map((a) => a.body.data.deal.id)).size).toBe(1);
      const kinds = (await events(t.teamId)).map((e) => e.type);
      expect(kinds).toEqual(['client.created', 'deal.created', 'activity.created']);
    });

    it('honours Idempotency-Key like every POST', async () => {
      const t = await h.team();
      const send = () =>
        h.inject({
          method: 'POST',
          url: '/api/v1/leads',
          headers: { authorization: `Bearer ${t.key}`, 'idempotency-key': 'lead-1' },
          payload: { name: 'K', email: 'k@example.com.br' },
        });
      const first = await send();
      const again = await send();
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
    });

    it('leads:write is in every new key by default, and only it is needed', async () => {
      const created = await h.services.keys.create({ teamId: (await h.team()).teamId });
      expect(created.scopes).toContain('leads:write');
      const only = await h.team({ scopes: ['leads:write'] });
      expect((await only.post('/leads', { name: 'Só leads', email: email() })).status).toBe(201);
    });
  });
}
