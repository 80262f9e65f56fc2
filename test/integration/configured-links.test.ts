import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/services.js';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { DIALECTS, openTestDb, type TestDb } from '../support/dialects.js';
import { createHarness, type Harness } from '../support/harness.js';
import { PASSWORD, signedIn, TEST_HASHING } from '../support/panel.js';

/**
 * Issue 23, point 2: every link the server returns (invitations, password links) is built from
 * PUBLIC_URL, or the server's own configured address when it is unset, never from the request's
 * `Host` (or `X-Forwarded-Host`, even behind TRUST_PROXY).
 */

const FORGED = { host: 'evil.test', 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'https' };
const LINK = /^(.+)\/definir-senha\/[A-Za-z0-9_-]{43}$/;

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One HTTP request with whatever headers (a forged Host included), as a browser or a script sends it. */
function send(port: number, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<RawAnswer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe.each(DIALECTS)('links from the configured address (%s)', (dialect) => {
  describe('in the app (PUBLIC_URL given), behind a trusted proxy', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await createHarness(dialect, { passwordHashing: TEST_HASHING, trustProxy: true, publicUrl: 'https://painel.loja.example.com.br' });
    });
    afterAll(() => h.close());

    it('an invitation and a new password link use PUBLIC_URL whatever Host and X-Forwarded-Host say', async () => {
      const { browser } = await signedIn(h, 'owner');
      const invited = await browser.request('POST', '/users', { email: 'convidada@loja.example.com.br', name: 'Convidada', role: 'seller' }, FORGED);
      expect(invited.status, invited.text).toBe(201);
      expect(LINK.exec(invited.body.data.set_password_url)?.[1]).toBe('https://painel.loja.example.com.br');
      const relink = await browser.request('POST', `/users/${invited.body.data.id}/password-link`, undefined, FORGED);
      expect(LINK.exec(relink.body.data.set_password_url)?.[1]).toBe('https://painel.loja.example.com.br');
    });
  });

  describe('in the server', () => {
    let testDb: TestDb;
    const servers: RunningServer[] = [];

    beforeAll(async () => {
      testDb = await openTestDb(dialect);
    });
    afterAll(async () => {
      for (const server of servers) await server.close();
      await testDb?.close();
    });

    /** A running server on its own port, an owner with a password, signed in: the session cookie and CSRF token. */
    async function serveAndSignIn(env: Record<string, string>) {
      const config = loadConfig({ DATABASE_URL: testDb.url, PORT: '0', LOG_LEVEL: 'silent', WEBHOOK_WORKER: 'off', SCHEDULER: 'off', ...env });
      const server = await startServer(config);
      servers.push(server);
      const port = Number(new URL(server.address).port);
      const { teams, users } = createServices(testDb.db, { passwordHashing: TEST_HASHING });
      const team = await teams.create({ name: `Loja links ${dialect} ${port}` });
      const email = `dono.${port}@loja.example.com.br`;
      await users.create({ teamId: team.id, email, name: 'Dono', role: 'owner', password: PASSWORD });
      const signed = await send(port, 'POST', '/panel/api/session', { host: 'evil.test' }, { email, password: PASSWORD });
      expect(signed.status).toBe(200);
      const cookie = String([signed.headers['set-cookie']].flat()[0]).split(';')[0]!;
      const auth = { ...FORGED, cookie, 'x-csrf-token': signed.body.data.csrf_token as string };
      return { port, auth };
    }

    it('without PUBLIC_URL: the address the server listens on (HOST and its real PORT), never the Host header', async () => {
      const { port, auth } = await serveAndSignIn({ HOST: '127.0.0.1' });
      const invited = await send(port, 'POST', '/panel/api/users', auth, { email: `sem-url.${port}@loja.example.com.br`, name: 'Pessoa', role: 'seller' });
      expect(invited.status).toBe(201);
      expect(LINK.exec(invited.body.data.set_password_url)?.[1]).toBe(`http://127.0.0.1:${port}`);
    });

    it('with PUBLIC_URL (and TRUST_PROXY): PUBLIC_URL', async () => {
      const { port, auth } = await serveAndSignIn({ PUBLIC_URL: 'https://painel.loja.example.com.br/', TRUST_PROXY: 'true' });
      const invited = await send(port, 'POST', '/panel/api/users', auth, { email: `com-url.${port}@loja.example.com.br`, name: 'Pessoa', role: 'seller' });
      expect(invited.status).toBe(201);
      expect(LINK.exec(invited.body.data.set_password_url)?.[1]).toBe('https://painel.loja.example.com.br');
    });
  });
});
