import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createServices, type Services } from '../../src/app/services.js';
import { DIALECTS, openTestDb, type TestDb } from '../support/dialects.js';
import { captureLogs, type CapturedLogs } from '../support/observability.js';
import { TEST_HASHING } from '../support/panel.js';

/** Session ids, passwords, one-time link and CSRF tokens never reach a log line, even at trace level. */
describe.each(DIALECTS)('panel secrets stay out of the logs (%s)', (dialect) => {
  let testDb: TestDb;
  let services: Services;
  let app: FastifyInstance;
  let logs: CapturedLogs;

  beforeAll(async () => {
    testDb = await openTestDb(dialect);
    services = createServices(testDb.db, { passwordHashing: TEST_HASHING });
    logs = captureLogs('trace');
    app = await buildApp({ db: testDb.db, services, logger: logs.logger });
  });
  afterAll(async () => {
    await app.close();
    await testDb.close();
  });

  it('a sign-in, a wrong one, a session read, a password change and a link leave no secret in the logs', async () => {
    const team = await services.teams.create({ name: 'Loja dos logs' });
    const password = 'senha-que-nao-vaza-1';
    const { user } = await services.users.create({ teamId: team.id, email: 'logs@loja.example.com.br', name: 'Logs', role: 'owner', password });
    const invited = await services.users.create({ teamId: team.id, email: 'convite.logs@loja.example.com.br', name: 'Convite', role: 'seller' });

    const json = { 'content-type': 'application/json' };
    await app.inject({ method: 'POST', url: '/panel/api/session', headers: json, payload: { email: user.email, password: 'senha-errada-nao-vaza' } });
    const signIn = await app.inject({ method: 'POST', url: '/panel/api/session', headers: json, payload: { email: user.email, password } });
    expect(signIn.statusCode).toBe(200);
    const token = /autosales_session=([^;]+)/.exec(String(signIn.headers['set-cookie']))![1]!;
    const csrf = signIn.json().data.csrf_token as string;
    const cookie = `autosales_session=${token}`;
    await app.inject({ method: 'GET', url: '/panel/api/session', headers: { cookie } });
    const changed = await app.inject({
      method: 'PUT',
      url: '/panel/api/me/password',
      headers: { ...json, cookie, 'x-csrf-token': csrf },
      payload: { current_password: password, new_password: 'nova-senha-nao-vaza-2' },
    });
    expect(changed.statusCode).toBe(204);
    await app.inject({ method: 'PUT', url: '/panel/api/me/password', headers: { ...json, cookie, 'x-csrf-token': 'token-forjado-xyz' }, payload: {} });
    const link = invited.link!.token;
    await app.inject({ method: 'GET', url: `/panel/api/password-links/${link}` });
    await app.inject({ method: 'POST', url: `/panel/api/password-links/${link}`, headers: json, payload: { password: 'senha-do-convite-nao-vaza' } });

    const text = logs.text();
    expect(text.length).toBeGreaterThan(0);
    for (const secret of [password, 'senha-errada-nao-vaza', 'nova-senha-nao-vaza-2', 'senha-do-convite-nao-vaza', token, csrf, 'token-forjado-xyz', link]) {
      expect(text, `a log line holds ${secret.slice(0, 6)}…`).not.toContain(secret);
    }
  });

  it('the redaction list covers objects logged with these names', () => {
    const captured = captureLogs('info');
    captured.logger.info(
      { password: 'p-1', token: 't-1', csrf_token: 'c-1', body: { password: 'p-2', current_password: 'p-3', new_password: 'p-4', token: 't-2' } },
      'x',
    );
    for (const secret of ['p-1', 't-1', 'c-1', 'p-2', 'p-3', 'p-4', 't-2']) expect(captured.text()).not.toContain(`"${secret}"`);
  });
});
