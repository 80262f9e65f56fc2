import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import {
  api,
  ensureBuilt,
  killAllChildren,
  processDb,
  runCli,
  runCliJson,
  startServe,
  type CliResult,
  type ProcessDb,
  type ServerProcess,
} from '../support/cli.js';

/**
 * The admin CLI as an operator runs it: `node bin/autosales.js …` against the built dist/, one
 * child process per command, on a fresh SQLite file and (when TEST_DATABASE_URL is set) PostgreSQL.
 * A real `autosales serve` on the same database checks that what the CLI creates actually works.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const KEY = /^ask_[A-Za-z0-9_-]{43,}$/;
const ALL_SCOPES = ['clients:read', 'clients:write', 'deals:read', 'deals:write', 'leads:write', 'stores:read', 'vehicles:read', 'vehicles:write'];
const UNKNOWN_ID = '0190a000-0000-7000-8000-000000000000';
const STACK_FRAME = /^\s+at .+[:(]/m;

beforeAll(() => {
  ensureBuilt();
}, 200_000);

afterAll(() => {
  killAllChildren();
});

/** A failed command: non-zero exit (not a kill), nothing on stdout, a message on stderr, no stack trace. */
function expectCleanFailure(result: CliResult, message: RegExp): void {
  const context = `stdout: ${result.stdout}\nstderr: ${result.stderr}`;
  expect(result.signal, context).toBeNull();
  expect(result.code, context).not.toBe(0);
  expect(result.stdout, context).toBe('');
  expect(result.stderr, context).toMatch(message);
  expect(result.stderr, context).not.toMatch(STACK_FRAME);
}

describe.each(DIALECTS)('autosales CLI on %s', (dialect) => {
  let db: ProcessDb;
  let server: ServerProcess | undefined;
  const tag = `${dialect} ${Date.now().toString(36)}`;

  // Filled in as the commands run (the tests below are a sequence, as an operator would type them).
  let team: any;
  let proTeam: any;
  let fullKey: any;
  let scopedKey: any;
  let firstDemo: { teamId: string; key: string } | undefined;
  let secondDemo: any;

  /** One `autosales serve` on this database, started on first use (after `migrate` ran on the fresh file). */
  async function serve(): Promise<ServerProcess> {
    server ??= await startServe(db.url);
    return server;
  }

  beforeAll(async () => {
    db = await processDb(dialect);
  });

  afterAll(async () => {
    await server?.stop('SIGKILL').catch(() => undefined);
    await db?.cleanup();
  });

  it('migrate applies the migrations to a brand-new database and exits 0, and is idempotent', async () => {
    const first = await runCli(db.url, ['migrate']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(/^Applied: 0001-initial/);
    if (dialect === 'sqlite') expect(existsSync(join(db.dir!, 'x.db'))).toBe(true);
    const second = await runCli(db.url, ['migrate']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/up to date/i);
  });

  it('teams create --json prints one JSON object with id, name and plan starter by default', async () => {
    const result = await runCli(db.url, ['teams', 'create', '--name', `Loja CLI ${tag}`, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    team = JSON.parse(lines[0]!);
    expect(Array.isArray(team)).toBe(false);
    expect(team).toMatchObject({ name: `Loja CLI ${tag}`, plan: 'starter', alert_email: null });
    expect(team.id).toMatch(UUID);
  });

  it('teams create --plan professional --alert-email sets both', async () => {
    proTeam = await runCliJson(db.url, ['teams', 'create', '--name', `Loja Pro ${tag}`, '--plan', 'professional', '--alert-email', 'a@b.co', '--json']);
    expect(proTeam).toMatchObject({ name: `Loja Pro ${tag}`, plan: 'professional', alert_email: 'a@b.co' });
    expect(proTeam.id).toMatch(UUID);
  });

  it('teams list --json includes the created teams', async () => {
    const list = await runCliJson<any[]>(db.url, ['teams', 'list', '--json']);
    expect(Array.isArray(list)).toBe(true);
    const byId = new Map(list.map((t) => [t.id, t]));
    expect(byId.get(team.id)).toMatchObject({ name: team.name, plan: 'starter' });
    expect(byId.get(proTeam.id)).toMatchObject({ name: proTeam.name, plan: 'professional', alert_email: 'a@b.co' });
  });

  it('keys create --json prints the id, the secret key and all four scopes by default', async () => {
    fullKey = await runCliJson(db.url, ['keys', 'create', '--team', team.id, '--json']);
    expect(fullKey.id).toMatch(UUID);
    expect(fullKey.key).toMatch(KEY);
    expect(fullKey.team_id).toBe(team.id);
    expect([...fullKey.scopes].sort()).toEqual(ALL_SCOPES);
  });

  it('keys create --scopes limits the scopes, and the server enforces them', async () => {
    scopedKey = await runCliJson(db.url, ['keys', 'create', '--team', team.id, '--scopes', 'deals:read,clients:read', '--json']);
    expect(scopedKey.key).toMatch(KEY);
    expect(scopedKey.key).not.toBe(fullKey.key);
    expect([...scopedKey.scopes].sort()).toEqual(['clients:read', 'deals:read']);

    const { url } = await serve();
    expect((await api(url, fullKey.key, 'GET', '/api/v1/deals')).status).toBe(200);
    expect((await api(url, scopedKey.key, 'GET', '/api/v1/deals')).status).toBe(200);
    expect((await api(url, scopedKey.key, 'GET', '/api/v1/clients')).status).toBe(200);
    const denied = await api(url, scopedKey.key, 'POST', '/api/v1/deals', { title: 'Sem permissão' });
    expect(denied.status).toBe(403);
    expect(denied.body?.error?.code).toBe('FORBIDDEN');
  });

  it('keys list --json shows prefixes and never the secret', async () => {
    const result = await runCli(db.url, ['keys', 'list', '--team', team.id, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain(fullKey.key);
    expect(result.stdout).not.toContain(scopedKey.key);
    expect(result.stdout).not.toContain(fullKey.key.slice(12));
    const rows = JSON.parse(result.stdout) as any[];
    expect(rows.map((r) => r.id).sort()).toEqual([fullKey.id, scopedKey.id].sort());
    for (const row of rows) {
      expect(row).not.toHaveProperty('key');
      expect(row).not.toHaveProperty('key_hash');
      const secret = row.id === fullKey.id ? fullKey.key : scopedKey.key;
      expect(row.prefix.length).toBeGreaterThanOrEqual(8);
      expect(row.prefix.length).toBeLessThan(secret.length / 2);
      expect(secret.startsWith(row.prefix)).toBe(true);
      expect(row.revoked_at).toBeNull();
    }
  });

  it('keys revoke: the key gets 401 from the running server at once; other keys keep working', async () => {
    const { url } = await serve();
    expect((await api(url, scopedKey.key, 'GET', '/api/v1/deals')).status).toBe(200);
    const revoked = await runCliJson(db.url, ['keys', 'revoke', scopedKey.id, '--json']);
    expect(revoked.id).toBe(scopedKey.id);
    expect(revoked.revoked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(JSON.stringify(revoked)).not.toContain(scopedKey.key);

    const after = await api(url, scopedKey.key, 'GET', '/api/v1/deals');
    expect(after.status).toBe(401);
    expect(after.body?.error?.code).toBe('UNAUTHORIZED');
    expect((await api(url, fullKey.key, 'GET', '/api/v1/deals')).status).toBe(200);

    const rows = await runCliJson<any[]>(db.url, ['keys', 'list', '--team', team.id, '--json']);
    expect(rows.find((r) => r.id === scopedKey.id)?.revoked_at).toBe(revoked.revoked_at);
    expect(rows.find((r) => r.id === fullKey.id)?.revoked_at).toBeNull();
  });

  describe('bad arguments: non-zero exit, a clear message on stderr, nothing on stdout', () => {
    const cases: Array<[string, () => string[], RegExp]> = [
      ['teams create with a blank --name', () => ['teams', 'create', '--name', '   ', '--json'], /nome|name/i],
      [
        'teams create with a bad --alert-email',
        () => ['teams', 'create', '--name', `Loja Email ${tag}`, '--alert-email', 'not-an-email', '--json'],
        /e-?mail/i,
      ],
      ['keys create for an unknown team id', () => ['keys', 'create', '--team', UNKNOWN_ID, '--json'], /time não encontrado|team not found/i],
      ['keys create for a malformed team id', () => ['keys', 'create', '--team', 'not-a-uuid', '--json'], /time não encontrado|team not found/i],
      ['keys create with an unknown scope', () => ['keys', 'create', '--team', team.id, '--scopes', 'deals:read,deals:admin', '--json'], /deals:admin/],
      ['keys revoke of an unknown id', () => ['keys', 'revoke', UNKNOWN_ID, '--json'], /não encontrada|not found/i],
    ];

    it.each(cases)('%s', async (_name, args, message) => {
      expectCleanFailure(await runCli(db.url, args()), message);
    });

    it('failed creates left no team behind', async () => {
      const list = await runCliJson<any[]>(db.url, ['teams', 'list', '--json']);
      expect(list.filter((t) => t.name.trim() === '' || t.name === `Loja Email ${tag}`)).toEqual([]);
    });
  });

  it('demo prints the key once and a curl command that uses it', async () => {
    const { port } = await serve();
    const result = await runCli(db.url, ['demo'], { env: { PORT: String(port) } });
    expect(result.code, result.stderr).toBe(0);
    const key = /ask_[A-Za-z0-9_-]{43,}/.exec(result.stdout)?.[0];
    expect(key, result.stdout).toBeDefined();
    const curl = result.stdout.split('\n').find((line) => line.includes('curl'));
    expect(curl, result.stdout).toBeDefined();
    expect(curl).toContain(key!);
    expect(curl).toContain(`:${port}/api/v1/deals`);
    // The first run on this database creates the team and its data.
    expect(result.stdout).toContain('Created 3 clients, 4 deals and 5 vehicles.');
    const teamId = /Demo team "Auto Shopping Demo" \(([0-9a-f-]{36})\)/.exec(result.stdout)?.[1];
    expect(teamId, result.stdout).toMatch(UUID);
    firstDemo = { teamId: teamId!, key: key! };
  });

  it('demo --json: the key works against a server on the same database and sees the demo data', async () => {
    const { url, port } = await serve();
    const demo = await runCliJson(db.url, ['demo', '--json'], { env: { PORT: String(port) } });
    expect(demo.team_id).toMatch(UUID);
    expect(demo.key_id).toMatch(UUID);
    expect(demo.key).toMatch(KEY);
    expect(demo.curl).toContain(demo.key);
    secondDemo = demo;

    const deals = await api(url, demo.key, 'GET', '/api/v1/deals');
    expect(deals.status, deals.text).toBe(200);
    expect(deals.body.pagination.total).toBeGreaterThanOrEqual(4);
    expect(deals.body.data.length).toBeGreaterThanOrEqual(4);
    const clients = await api(url, demo.key, 'GET', '/api/v1/clients');
    expect(clients.status, clients.text).toBe(200);
    expect(clients.body.pagination.total).toBeGreaterThanOrEqual(3);
    const vehicles = await api(url, demo.key, 'GET', '/api/v1/vehicles?sort=title');
    expect(vehicles.status, vehicles.text).toBe(200);
    expect(vehicles.body.data.map((v: { model: string }) => v.model)).toEqual(['Onix', 'Strada', 'HB20', 'Compass', 'Corolla']);
    // The Compass deal names the Compass in stock.
    const compass = vehicles.body.data.find((v: { model: string }) => v.model === 'Compass');
    expect(deals.body.data.find((d: { title: string }) => d.title.startsWith('Jeep Compass')).case_id).toBe(compass.id);

    // The printed curl command points at this server: run its URL with its header.
    const target = /curl -s (\S+)/.exec(demo.curl)?.[1];
    expect(target, demo.curl).toBe(`${url}/api/v1/deals`);
    const viaCurlUrl = await fetch(target!, { headers: { authorization: `Bearer ${demo.key}` }, signal: AbortSignal.timeout(10_000) });
    expect(viaCurlUrl.status).toBe(200);
    await viaCurlUrl.body?.cancel();
  });

  it('demo run again reuses its team (no second team, no duplicated data) and prints a new key; the earlier keys keep working', async () => {
    const { url, port } = await serve();
    expect(firstDemo).toBeDefined();
    // The --json run above was already the second run.
    expect(secondDemo).toMatchObject({ team_id: firstDemo!.teamId, reused: true });
    expect(secondDemo.key).not.toBe(firstDemo!.key);

    const third = await runCli(db.url, ['demo'], { env: { PORT: String(port) } });
    expect(third.code, third.stderr).toBe(0);
    expect(third.stdout).toContain(`Demo team "Auto Shopping Demo" (${firstDemo!.teamId})`);
    expect(third.stdout).toMatch(/already existed: reused it/);
    expect(third.stdout).not.toMatch(/Created \d+ clients/);
    const thirdKey = /API key \(shown once\): (ask_[A-Za-z0-9_-]{43,})/.exec(third.stdout)?.[1];
    expect(thirdKey, third.stdout).toMatch(KEY);
    expect(new Set([firstDemo!.key, secondDemo.key, thirdKey]).size).toBe(3);

    const teams = await runCliJson<any[]>(db.url, ['teams', 'list', '--json']);
    expect(teams.filter((t) => t.name === 'Auto Shopping Demo').map((t) => t.id)).toEqual([firstDemo!.teamId]);
    const keys = await runCliJson<any[]>(db.url, ['keys', 'list', '--team', firstDemo!.teamId, '--json']);
    expect(keys.filter((k) => k.name === 'demo' && !k.revoked_at)).toHaveLength(3);

    // Every key sees the same data, created once: 3 clients (no duplicate-CPF failure) and 4 deals.
    for (const key of [firstDemo!.key, secondDemo.key, thirdKey!]) {
      const clients = await api(url, key, 'GET', '/api/v1/clients');
      expect(clients.status, clients.text).toBe(200);
      expect(clients.body.pagination.total).toBe(3);
      const deals = await api(url, key, 'GET', '/api/v1/deals');
      expect(deals.body.pagination.total).toBe(4);
    }
  });
});

describe('autosales CLI usage errors (rejected before the database is opened)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'autosales-usage-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['teams create without --name', ['teams', 'create', '--json'], /--name/],
    ['teams create --plan gold', ['teams', 'create', '--name', 'Loja Ouro', '--plan', 'gold', '--json'], /gold[\s\S]*starter/],
    ['an unknown command', ['frobnicate'], /frobnicate/],
  ] as Array<[string, string[], RegExp]>)('%s', async (_name, args, message) => {
    expectCleanFailure(await runCli(`sqlite:${join(dir, 'x.db')}`, args), message);
    expect(existsSync(join(dir, 'x.db'))).toBe(false);
  });
});

describe('autosales CLI with a bad DATABASE_URL', () => {
  it('an unsupported scheme (mysql://x) exits non-zero naming DATABASE_URL', async () => {
    const result = await runCli('mysql://x', ['teams', 'list', '--json']);
    expectCleanFailure(result, /DATABASE_URL/);
  });

  it('an unreachable PostgreSQL exits non-zero promptly with a one-line reason, not a stack trace', async () => {
    const started = Date.now();
    const result = await runCli('postgres://postgres@127.0.0.1:1/autosales', ['teams', 'list', '--json'], { timeoutMs: 20_000 });
    expect(Date.now() - started).toBeLessThan(15_000);
    expectCleanFailure(result, /ECONNREFUSED|connect|conectar/i);
  });
});
