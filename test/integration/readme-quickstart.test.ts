import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, killAllChildren, processDb, ROOT, runCli, startServe, type ProcessDb, type ServerProcess } from '../support/cli.js';
import { DIALECTS } from '../support/dialects.js';
import { codeBlocks } from '../support/docs.js';

/**
 * Issue 23, point 5: the README's quick start, run as a newcomer runs it, on a fresh database: the
 * server (`npm start`, i.e. `autosales serve`) on a port other than 3000, then the quick start's
 * `npx autosales demo` with the same environment. What `demo` prints (the address, the counts, the
 * key, the curl command, the panel sign-in) is checked against what it created, and what the README
 * says about it (the counts, what running it again does) against what it does.
 */

const README = readFileSync(`${ROOT}/README.md`, 'utf8');
const quickStart = README.slice(README.indexOf('## Quick start'), README.indexOf('\n## ', README.indexOf('## Quick start') + 5));
const WORDS: Record<string, number> = { three: 3, four: 4, five: 5 };

beforeAll(() => {
  ensureBuilt();
}, 200_000);
afterAll(() => killAllChildren());

describe.each(DIALECTS)("the README's quick start (%s)", (dialect) => {
  let db: ProcessDb;
  let server: ServerProcess;

  beforeAll(async () => {
    db = await processDb(dialect);
    server = await startServe(db.url, { env: { SCHEDULER: 'off', WEBHOOK_WORKER: 'off' } });
  }, 60_000);
  afterAll(async () => {
    await server?.stop('SIGKILL').catch(() => undefined);
    await db?.cleanup();
  }, 30_000);

  it('its commands are the ones run here', () => {
    const commands = codeBlocks(quickStart).flatMap((b) => b.text.split('\n').map((l) => l.replace(/#.*$/, '').trim()));
    expect(commands).toEqual(expect.arrayContaining(['npm start', 'npx autosales demo']));
  });

  it('demo prints the configured address and what it created; run again, it does what the README says', async () => {
    // `npx autosales demo` with the server's PORT, as the README says.
    const first = await runCli(db.url, ['demo'], { env: { PORT: String(server.port), HOST: '127.0.0.1' } });
    expect(first.code, first.stderr).toBe(0);
    const out = first.stdout;
    const created = /Created (\d+) clients, (\d+) deals and (\d+) vehicles\./.exec(out);
    const agenda = /Also (\d+) activities and (\d+) financial records/.exec(out);
    expect(created, out).not.toBeNull();
    expect(agenda, out).not.toBeNull();
    const [clients, deals, vehicles] = created!.slice(1).map(Number);
    const [activities, records] = agenda!.slice(1).map(Number);

    // The README's counts are the printed ones.
    const claim = /three clients, (\w+) deals, (\w+) cars in\s+stock, (\w+) activities and (\w+) financial records/.exec(quickStart);
    expect(claim, quickStart).not.toBeNull();
    expect([3, ...claim!.slice(1).map((w) => WORDS[w])]).toEqual([clients, deals, vehicles, activities, records]);

    // The curl command names this server, with the printed key; it lists the deals demo created.
    const key = /API key \(shown once\): (ask_\S+)/.exec(out)?.[1];
    expect(key, out).toBeDefined();
    const curl = /^\s+curl -s (\S+) -H "Authorization: Bearer (ask_\S+)"$/m.exec(out);
    expect(curl?.[1]).toBe(`${server.url}/api/v1/deals`);
    expect(curl?.[2]).toBe(key);
    const get = async (path: string, bearer = key!) => {
      const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${bearer}` }, signal: AbortSignal.timeout(10_000) });
      return { status: res.status, body: (await res.json()) as any };
    };
    const listed = await get('/api/v1/deals');
    expect(listed.status).toBe(200);
    expect(listed.body.pagination.total).toBe(deals);
    expect((await get('/api/v1/clients')).body.pagination.total).toBe(clients);
    expect((await get('/api/v1/vehicles')).body.pagination.total).toBe(vehicles);

    // The panel at the printed address, with the printed owner.
    const panelUrl = /Panel: open (\S+) in a browser/.exec(out)?.[1];
    expect(panelUrl).toBe(`${server.url}/`);
    const email = /e-mail: (\S+)/.exec(out)?.[1];
    const password = /senha: {2}(\S+)/.exec(out)?.[1];
    const signIn = (pw: string) =>
      fetch(`${panelUrl}panel/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: pw }),
        signal: AbortSignal.timeout(10_000),
      });
    const session = await signIn(password!);
    expect(session.status).toBe(200);
    const cookie = String(session.headers.get('set-cookie')).split(';')[0]!;

    // Again: nothing new in the store, a new key (the old one still works), a new owner password (the old one and its session end).
    expect(quickStart).toMatch(/Running `demo` again creates nothing new/);
    const second = await runCli(db.url, ['demo'], { env: { PORT: String(server.port), HOST: '127.0.0.1' } });
    expect(second.code, second.stderr).toBe(0);
    const newKey = /API key \(shown once\): (ask_\S+)/.exec(second.stdout)?.[1];
    const newPassword = /senha: {2}(\S+)/.exec(second.stdout)?.[1];
    expect(newKey).not.toBe(key);
    expect((await get('/api/v1/deals', newKey)).body.pagination.total).toBe(deals);
    expect((await get('/api/v1/deals')).status).toBe(200);
    expect((await signIn(password!)).status).toBe(401);
    const old = await fetch(`${panelUrl}panel/api/session`, { headers: { cookie }, signal: AbortSignal.timeout(10_000) });
    expect(old.status).toBe(401);
    expect((await signIn(newPassword!)).status).toBe(200);
  }, 90_000);
});
