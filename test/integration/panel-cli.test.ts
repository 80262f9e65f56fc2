import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { ensureBuilt, killAllChildren, processDb, runCli, runCliJson, startServe, type ProcessDb, type ServerProcess } from '../support/cli.js';

/**
 * `autosales users` and the demo's panel owner, as an operator runs them, against a real
 * `autosales serve` on the same database: the printed credentials and links actually sign in,
 * across processes (the session lives in the database).
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

beforeAll(() => {
  ensureBuilt();
}, 200_000);

afterAll(() => {
  killAllChildren();
});

async function signIn(base: string, email: string, password: string) {
  const res = await fetch(`${base}/panel/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, body: (await res.json()) as any, cookie: res.headers.getSetCookie().find((c) => c.startsWith('autosales_session=')) };
}

describe.each(DIALECTS)('panel users from the CLI on %s', (dialect) => {
  let db: ProcessDb;
  let server: ServerProcess;
  let other: ServerProcess;
  let teamId: string;

  beforeAll(async () => {
    db = await processDb(dialect);
    const team = await runCliJson(db.url, ['teams', 'create', '--name', 'Loja CLI do painel', '--json']);
    teamId = team.id;
    server = await startServe(db.url);
    other = await startServe(db.url);
  }, 60_000);

  afterAll(async () => {
    await server?.stop('SIGKILL').catch(() => undefined);
    await other?.stop('SIGKILL').catch(() => undefined);
    await db?.cleanup();
  });

  it('users create --password --json: one JSON object; the user signs in, and the session works on another process', async () => {
    const user = await runCliJson(db.url, [
      'users',
      'create',
      '--team',
      teamId,
      '--email',
      'Gerente@Loja.example.com.br',
      '--name',
      'Gerente',
      '--role',
      'manager',
      '--password',
      'senha-do-gerente',
      '--json',
    ]);
    expect(user).toMatchObject({ id: expect.stringMatching(UUID), email: 'gerente@loja.example.com.br', role: 'manager', set_password_url: null });
    const signed = await signIn(server.url, 'gerente@loja.example.com.br', 'senha-do-gerente');
    expect(signed.status).toBe(200);
    const cookie = signed.cookie!.split(';')[0]!;
    const res = await fetch(`${other.url}/panel/api/session`, { headers: { cookie }, signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).data.user.role).toBe('manager');
  });

  it('users create without --password prints a one-time link that sets the password; a duplicate e-mail fails cleanly', async () => {
    const user = await runCliJson(db.url, ['users', 'create', '--team', teamId, '--email', 'vendedor@loja.example.com.br', '--name', 'Vendedor', '--json']);
    expect(user.role).toBe('seller');
    expect(user.has_password).toBe(false);
    const url = new URL(user.set_password_url as string);
    expect(url.pathname).toMatch(/^\/definir-senha\/[A-Za-z0-9_-]{43}$/);
    const token = url.pathname.split('/').pop()!;
    const set = await fetch(`${server.url}/panel/api/password-links/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'senha-do-vendedor' }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(set.status).toBe(200);
    expect((await signIn(other.url, 'vendedor@loja.example.com.br', 'senha-do-vendedor')).status).toBe(200);

    const again = await runCli(db.url, ['users', 'create', '--team', teamId, '--email', 'VENDEDOR@loja.example.com.br', '--name', 'Outro']);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/E-mail já cadastrado/);
  });

  it('users list --json lists the team', async () => {
    const list = await runCliJson<any[]>(db.url, ['users', 'list', '--team', teamId, '--json']);
    expect(list.map((u) => u.email).sort()).toEqual(['gerente@loja.example.com.br', 'vendedor@loja.example.com.br']);
  });

  it('demo creates the owner dono@loja-demo.com.br and prints how to sign in; the printed password works; a rerun sets a new one', async () => {
    const first = await runCli(db.url, ['demo'], { env: { PORT: String(server.port) } });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`open http://127.0.0.1:${server.port}/ in a browser`);
    expect(first.stdout).toContain('e-mail: dono@loja-demo.com.br');
    const password = /senha: {2}(\S+)/.exec(first.stdout)?.[1];
    expect(password, first.stdout).toBeDefined();
    const signed = await signIn(server.url, 'dono@loja-demo.com.br', password!);
    expect(signed.status).toBe(200);
    expect(signed.body.data.user.role).toBe('owner');

    const second = await runCliJson(db.url, ['demo', '--json'], { env: { PORT: String(server.port) } });
    expect(second.panel).toMatchObject({ url: `http://127.0.0.1:${server.port}/`, email: 'dono@loja-demo.com.br' });
    expect(second.panel.password).not.toBe(password);
    expect((await signIn(server.url, 'dono@loja-demo.com.br', password!)).status).toBe(401);
    expect((await signIn(server.url, 'dono@loja-demo.com.br', second.panel.password)).status).toBe(200);
  });
});
