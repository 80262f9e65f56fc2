import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import { DIALECTS } from '../support/dialects.js';
import { expectError } from '../support/expect.js';
import { fakeClock } from '../support/clock.js';
import { panelBrowser, PASSWORD, signedIn, TEST_HASHING } from '../support/panel.js';
import { createSignInLimiter } from '../../src/domain/ratelimit/sign-in-limiter.js';
import { DEFAULT_SESSION_SETTINGS } from '../../src/domain/sessions/sessions.types.js';

const INVALID = 'E-mail ou senha inválidos.';
const SESSION_GONE = 'Sessão ausente ou expirada. Entre novamente.';
const CSRF = 'Token CSRF ausente ou inválido. Recarregue a página e tente de novo.';

describe.each(DIALECTS)('panel sessions (%s)', (dialect) => {
  let h: Harness;
  const clock = fakeClock('2026-11-24T12:00:00.000Z');

  beforeAll(async () => {
    h = await createHarness(dialect, {
      clock,
      passwordHashing: TEST_HASHING,
      signInLimiter: createSignInLimiter({
        keyPrefix: `t${Math.random()}`,
        limits: { perAddress: 1000, perPair: 3, perEmail: 6, passwordPerSession: 2, passwordPerUser: 3, windowSeconds: 900 },
      }),
    });
  });
  afterAll(() => h.close());

  it('signs in with a cookie (HttpOnly, SameSite=Lax, Path=/) and answers user, team and a CSRF token', async () => {
    const { user, teamId } = await signedIn(h, 'manager');
    const browser = panelBrowser(h);
    const res = await browser.signIn(user.email);
    expect(res.status).toBe(200);
    expect(res.body.data.user).toEqual({ id: user.id, email: user.email, name: user.name, role: 'manager' });
    expect(res.body.data.team).toMatchObject({ id: teamId, plan: 'professional' });
    expect(res.body.data.csrf_token).toEqual(expect.any(String));
    const cookie = String([res.headers['set-cookie']].flat().find((c) => String(c).startsWith('autosales_session=')));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/);
    expect(res.headers['cache-control']).toBe('no-store');

    const again = await browser.get('/session');
    expect(again.status).toBe(200);
    expect(again.body.data.user.id).toBe(user.id);
  });

  it('the session lives in the database: only a hash of the token is stored', async () => {
    const { browser, user } = await signedIn(h);
    const rows = await h.testDb.db.kysely.selectFrom('sessions').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toContain(browser.cookie);
    expect(JSON.stringify(rows)).not.toContain(browser.cookie);
  });

  it('the same message for an unknown e-mail, a wrong password and a deactivated user', async () => {
    const { user, teamId } = await signedIn(h);
    const browser = panelBrowser(h);
    expectError(await browser.signIn('ninguem@loja.example.com.br'), 401, 'UNAUTHORIZED', INVALID);
    expectError(await browser.signIn(user.email, 'senha-errada-123'), 401, 'UNAUTHORIZED', INVALID);
    const other = await h.services.users.create({
      teamId,
      email: `inativo${Math.random()}@loja.example.com.br`,
      name: 'Inativo',
      role: 'seller',
      password: PASSWORD,
    });
    await h.services.users.update(teamId, other.user.id, { active: false });
    expectError(await browser.signIn(other.user.email), 401, 'UNAUTHORIZED', INVALID);
    expect(browser.cookie).toBeNull();
  });

  it('e-mail is case-insensitive', async () => {
    const { user } = await signedIn(h);
    expect((await panelBrowser(h).signIn(user.email.toUpperCase())).status).toBe(200);
  });

  it('without a session: 401; with a bad cookie: 401', async () => {
    const browser = panelBrowser(h);
    expectError(await browser.get('/session'), 401, 'UNAUTHORIZED', SESSION_GONE);
    browser.cookie = 'x'.repeat(43);
    expectError(await browser.get('/session'), 401, 'UNAUTHORIZED', SESSION_GONE);
  });

  it('sign-out ends the session in the database and clears the cookie; it needs the CSRF token', async () => {
    const { browser } = await signedIn(h);
    const cookie = browser.cookie;
    expectError(await browser.request('DELETE', '/session', undefined, { 'x-csrf-token': 'forjado' }), 403, 'CSRF_INVALID', CSRF);
    const out = await browser.delete('/session');
    expect(out.status).toBe(204);
    expect(browser.cookie).toBeNull();
    browser.cookie = cookie;
    expectError(await browser.get('/session'), 401, 'UNAUTHORIZED', SESSION_GONE);
  });

  it('CSRF: a state-changing request without the header, or with a token of another session, is refused', async () => {
    const a = await signedIn(h);
    const b = await signedIn(h);
    const body = { current_password: PASSWORD, new_password: 'outra-senha-forte' };
    expectError(await a.browser.request('PUT', '/me/password', body, { 'x-csrf-token': '' }), 403, 'CSRF_INVALID', CSRF);
    expectError(await a.browser.request('PUT', '/me/password', body, { 'x-csrf-token': b.browser.csrf! }), 403, 'CSRF_INVALID', CSRF);
    // Every token of GET /session is good for the session.
    const fresh = (await a.browser.get('/session')).body.data.csrf_token as string;
    expect((await a.browser.request('PUT', '/me/password', body, { 'x-csrf-token': fresh })).status).toBe(204);
  });

  it('idle expiry: a session unused for the idle time ends; use keeps it alive', async () => {
    const { browser } = await signedIn(h);
    clock.advance(DEFAULT_SESSION_SETTINGS.idleMs - 60_000);
    expect((await browser.get('/session')).status).toBe(200);
    clock.advance(DEFAULT_SESSION_SETTINGS.idleMs - 60_000);
    expect((await browser.get('/session')).status).toBe(200);
    clock.advance(DEFAULT_SESSION_SETTINGS.idleMs);
    expectError(await browser.get('/session'), 401, 'UNAUTHORIZED', SESSION_GONE);
  });

  it('absolute expiry: a busy session still ends after its lifetime', async () => {
    const { browser } = await signedIn(h);
    const step = DEFAULT_SESSION_SETTINGS.idleMs / 2;
    let elapsed = 0;
    while (elapsed + step < DEFAULT_SESSION_SETTINGS.absoluteMs) {
      clock.advance(step);
      elapsed += step;
      expect((await browser.get('/session')).status).toBe(200);
    }
    clock.advance(step);
    expectError(await browser.get('/session'), 401, 'UNAUTHORIZED', SESSION_GONE);
  });

  it('expired sessions are deleted in bulk by purgeExpired (the server runs it hourly)', async () => {
    const { user } = await signedIn(h);
    const count = async () => (await h.testDb.db.kysely.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).length;
    expect(await count()).toBe(1);
    await h.services.sessions.purgeExpired();
    expect(await count()).toBe(1);
    clock.advance(DEFAULT_SESSION_SETTINGS.idleMs + 1);
    await h.services.sessions.purgeExpired();
    expect(await count()).toBe(0);
  });

  it('a password change ends the other sessions, keeps this one, and the new password works', async () => {
    const { browser, email } = await signedIn(h);
    const other = panelBrowser(h);
    await other.signIn(email);
    expectError(
      await browser.put('/me/password', { current_password: 'errada-mesmo', new_password: 'nova-senha-segura' }),
      400,
      'VALIDATION_ERROR',
      'A senha atual não confere',
    );
    expectError(
      await browser.put('/me/password', { current_password: PASSWORD, new_password: 'curta' }),
      400,
      'VALIDATION_ERROR',
      'A senha deve ter pelo menos 10 caracteres',
    );
    expect((await browser.put('/me/password', { current_password: PASSWORD, new_password: 'nova-senha-segura' })).status).toBe(204);
    expect((await browser.get('/session')).status).toBe(200);
    expectError(await other.get('/session'), 401, 'UNAUTHORIZED', SESSION_GONE);
    expectError(await panelBrowser(h).signIn(email), 401, 'UNAUTHORIZED', INVALID);
    expect((await panelBrowser(h).signIn(email, 'nova-senha-segura')).status).toBe(200);
  });

  it('deactivating a user ends their sessions at once', async () => {
    const { browser, user, teamId } = await signedIn(h, 'seller');
    await h.services.users.create({ teamId, email: `dono${Math.random()}@loja.example.com.br`, name: 'Dono', role: 'owner', password: PASSWORD });
    await h.services.users.update(teamId, user.id, { active: false });
    expectError(await browser.get('/session'), 401, 'UNAUTHORIZED', SESSION_GONE);
  });

  it('a one-time password link: who it is for, sets the password and signs in, works once, expires', async () => {
    const team = await h.services.teams.create({ name: 'Loja do link' });
    const created = await h.services.users.create({ teamId: team.id, email: `convite${Math.random()}@loja.example.com.br`, name: 'Convidada', role: 'seller' });
    expect(created.user.has_password).toBe(false);
    const token = created.link!.token;
    const browser = panelBrowser(h);
    expect((await browser.get(`/password-links/${token}`)).body.data).toEqual({ email: created.user.email, name: 'Convidada' });
    expectError(await browser.post(`/password-links/${token}`, { password: 'curta' }), 400, 'VALIDATION_ERROR', 'A senha deve ter pelo menos 10 caracteres');
    const res = await browser.post(`/password-links/${token}`, { password: 'minha-senha-nova' });
    expect(res.status).toBe(200);
    expect(res.body.data.user.email).toBe(created.user.email);
    expect((await browser.get('/session')).status).toBe(200);
    const LINK = 'Link inválido ou expirado. Peça um novo link a quem administra a equipe.';
    expectError(await browser.get(`/password-links/${token}`), 404, 'NOT_FOUND', LINK);
    expectError(await panelBrowser(h).post(`/password-links/${token}`, { password: 'outra-senha-nova' }), 404, 'NOT_FOUND', LINK);

    const later = await h.services.users.passwordLink(team.id, created.user.id);
    clock.advance(73 * 3_600_000);
    expectError(await panelBrowser(h).get(`/password-links/${later.token}`), 404, 'NOT_FOUND', LINK);
  });

  it('sign-in failures are throttled per (e-mail, address), with Retry-After; a success from that address clears its count', async () => {
    const { email } = await signedIn(h);
    const browser = panelBrowser(h, '10.1.1.1');
    for (let i = 0; i < 2; i++) expectError(await browser.signIn(email, 'senha-errada-xx'), 401, 'UNAUTHORIZED', INVALID);
    expect((await browser.signIn(email)).status).toBe(200);
    for (let i = 0; i < 3; i++) expectError(await browser.signIn(email, 'senha-errada-xx'), 401, 'UNAUTHORIZED', INVALID);
    const refused = await browser.signIn(email);
    expectError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers.ratelimit).toMatch(/^"signin-pair"/);
    // Another address is not this pair: the owner signs in.
    expect((await panelBrowser(h, '10.1.1.9').signIn(email)).status).toBe(200);
  });

  it('whoever knows an e-mail cannot lock its owner out: over the e-mail budget, only addresses that failed for it wait', async () => {
    const { email } = await signedIn(h);
    // Two attacking addresses spend the e-mail's budget (6 failures; 3 per pair).
    for (const ip of ['10.6.6.1', '10.6.6.2']) {
      const attacker = panelBrowser(h, ip);
      for (let i = 0; i < 3; i++) expectError(await attacker.signIn(email, `chute-${ip}-${i}`), 401, 'UNAUTHORIZED', INVALID);
      expectError(await attacker.signIn(email, 'mais-um-chute'), 429, 'RATE_LIMIT_EXCEEDED');
    }
    // A third address gets one guess; having failed for the e-mail, it then waits for the e-mail's window.
    const third = panelBrowser(h, '10.6.6.3');
    expectError(await third.signIn(email, 'chute-do-terceiro'), 401, 'UNAUTHORIZED', INVALID);
    const waiting = await third.signIn(email);
    expectError(waiting, 429, 'RATE_LIMIT_EXCEEDED');
    expect(waiting.headers.ratelimit).toMatch(/^"signin-email"/);
    // The owner, from an address with no recent failure for the e-mail, signs in with the right password.
    expect((await panelBrowser(h, '10.6.6.9').signIn(email)).status).toBe(200);
    expect((await panelBrowser(h, '10.6.6.10').signIn(email)).status).toBe(200);
  });

  it('the current password of a password change is checked at most 2 times per session and 3 per user (429 with Retry-After, nothing hashed)', async () => {
    const { browser, email } = await signedIn(h);
    const other = panelBrowser(h);
    expect((await other.signIn(email)).status).toBe(200);
    const guess = (b: typeof browser, current: string) => b.put('/me/password', { current_password: current, new_password: 'nova-senha-do-invasor' });
    for (let i = 0; i < 2; i++) expectError(await guess(browser, `chute-${i}-errado`), 400, 'VALIDATION_ERROR', 'A senha atual não confere');
    // This session is out of guesses, even with the right password; the new one is not set.
    const perSession = await guess(browser, PASSWORD);
    expectError(perSession, 429, 'RATE_LIMIT_EXCEEDED');
    expect(Number(perSession.headers['retry-after'])).toBeGreaterThan(0);
    expect(perSession.headers.ratelimit).toMatch(/^"password-session"/);
    // Another session of the same user: one more wrong guess fills the user's budget.
    expectError(await guess(other, 'chute-da-outra-sessao'), 400, 'VALIDATION_ERROR', 'A senha atual não confere');
    const perUser = await guess(other, PASSWORD);
    expectError(perUser, 429, 'RATE_LIMIT_EXCEEDED');
    expect(perUser.headers.ratelimit).toMatch(/^"password-user"/);
    expect((await panelBrowser(h).signIn(email)).status).toBe(200); // the password is unchanged
    expectError(await panelBrowser(h).signIn(email, 'nova-senha-do-invasor'), 401, 'UNAUTHORIZED', INVALID);
    // A too-short new password is not a guess: it does not count.
    const { browser: fresh } = await signedIn(h);
    for (let i = 0; i < 3; i++) expectError(await fresh.put('/me/password', { current_password: PASSWORD, new_password: 'curta' }), 400, 'VALIDATION_ERROR');
    expect((await fresh.put('/me/password', { current_password: PASSWORD, new_password: 'nova-senha-segura' })).status).toBe(204);
  });
});

describe.each(DIALECTS)('panel sign-in throttling per address (%s)', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(dialect, {
      passwordHashing: TEST_HASHING,
      signInLimiter: createSignInLimiter({ keyPrefix: `a${Math.random()}`, limits: { perAddress: 3 } }),
    });
  });
  afterAll(() => h.close());

  it('an address over its budget gets 429 even with the right password; another address does not', async () => {
    const { email } = await signedIn(h);
    const browser = panelBrowser(h, '10.2.2.2');
    for (let i = 0; i < 3; i++) await browser.signIn(`x${i}@loja.example.com.br`, 'qualquer-senha');
    expectError(await browser.signIn(email), 429, 'RATE_LIMIT_EXCEEDED');
    expect((await panelBrowser(h, '10.3.3.3').signIn(email)).status).toBe(200);
  });
});

describe.each(DIALECTS)('panel cookie behind HTTPS (%s)', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(dialect, { passwordHashing: TEST_HASHING, trustProxy: true });
  });
  afterAll(() => h.close());

  it('is Secure when the request came over HTTPS (X-Forwarded-Proto behind TRUST_PROXY), and not otherwise', async () => {
    const { email } = await signedIn(h);
    const browser = panelBrowser(h);
    const https = await browser.request('POST', '/session', { email, password: PASSWORD }, { 'x-forwarded-proto': 'https' });
    expect(https.status).toBe(200);
    expect(String([https.headers['set-cookie']].flat().find((c) => String(c).startsWith('autosales_session=')))).toMatch(/; Secure/);
    const http = await panelBrowser(h).request('POST', '/session', { email, password: PASSWORD });
    expect(String([http.headers['set-cookie']].flat().find((c) => String(c).startsWith('autosales_session=')))).not.toMatch(/Secure/);
  });
});
