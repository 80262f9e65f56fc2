import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { expectError } from '../support/expect.js';
import { panelBrowser, signedIn, TEST_HASHING } from '../support/panel.js';
import { createWebhookRig, requestsFor, type WebhookRig } from '../support/webhooks.js';
import type { HttpsReceiver } from '../support/https-receiver.js';

/**
 * Settings through the panel's routes: the same services as the API and the CLI, so the same checks,
 * messages and events. Webhook deliveries run through the real worker against an HTTPS receiver.
 */
describe.each(DIALECTS)('panel settings (%s)', (dialect) => {
  let rig: WebhookRig;
  let receiver: HttpsReceiver;

  beforeAll(async () => {
    rig = await createWebhookRig(dialect, { passwordHashing: TEST_HASHING });
    receiver = await rig.receiver();
  });
  afterAll(async () => {
    await rig.settle();
    await rig.close();
  });

  it('team: everyone reads it; the owner renames it and sets the alert e-mail, with the API messages', async () => {
    const { browser, teamId } = await signedIn(rig.h, 'owner');
    const team = await browser.get('/team');
    expect(team.body.data).toMatchObject({ id: teamId, plan: 'professional', alert_email: null });
    const changed = await browser.put('/team', { name: 'Loja Nova', alert_email: 'alertas@loja.example.com.br' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ name: 'Loja Nova', alert_email: 'alertas@loja.example.com.br' });
    expectError(await browser.put('/team', { alert_email: 'nao-e-email' }), 400, 'VALIDATION_ERROR', 'E-mail de alerta inválido', { field: 'alert_email' });
    expectError(await browser.put('/team', { name: '   ' }), 400, 'VALIDATION_ERROR', 'O nome do time é obrigatório');
    expect((await browser.get('/session')).body.data.team.name).toBe('Loja Nova');
  });

  it('team time zone: through the same service as the financial records; an unknown zone is refused before anything changes', async () => {
    const { browser } = await signedIn(rig.h, 'owner');
    expect((await browser.get('/team')).body.data.time_zone).toBe('America/Sao_Paulo');
    const bad = await browser.put('/team', { name: 'Não muda', time_zone: 'Marte/Olympus' });
    expectError(bad, 400, 'VALIDATION_ERROR', "Fuso horário desconhecido: 'Marte/Olympus' (use um nome IANA, ex.: America/Sao_Paulo)", { field: 'time_zone' });
    expect((await browser.get('/team')).body.data.name).not.toBe('Não muda');
    const changed = await browser.put('/team', { time_zone: 'America/Manaus' });
    expect(changed.body.data.time_zone).toBe('America/Manaus');
    expect((await browser.get('/session')).body.data.team.time_zone).toBe('America/Manaus');
  });

  it('boards: managers reorder the pipeline and change probabilities; a phase in use cannot be removed (422 with why); the vehicle board too', async () => {
    const { browser, teamId } = await signedIn(rig.h, 'manager');
    const deals = (await browser.get('/boards/deals/phases')).body.data as Array<{ name: string; probability: number }>;
    expect(deals.map((p) => p.name)).toEqual(['lead', 'qualificado', 'proposta', 'negociacao', 'fechamento']);
    const reordered = await browser.put('/boards/deals/phases', {
      phases: [{ name: 'qualificado' }, { name: 'lead', probability: 5 }, { name: 'proposta' }, { name: 'negociacao' }, { name: 'fechamento' }],
    });
    expect(reordered.status).toBe(200);
    expect(reordered.body.data.slice(0, 2)).toEqual([
      { name: 'qualificado', label: 'Qualificado', position: 1, probability: 25 },
      { name: 'lead', label: 'Lead', position: 2, probability: 5 },
    ]);
    const api = await rig.h.key(teamId);
    expect((await api.post('/deals', { title: 'Hilux 2022', phase: 'proposta' })).status).toBe(201);
    expectError(
      await browser.put('/boards/deals/phases', { phases: [{ name: 'qualificado' }, { name: 'lead' }, { name: 'negociacao' }, { name: 'fechamento' }] }),
      422,
      'VALIDATION_ERROR',
      "Fase em uso não pode ser removida: 'Proposta' (1 negócio). Mova esses registros para outra fase antes de removê-la.",
    );
    expectError(await browser.put('/boards/deals/phases', { phases: [{ name: 'lead' }, { name: 'lead' }] }), 400, 'VALIDATION_ERROR', 'Fase já existe');
    const vehicles = await browser.get('/boards/vehicles/phases');
    expect(vehicles.body.data[0]).toEqual({ name: 'entrada', label: 'Entrada', position: 1 });
    const renamed = await browser.put('/boards/vehicles/phases', { phases: [{ name: 'entrada' }, { name: 'oficina' }, { name: 'disponivel' }] });
    expect(renamed.body.data.map((p: any) => p.name)).toEqual(['entrada', 'oficina', 'disponivel']);
    expectError(await browser.get('/boards/clientes/phases'), 400, 'VALIDATION_ERROR', 'Quadro inválido: use deals ou vehicles');
  });

  it('people: the owner invites (a one-time link), changes roles, deactivates; the last owner stays', async () => {
    const { browser, user: owner, teamId } = await signedIn(rig.h, 'owner');
    const invited = await browser.post('/users', { email: 'Nova.Pessoa@loja.example.com.br', name: 'Nova Pessoa', role: 'seller' });
    expect(invited.status).toBe(201);
    expect(invited.body.data).toMatchObject({ email: 'nova.pessoa@loja.example.com.br', role: 'seller', active: true, has_password: false });
    const link = new URL(invited.body.data.set_password_url as string);
    expect(link.pathname).toMatch(/^\/definir-senha\/[A-Za-z0-9_-]{43}$/);
    expectError(
      await browser.post('/users', { email: 'nova.pessoa@loja.example.com.br', name: 'Outra', role: 'seller' }),
      422,
      'DUPLICATE_ENTRY',
      'E-mail já cadastrado',
    );
    expectError(await browser.post('/users', { email: 'sem-arroba', name: 'Outra', role: 'seller' }), 400, 'VALIDATION_ERROR', 'E-mail inválido');

    const invitee = panelBrowser(rig.h);
    expect((await invitee.post(`/password-links/${link.pathname.split('/').pop()}`, { password: 'senha-da-nova-pessoa' })).status).toBe(200);

    const id = invited.body.data.id as string;
    const promoted = await browser.put(`/users/${id}`, { role: 'manager', name: 'Nova Gerente' });
    expect(promoted.body.data).toMatchObject({ role: 'manager', name: 'Nova Gerente' });
    expect((await invitee.get('/session')).body.data.user.role).toBe('manager');
    const off = await browser.put(`/users/${id}`, { active: false });
    expect(off.body.data).toMatchObject({ active: false, deactivated_at: expect.any(String) });
    expectError(await invitee.get('/session'), 401, 'UNAUTHORIZED');
    expect((await browser.put(`/users/${id}`, { active: true })).body.data.active).toBe(true);

    expectError(await browser.put(`/users/${owner.id}`, { role: 'seller' }), 422, 'VALIDATION_ERROR', 'A equipe precisa de pelo menos um dono ativo');
    expectError(await browser.put(`/users/${owner.id}`, { active: false }), 422, 'VALIDATION_ERROR', 'A equipe precisa de pelo menos um dono ativo');
    const relink = await browser.post(`/users/${id}/password-link`);
    expect(relink.body.data.set_password_url).toMatch(/\/definir-senha\//);

    const list = await browser.get('/users');
    expect(list.body.data.map((u: any) => u.email)).toEqual([owner.email, 'nova.pessoa@loja.example.com.br']);
    // Another team's person is unknown here.
    const stranger = await signedIn(rig.h, 'owner');
    expectError(await stranger.browser.put(`/users/${id}`, { name: 'x' }), 404, 'NOT_FOUND', 'Usuário não encontrado');
    expect(teamId).not.toBe(stranger.teamId);
  });

  it('two owners demoting each other at the same time: one wins, the team keeps an owner', async () => {
    const { user: a, teamId } = await signedIn(rig.h, 'owner');
    const { user: b } = await rig.h.services.users.create({
      teamId,
      email: `b${Date.now()}@loja.example.com.br`,
      name: 'B',
      role: 'owner',
      password: 'senha-forte-do-b',
    });
    const results = await Promise.allSettled([
      rig.h.services.users.update(teamId, a.id, { role: 'manager' }),
      rig.h.services.users.update(teamId, b.id, { role: 'manager' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const owners = (await rig.h.services.users.list(teamId)).filter((u) => u.role === 'owner' && u.active);
    expect(owners).toHaveLength(1);
  });

  it('API keys: created with a name and scopes (shown once), listed with last use, revoked; the key works on the API until then', async () => {
    const { browser, teamId } = await signedIn(rig.h, 'owner');
    const scopes = await browser.get('/scopes');
    expect(scopes.body.data).toContainEqual({ scope: 'deals:read', label: 'Ler negócios' });
    // Every scope has Portuguese words, never its API name.
    for (const item of scopes.body.data as Array<{ scope: string; label: string }>) expect(item.label, item.scope).not.toContain(':');
    expect(scopes.body.data).toEqual(
      expect.arrayContaining([
        { scope: 'leads:write', label: 'Enviar leads' },
        { scope: 'stores:read', label: 'Ler lojas' },
      ]),
    );
    const created = await browser.post('/keys', { name: 'Integração do site', scopes: ['deals:read'] });
    expect(created.status).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const { key, id } = created.body.data;
    expect(key).toMatch(/^ask_/);
    expectError(await browser.post('/keys', { name: 'x', scopes: ['deals:delete'] }), 400, 'VALIDATION_ERROR');

    const before = (await browser.get('/keys')).body.data.find((k: any) => k.id === id);
    expect(before).toMatchObject({ name: 'Integração do site', scopes: ['deals:read'], last_used_at: null, revoked_at: null });
    expect(before.key).toBeUndefined();
    const api = await rig.h.inject({ method: 'GET', url: '/api/v1/deals', headers: { authorization: `Bearer ${key}` } });
    expect(api.status).toBe(200);
    const after = (await browser.get('/keys')).body.data.find((k: any) => k.id === id);
    expect(after.last_used_at).toEqual(expect.any(String));

    expect((await browser.delete(`/keys/${id}`)).status).toBe(204);
    expect((await rig.h.inject({ method: 'GET', url: '/api/v1/deals', headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
    const other = await signedIn(rig.h, 'owner');
    const foreign = await rig.h.services.keys.create({ teamId, name: 'da outra loja' });
    expectError(await other.browser.delete(`/keys/${foreign.id}`), 404, 'NOT_FOUND', 'Chave de API não encontrada');
  });

  it('text the databases would change is refused as on the API: a NUL or a lone surrogate in a body is 400 naming the field', async () => {
    const { browser } = await signedIn(rig.h, 'owner');
    expectError(
      await browser.post('/users', { email: 'nul@loja.example.com.br', name: 'Nome\u0000com NUL', role: 'seller' }),
      400,
      'VALIDATION_ERROR',
      "Campo 'name' contém o caractere nulo (\\u0000), que não é aceito",
      { field: 'name' },
    );
    const lone = '{"name":"Loja \\ud800"}';
    const res = await browser.request('PUT', '/team', JSON.parse(lone));
    expectError(res, 400, 'VALIDATION_ERROR', undefined, { field: 'name' });
  });

  it('event types come grouped by area with Portuguese labels', async () => {
    const { browser } = await signedIn(rig.h, 'seller');
    const types = (await browser.get('/event-types')).body.data as any[];
    expect(types).toContainEqual({ type: 'deal.phase_changed', area: 'deal', area_label: 'Negócios', label: 'Negócio mudou de fase', emitted: true });
    expect(types.length).toBeGreaterThanOrEqual(21);
  });

  it('webhooks: create (secret once), a deal made through the API shows in the delivery log with its attempt; reveal, rotate, test, resend, recover, disable, delete', async () => {
    const { browser, teamId } = await signedIn(rig.h, 'owner');
    expectError(await browser.post('/webhooks', { url: 'http://inseguro.example.com/hook' }), 400, 'VALIDATION_ERROR', 'A URL do webhook deve usar https://');
    expectError(await browser.post('/webhooks', { url: receiver.url, events: ['deal.x'] }), 400, 'VALIDATION_ERROR', 'Tipo de evento desconhecido: deal.x');
    const created = await browser.post('/webhooks', { url: receiver.url, description: 'CRM da loja', events: ['deal.created', 'deal.updated'] });
    expect(created.status).toBe(201);
    const hook = created.body.data;
    rig.secrets.push(hook.secret);
    expect(hook).toMatchObject({
      description: 'CRM da loja',
      enabled: true,
      success_rate: null,
      last_delivery_at: null,
      secret: expect.stringMatching(/^whsec_/),
    });

    const api = await rig.h.key(teamId);
    expect((await api.post('/deals', { title: 'Fiat Pulse 2024' })).status).toBe(201);
    await rig.drain({ until: () => requestsFor(receiver, hook.id).length >= 1 });

    const log = await browser.get(`/webhooks/${hook.id}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.body.pagination).toMatchObject({ page: 1, total: 1 });
    const delivery = log.body.data[0];
    expect(delivery).toMatchObject({ event_type: 'deal.created', status: 'succeeded', attempts_count: 1 });
    expect(delivery.attempts[0]).toMatchObject({ attempt: 1, status_code: 200, duration_ms: expect.any(Number), response_body: 'ok' });

    const listed = (await browser.get('/webhooks')).body.data.find((w: any) => w.id === hook.id);
    expect(listed).toMatchObject({ success_rate: 1, last_delivery_status: 200, last_delivery_ok: true, last_delivery_at: expect.any(String) });
    expect(listed.secret).toBeUndefined();

    expect((await browser.get(`/webhooks/${hook.id}/secret`)).body.data.secret).toBe(hook.secret);
    const rotated = await browser.post(`/webhooks/${hook.id}/rotate-secret`);
    rig.secrets.push(rotated.body.data.secret);
    expect(rotated.body.data.secret).not.toBe(hook.secret);
    expect((await browser.get(`/webhooks/${hook.id}/secret`)).body.data.secret).toBe(rotated.body.data.secret);

    const test = await browser.post(`/webhooks/${hook.id}/test`);
    expect(test.status).toBe(202);
    await rig.drain({ until: () => requestsFor(receiver, hook.id).length >= 2 });
    const testBody = JSON.parse(requestsFor(receiver, hook.id)[1]!.body);
    expect(testBody).toMatchObject({ id: test.body.data.event_id, type: 'deal.created', data: { object: { title: 'Evento de teste do painel' } } });

    const resent = await browser.post(`/webhooks/${hook.id}/deliveries/${delivery.id}/resend`);
    expect(resent.status).toBe(202);
    await rig.drain({ until: () => requestsFor(receiver, hook.id).length >= 3 });
    expect(JSON.parse(requestsFor(receiver, hook.id)[2]!.body).id).toBe(delivery.event_id);
    expectError(await browser.post(`/webhooks/${hook.id}/deliveries/00000000-0000-4000-8000-000000000001/resend`), 404, 'NOT_FOUND', 'Entrega não encontrada');

    expectError(await browser.post(`/webhooks/${hook.id}/recover`, { since: 'ontem' }), 400, 'VALIDATION_ERROR');
    const recovered = await browser.post(`/webhooks/${hook.id}/recover`, { since: '2000-01-01T00:00:00Z' });
    expect(recovered.body.data).toEqual({ webhook_id: hook.id, queued: 0 });

    // A second webhook of the team: the first one's test event is never recovered to it.
    const second = (await browser.post('/webhooks', { url: receiver.url })).body.data;
    rig.secrets.push(second.secret);
    expect((await browser.post(`/webhooks/${second.id}/recover`, { since: '2000-01-01T00:00:00Z' })).body.data.queued).toBe(1);
    await rig.drain();

    const edited = await browser.put(`/webhooks/${hook.id}`, { description: 'CRM novo', events: [], enabled: false });
    expect(edited.body.data).toMatchObject({
      description: 'CRM novo',
      events: [],
      enabled: false,
      status: 'disabled',
      disabled_reason: 'desativado manualmente',
      disabled_at: expect.any(String),
    });
    expectError(await browser.post(`/webhooks/${hook.id}/test`), 422, 'VALIDATION_ERROR', 'Ative o webhook para enviar um evento de teste');
    expect((await browser.put(`/webhooks/${hook.id}`, { enabled: true })).body.data).toMatchObject({ enabled: true, disabled_reason: null, disabled_at: null });

    const stranger = await signedIn(rig.h, 'owner');
    expectError(await stranger.browser.get(`/webhooks/${hook.id}`), 404, 'NOT_FOUND', 'Webhook não encontrado');
    expectError(await stranger.browser.get(`/webhooks/${hook.id}/secret`), 404, 'NOT_FOUND', 'Webhook não encontrado');

    expect((await browser.delete(`/webhooks/${hook.id}`)).status).toBe(204);
    expectError(await browser.get(`/webhooks/${hook.id}`), 404, 'NOT_FOUND', 'Webhook não encontrado');
  });
});
