import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../support/clock.js';
import { DIALECTS } from '../support/dialects.js';
import { expectError } from '../support/expect.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';

let seq = 0;
const email = (who: string) => `${who}.${++seq}@example.com.br`;

for (const dialect of DIALECTS) {
  describe(`lead distribution and response time (${dialect})`, () => {
    let h: Harness;
    const clock = fakeClock('2026-11-22T12:00:00.000Z');
    beforeAll(async () => {
      h = await createHarness(dialect, { clock });
    });
    afterAll(() => h.close());

    const user = async (teamId: string, role: 'seller' | 'manager' | 'owner', takesLeads?: boolean) =>
      (await h.services.users.create({ teamId, email: email(role), name: `${role} ${seq}`, role, takesLeads })).user;
    const lead = (t: Caller, body: Record<string, unknown> = {}) => t.post('/leads', { name: 'Lead', email: email('lead'), ...body });
    const dealRow = (id: string) => h.testDb.db.kysely.selectFrom('deals').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('round-robin is fair under concurrency: ten leads at once to five sellers give two each; managers and owners take none', async () => {
      const t = await h.team();
      const sellers = await Promise.all([1, 2, 3, 4, 5].map(() => user(t.teamId, 'seller')));
      const manager = await user(t.teamId, 'manager');
      expect(manager.takes_leads).toBe(false);
      expect(sellers.every((s) => s.takes_leads)).toBe(true);
      const answers = await Promise.all(Array.from({ length: 10 }, () => lead(t)));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
      const counts = new Map<string, number>();
      for (const a of answers) counts.set(a.body.data.responsible_id, (counts.get(a.body.data.responsible_id) ?? 0) + 1);
      expect([...counts.keys()].sort()).toEqual(sellers.map((s) => s.id).sort());
      expect([...counts.values()]).toEqual([2, 2, 2, 2, 2]);
    });

    it('skips deactivated users and those who do not take leads; a manager who takes leads is in the turn', async () => {
      const t = await h.team();
      const a = await user(t.teamId, 'seller');
      const b = await user(t.teamId, 'seller');
      const off = await user(t.teamId, 'seller', false);
      const manager = await user(t.teamId, 'manager', true);
      await h.services.users.update(t.teamId, b.id, { active: false });
      const got = [];
      for (let i = 0; i < 4; i++) got.push((await lead(t)).body.data.responsible_id);
      expect(new Set(got)).toEqual(new Set([a.id, manager.id]));
      expect(got).not.toContain(off.id);
      expect(got).not.toContain(b.id);
    });

    it('fixed gives every lead to one user; none leaves them unassigned with the call still created', async () => {
      const t = await h.team();
      const owner = await user(t.teamId, 'owner');
      await user(t.teamId, 'seller');
      await h.services.leads.updateSettings(t.teamId, { distribution: 'fixed', user_id: owner.id, response_minutes: 5 });
      const fixed = await lead(t);
      expect(fixed.body.data.responsible_id).toBe(owner.id);
      const [call] = await h.testDb.db.kysely.selectFrom('activities').selectAll().where('deal_id', '=', fixed.body.data.deal.id).execute();
      expect(new Date(call!.due_at!).toISOString()).toBe('2026-11-22T12:05:00.000Z');
      await h.services.leads.updateSettings(t.teamId, { distribution: 'none' });
      const none = await lead(t);
      expect(none.body.data.responsible_id).toBeNull();
      expect(none.body.data.deal.responsible_id).toBeNull();
      expect(await h.testDb.db.kysely.selectFrom('activities').select('title').where('deal_id', '=', none.body.data.deal.id).execute()).toEqual([
        { title: 'Responder lead' },
      ]);
    });

    it('settings are checked: the mode, the fixed user, the response target', async () => {
      const t = await h.team();
      const other = await h.team();
      const stranger = await user(other.teamId, 'seller');
      const settings = h.services.leads;
      expect(await settings.settings(t.teamId)).toEqual({ distribution: 'round_robin', user_id: null, response_minutes: 15 });
      await expect(settings.updateSettings(t.teamId, { distribution: 'aleatorio' })).rejects.toThrow('Distribuição inválida: use round_robin, fixed, none');
      await expect(settings.updateSettings(t.teamId, { distribution: 'fixed' })).rejects.toThrow("A distribuição 'fixed' precisa de um usuário ativo do time");
      await expect(settings.updateSettings(t.teamId, { distribution: 'fixed', user_id: stranger.id })).rejects.toThrow(
        "A distribuição 'fixed' precisa de um usuário ativo do time",
      );
      await expect(settings.updateSettings(t.teamId, { response_minutes: 0 })).rejects.toThrow(
        'A meta de resposta deve ser um número inteiro de 1 a 1440 minutos',
      );
    });

    it('response time: stamped at the first completed activity on the deal, and never moved after', async () => {
      const t = await h.team({ scopes: ['leads:write', 'deals:write', 'deals:read'] });
      const res = await lead(t);
      const dealId = res.body.data.deal.id;
      expect((await dealRow(dealId)).lead_responded_at).toBeNull();
      clock.advance(7 * 60_000);
      const [call] = await h.testDb.db.kysely.selectFrom('activities').select('id').where('deal_id', '=', dealId).execute();
      await h.services.activities.complete(t.teamId, call!.id);
      const first = (await dealRow(dealId)).lead_responded_at;
      expect(new Date(first!).toISOString()).toBe('2026-11-22T12:07:00.000Z');
      clock.advance(60_000);
      expect((await t.put(`/deals/${dealId}`, { phase: 'qualificado' })).status).toBe(200);
      expect(new Date((await dealRow(dealId)).lead_responded_at!).toISOString()).toBe('2026-11-22T12:07:00.000Z');
    });

    it('response time: a phase change answers a lead too; a deal that is not a lead is never stamped', async () => {
      const t = await h.team({ scopes: ['leads:write', 'deals:write', 'deals:read'] });
      const dealId = (await lead(t)).body.data.deal.id;
      clock.advance(3 * 60_000);
      await t.put(`/deals/${dealId}`, { phase: 'proposta' });
      expect((await dealRow(dealId)).lead_responded_at).not.toBeNull();
      const plain = (await t.post('/deals', { title: 'Venda de balcão' })).body.data.id;
      await t.put(`/deals/${plain}`, { phase: 'proposta' });
      expect((await dealRow(plain)).lead_responded_at).toBeNull();
    });

    it('a key without leads:write is refused', async () => {
      const t = await h.team({ scopes: ['deals:write', 'clients:write'] });
      expectError(await lead(t), 403, 'FORBIDDEN');
    });
  });
}
