import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../support/clock.js';
import { DIALECTS } from '../support/dialects.js';
import { expectError } from '../support/expect.js';
import { createHarness, type Harness } from '../support/harness.js';
import { signedIn, TEST_HASHING } from '../support/panel.js';

/**
 * Settings -> Leads through the panel's routes: the same lead service as `autosales teams settings`
 * (the same messages) and the users service's flag; managers and owners edit, sellers may not.
 */
describe.each(DIALECTS)('panel lead settings (%s)', (dialect) => {
  let h: Harness;
  const clock = fakeClock('2026-11-22T12:00:00.000Z');
  beforeAll(async () => {
    h = await createHarness(dialect, { passwordHashing: TEST_HASHING, clock });
  });
  afterAll(() => h.close());

  it('a manager reads the defaults, switches to fixed with a person, sets the target; the CLI service reads the same', async () => {
    const { browser, teamId } = await signedIn(h, 'manager');
    const seller = (await signedIn(h, 'seller', teamId)).user;
    expect((await browser.get('/leads/settings')).body.data).toEqual({ distribution: 'round_robin', user_id: null, response_minutes: 15 });
    const changed = await browser.put('/leads/settings', { distribution: 'fixed', user_id: seller.id, response_minutes: 30 });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toEqual({ distribution: 'fixed', user_id: seller.id, response_minutes: 30 });
    expect(await h.services.leads.settings(teamId)).toEqual(changed.body.data);
    // Absent fields keep their value.
    expect((await browser.put('/leads/settings', { response_minutes: 10 })).body.data).toEqual({
      distribution: 'fixed',
      user_id: seller.id,
      response_minutes: 10,
    });
    const api = await h.key(teamId);
    expect((await api.post('/leads', { name: 'Carla', phone: '(11) 98888-7777' })).body.data.responsible_id).toBe(seller.id);
    expect((await browser.put('/leads/settings', { distribution: 'none', user_id: null })).body.data).toEqual({
      distribution: 'none',
      user_id: null,
      response_minutes: 10,
    });
  });

  it('refuses with the CLI messages and changes nothing: unknown mode, fixed without a person, another team’s person, a bad target', async () => {
    const { browser, teamId } = await signedIn(h, 'owner');
    const stranger = (await signedIn(h, 'seller')).user;
    expectError(
      await browser.put('/leads/settings', { distribution: 'sorteio' }),
      400,
      'VALIDATION_ERROR',
      'Distribuição inválida: use round_robin, fixed, none',
      {
        field: 'distribution',
      },
    );
    expectError(
      await browser.put('/leads/settings', { distribution: 'fixed' }),
      400,
      'VALIDATION_ERROR',
      "A distribuição 'fixed' precisa de um usuário ativo do time",
      {
        field: 'user_id',
      },
    );
    expectError(await browser.put('/leads/settings', { distribution: 'fixed', user_id: stranger.id }), 400, 'VALIDATION_ERROR', undefined, {
      field: 'user_id',
    });
    for (const response_minutes of [0, 1441, 2.5]) {
      expectError(
        await browser.put('/leads/settings', { response_minutes }),
        400,
        'VALIDATION_ERROR',
        'A meta de resposta deve ser um número inteiro de 1 a 1440 minutos',
        { field: 'response_minutes' },
      );
    }
    expect(await h.services.leads.settings(teamId)).toEqual({ distribution: 'round_robin', user_id: null, response_minutes: 15 });
  });

  it('which people take leads: a manager turns the flag of a person on and off; the round-robin follows it', async () => {
    const { browser, teamId, user: me } = await signedIn(h, 'manager');
    const a = (await signedIn(h, 'seller', teamId)).user;
    const b = (await signedIn(h, 'seller', teamId)).user;
    const off = await browser.put(`/leads/people/${b.id}`, { takes_leads: false });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ id: b.id, takes_leads: false, role: 'seller' });
    expect((await browser.put(`/leads/people/${me.id}`, { takes_leads: true })).body.data.takes_leads).toBe(true);
    const people = (await browser.get('/users')).body.data as Array<{ id: string; takes_leads: boolean }>;
    expect(Object.fromEntries(people.map((p) => [p.id, p.takes_leads]))).toEqual({ [me.id]: true, [a.id]: true, [b.id]: false });
    const api = await h.key(teamId);
    const got = new Set<string>();
    for (let i = 0; i < 4; i++) got.add((await api.post('/leads', { name: `Lead ${i}`, email: `lead${i}.${teamId}@example.com.br` })).body.data.responsible_id);
    expect(got).toEqual(new Set([me.id, a.id]));
    expectError(await browser.put(`/leads/people/${(await signedIn(h, 'seller')).user.id}`, { takes_leads: true }), 404, 'NOT_FOUND', 'Usuário não encontrado');
    expectError(await browser.put(`/leads/people/${a.id}`, { takes_leads: 'sim' }), 400, 'VALIDATION_ERROR');
  });

  it('sellers may neither read nor change the lead settings nor the flag', async () => {
    const { browser, teamId, user } = await signedIn(h, 'seller');
    expectError(await browser.get('/leads/settings'), 403, 'FORBIDDEN');
    expectError(await browser.put('/leads/settings', { distribution: 'none' }), 403, 'FORBIDDEN');
    expectError(await browser.put(`/leads/people/${user.id}`, { takes_leads: false }), 403, 'FORBIDDEN');
    expect(await h.services.leads.settings(teamId)).toMatchObject({ distribution: 'round_robin' });
  });
});
