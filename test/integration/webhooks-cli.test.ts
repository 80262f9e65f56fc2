import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, openTestDb, type TestDb } from '../support/dialects.js';
import { api, ensureBuilt, killAllChildren, runCli, runCliJson, startServe, type CliResult, type ServerProcess } from '../support/cli.js';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver.js';
import { killAllWorkers, stockSignatureCheck } from '../support/processes.js';
import { waitUntil } from '../support/wait.js';

/**
 * `autosales webhooks …` as an operator types it (issue 3, point 2): one child process per command
 * against the built dist/, on a fresh database per dialect. A real `autosales serve` (delivery worker
 * inside, compressed retry schedule) and a real HTTPS receiver produce the deliveries that
 * `attempts`, `resend` and `recover` act on.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const UNKNOWN_ID = '0190a000-0000-7000-8000-000000000000';
const UNKNOWN_EVENT = 'evt_0190a0000000700080000000000000ff';
const STACK_FRAME = /^\s+at .+[:(]/m;
/** Several child processes of ~0.5-1 s each per test, on a possibly busy machine. */
const SLOW = 60_000;

beforeAll(() => {
  ensureBuilt();
}, 200_000);

afterAll(() => {
  killAllChildren();
  killAllWorkers();
});

/** A failed command: non-zero exit (not a kill), nothing on stdout, a message on stderr, no stack trace. */
function expectCleanFailure(result: CliResult, message: RegExp, what: string): void {
  const context = `${what}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`;
  expect(result.signal, context).toBeNull();
  expect(result.code, context).not.toBe(0);
  expect(result.code, context).not.toBeNull();
  expect(result.stdout, context).toBe('');
  expect(result.stderr, context).toMatch(message);
  expect(result.stderr, context).not.toMatch(STACK_FRAME);
}

/** Exactly one JSON value on one line of stdout, exit 0. */
/** The receivers listen on this machine: the CLI accepts them as targets with the operator's switch (as serve delivers to them). */
const PRIVATE_OK = { env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } };

async function cliJson(url: string, args: string[]): Promise<any> {
  const result = await runCli(url, args, PRIVATE_OK);
  expect(result.code, `autosales ${args.join(' ')}\n${result.stderr}`).toBe(0);
  expect(result.stdout.trimEnd().split('\n'), result.stdout).toHaveLength(1);
  return JSON.parse(result.stdout);
}

describe.each(DIALECTS)('autosales webhooks CLI on %s', (dialect) => {
  let testDb: TestDb;
  let receiver: HttpsReceiver;
  let server: ServerProcess;
  let url: string;

  // Filled in as the commands run (the tests below are a sequence, as an operator would type them).
  let teamId: string;
  let apiKey: string;
  let hook: any;
  let secret: string;
  const oldSecrets: string[] = [];
  let eventId: string;
  let firstBody: string;

  beforeAll(async () => {
    testDb = await openTestDb(dialect);
    url = testDb.url;
    receiver = await startHttpsReceiver();
    server = await startServe(url, {
      env: {
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_RETRY_SCHEDULE: '0,300ms,300ms,300ms,300ms,300ms',
        WEBHOOK_POLL_MS: '50',
        WEBHOOK_WORKER: undefined,
        SMTP_URL: undefined,
        NODE_EXTRA_CA_CERTS: receiver.caFile,
      },
    });
    const team = await runCliJson(url, ['teams', 'create', '--name', `Loja webhooks CLI ${dialect}`, '--json']);
    teamId = team.id;
    apiKey = (await runCliJson(url, ['keys', 'create', '--team', teamId, '--json'])).key;
  }, 60_000);

  afterAll(async () => {
    await server?.stop('SIGKILL').catch(() => undefined);
    await receiver?.close();
    await testDb?.close();
  }, SLOW);

  it(
    'webhooks create --json prints one JSON object with id, url, events, a whsec_ secret and status enabled',
    async () => {
      const created = await cliJson(url, ['webhooks', 'create', '--team', teamId, '--url', receiver.url, '--events', 'deal.created,deal.won', '--json']);
      expect(created).toMatchObject({ url: receiver.url, events: ['deal.created', 'deal.won'], status: 'enabled' });
      expect(created.id).toMatch(UUID);
      expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32,}$/);
      hook = created;
      secret = created.secret;
    },
    SLOW,
  );

  it(
    'refuses a non-https URL, an unknown event type and an unknown team: non-zero exit, message on stderr, nothing on stdout',
    async () => {
      const cases: Array<[string, string[], RegExp]> = [
        ['http://', ['--team', teamId, '--url', 'http://example.com/hook'], /https/i],
        ['ftp://', ['--team', teamId, '--url', 'ftp://example.com/hook'], /https|URL/i],
        ['garbage', ['--team', teamId, '--url', 'not a url at all'], /URL/i],
        ['unknown event', ['--team', teamId, '--url', 'https://example.com/hook', '--events', 'deal.created,deal.exploded'], /deal\.exploded/],
        ['unknown team', ['--team', UNKNOWN_ID, '--url', 'https://example.com/hook'], /Time não encontrado|team/i],
      ];
      const results = await Promise.all(cases.map(([, args]) => runCli(url, ['webhooks', 'create', ...args, '--json'])));
      results.forEach((result, i) => expectCleanFailure(result, cases[i]![2], cases[i]![0]));
      // None of them was created.
      const rows = await cliJson(url, ['webhooks', 'list', '--team', teamId, '--json']);
      expect(rows.map((r: any) => r.id)).toEqual([hook.id]);
    },
    SLOW,
  );

  it(
    'webhooks create (table output, private targets allowed) warns when the URL names a private host outright, and only then',
    async () => {
      const other = await runCliJson(url, ['teams', 'create', '--name', `Loja notas ${dialect}`, '--json']);
      const [loopback, local, pub] = await Promise.all(
        ['https://127.0.0.1:8443/hooks', 'https://localhost:8443/hooks', 'https://crm.example.com.br/hooks'].map((target) =>
          runCli(url, ['webhooks', 'create', '--team', other.id, '--url', target], PRIVATE_OK),
        ),
      );
      for (const [result, host] of [
        [loopback!, '127.0.0.1'],
        [local!, 'localhost'],
      ] as const) {
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toMatch(/Signing secret \(store it now\): whsec_/);
        expect(result.stdout).toContain(
          `Note: ${host} is a private address. Deliveries to it are blocked unless the serve/worker process runs with WEBHOOK_ALLOW_PRIVATE_TARGETS=true`,
        );
      }
      expect(pub!.code, pub!.stderr).toBe(0);
      expect(pub!.stdout).not.toContain('Note:');
    },
    SLOW,
  );

  it(
    'webhooks list --team never shows the secret (JSON or table)',
    async () => {
      const [json, human] = await Promise.all([
        runCli(url, ['webhooks', 'list', '--team', teamId, '--json']),
        runCli(url, ['webhooks', 'list', '--team', teamId]),
      ]);
      expect(json.code, json.stderr).toBe(0);
      expect(human.code, human.stderr).toBe(0);
      const rows = JSON.parse(json.stdout);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ id: hook.id, url: receiver.url, events: ['deal.created', 'deal.won'], status: 'enabled' });
      expect(rows[0]).not.toHaveProperty('secret');
      for (const out of [json.stdout, json.stderr, human.stdout, human.stderr]) {
        expect(out).not.toContain(secret);
        expect(out).not.toContain('whsec_');
      }
      expect(human.stdout).toContain(hook.id);
    },
    SLOW,
  );

  it(
    'disable and enable change the status',
    async () => {
      const disabled = await cliJson(url, ['webhooks', 'disable', hook.id, '--json']);
      expect(disabled).toMatchObject({ id: hook.id, status: 'disabled' });
      expect(disabled).not.toHaveProperty('secret');

      const enabled = await runCli(url, ['webhooks', 'enable', hook.id]);
      expect(enabled.code, enabled.stderr).toBe(0);
      expect(enabled.stdout).toMatch(/enabled/);
      expect(enabled.stdout).not.toContain(secret);
      expect((await cliJson(url, ['webhooks', 'list', '--team', teamId, '--json']))[0].status).toBe('enabled');
    },
    SLOW,
  );

  it(
    'rotate-secret --json returns a new whsec_ secret, which then signs the deliveries',
    async () => {
      const rotated = await cliJson(url, ['webhooks', 'rotate-secret', hook.id, '--json']);
      expect(rotated.id).toBe(hook.id);
      expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32,}$/);
      expect(rotated.secret).not.toBe(secret);
      oldSecrets.push(secret);
      secret = rotated.secret;
    },
    SLOW,
  );

  it(
    'attempts --json lists every attempt after deliveries: event, attempt number, time, status or error class, duration, 2 KB of body, next attempt',
    async () => {
      // First attempt: 500 with a 3 KB body; the retry (300 ms later) is accepted.
      const big = 'x'.repeat(3000);
      let calls = 0;
      receiver.respond(() => (++calls === 1 ? { status: 500, body: big } : { status: 200, body: 'recebido' }));

      const deal = await api(server.url, apiKey, 'POST', '/api/v1/deals', { title: 'Onix LTZ 2024' });
      expect(deal.status, deal.text).toBe(201);
      // Not subscribed: deal.updated must never reach this webhook.
      expect((await api(server.url, apiKey, 'PUT', `/api/v1/deals/${deal.body.data.id}`, { title: 'Onix LTZ 2024 (revisado)' })).status).toBe(200);

      const [first, second] = await receiver.waitFor(2, 10_000);
      const body = JSON.parse(first!.body);
      expect(body.type).toBe('deal.created');
      expect(body.data.object.id).toBe(deal.body.data.id);
      expect(second!.body).toBe(first!.body);
      for (const req of [first!, second!]) {
        expect(stockSignatureCheck(req.body, req.headers, secret), 'signed with the rotated secret').toBe(true);
        expect(stockSignatureCheck(req.body, req.headers, oldSecrets[0]!), 'the old secret no longer signs').toBe(false);
      }
      eventId = body.id;
      firstBody = first!.body;

      // The attempt is recorded after the answer: wait (bounded) until the log has both.
      await waitUntil(
        async () => {
          const row = await testDb.db.kysely
            .selectFrom('delivery_attempts')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('webhook_id', '=', hook.id)
            .executeTakeFirstOrThrow();
          return Number(row.n) >= 2;
        },
        10_000,
        'two attempts in the log',
      );
      const rows = await cliJson(url, ['webhooks', 'attempts', hook.id, '--json']);
      expect(rows).toHaveLength(2);
      const [newest, oldest] = rows;
      for (const row of rows) {
        expect(row).toMatchObject({ event_id: eventId, event_type: 'deal.created' });
        expect(row.attempted_at).toMatch(ISO);
        expect(typeof row.duration_ms).toBe('number');
        expect(row.duration_ms).toBeGreaterThanOrEqual(0);
      }
      expect(oldest).toMatchObject({ attempt: 1, status_code: 500 });
      expect(oldest.error_class === null || oldest.error_class === 'http', `error_class ${oldest.error_class}`).toBe(true);
      expect(oldest.response_body).toBe('x'.repeat(2048));
      expect(oldest.next_attempt_at).toMatch(ISO);
      expect(Date.parse(oldest.next_attempt_at)).toBeGreaterThanOrEqual(Date.parse(oldest.attempted_at));
      expect(newest).toMatchObject({ attempt: 2, status_code: 200, error_class: null, response_body: 'recebido', next_attempt_at: null, error_detail: null });
      if (oldest.error_class === 'http') expect(oldest.error_detail).toMatch(/^http: the receiver answered with a status outside 2xx/);

      const raw = await runCli(url, ['webhooks', 'attempts', hook.id, '--json']);
      expect(raw.stdout + raw.stderr).not.toContain(secret);
      expect(raw.stdout).not.toContain('whsec_');
    },
    SLOW,
  );

  it(
    'resend EVENT_ID --webhook ID queues it again (prints the count) and the receiver gets the same event, byte-identical',
    async () => {
      receiver.respond(() => ({ status: 200, body: 'ok' }));
      const before = receiver.requests.length;
      const one = await runCli(url, ['webhooks', 'resend', eventId, '--webhook', hook.id]);
      expect(one.code, one.stderr).toBe(0);
      expect(one.stdout).toMatch(/\b1 webhook/);
      const again = await receiver.waitFor(before + 1, 10_000);
      const resent = again[before]!;
      expect(resent.headers['x-service-event-id']).toBe(eventId);
      expect(resent.body).toBe(firstBody);
      expect(stockSignatureCheck(resent.body, resent.headers, secret)).toBe(true);

      // Without --webhook: every enabled webhook of the team that takes the type (here, the one).
      const all = await cliJson(url, ['webhooks', 'resend', eventId, '--json']);
      expect(all.event_id).toBe(eventId);
      expect(all.webhook_ids).toEqual([hook.id]);
      await receiver.waitFor(before + 2, 10_000);
    },
    SLOW,
  );

  it(
    'recover WEBHOOK_ID --since queues what a disabled webhook missed (prints the count), and it arrives once enabled',
    async () => {
      const since = new Date(Date.now() - 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      expect((await runCli(url, ['webhooks', 'disable', hook.id])).code).toBe(0);
      const missed = await api(server.url, apiKey, 'POST', '/api/v1/deals', { title: 'Tracker Premier 2025' });
      expect(missed.status).toBe(201);
      const before = receiver.requests.length;

      const enable = await runCli(url, ['webhooks', 'enable', hook.id]);
      expect(enable.code, enable.stderr).toBe(0);
      // Nothing was sent while it was disabled, and enabling alone does not send the missed event.
      expect(receiver.requests.length).toBe(before);

      const recover = await runCli(url, ['webhooks', 'recover', hook.id, '--since', since]);
      expect(recover.code, recover.stderr).toBe(0);
      // Everything else since then was delivered (or is not subscribed): only the missed deal.created.
      expect(recover.stdout).toMatch(/\b1 event/);
      const got = await receiver.waitFor(before + 1, 10_000);
      const body = JSON.parse(got[before]!.body);
      expect(body).toMatchObject({ type: 'deal.created', webhook_id: hook.id, team_id: teamId });
      expect(body.data.object.id).toBe(missed.body.data.id);
      expect(stockSignatureCheck(got[before]!.body, got[before]!.headers, secret)).toBe(true);

      // Run again: nothing left to recover.
      const twice = await cliJson(url, ['webhooks', 'recover', hook.id, '--since', since, '--json']);
      expect(twice).toMatchObject({ webhook_id: hook.id, queued: 0 });
    },
    SLOW,
  );

  it(
    'recover with a bad or missing --since fails: non-zero exit, message on stderr, nothing on stdout',
    async () => {
      const [bad, missing] = await Promise.all([
        runCli(url, ['webhooks', 'recover', hook.id, '--since', 'yesterday', '--json']),
        runCli(url, ['webhooks', 'recover', hook.id]),
      ]);
      expectCleanFailure(bad, /since|ISO/i, 'not a date');
      expectCleanFailure(missing, /since/i, 'missing --since');
    },
    SLOW,
  );

  it(
    'unknown webhook or event ids: non-zero exit, message on stderr, nothing on stdout',
    async () => {
      const cases: Array<[string, string[], RegExp]> = [
        ['enable', ['webhooks', 'enable', UNKNOWN_ID], /Webhook não encontrado|not found/i],
        ['disable (not a uuid)', ['webhooks', 'disable', 'wh_nope'], /Webhook não encontrado|not found/i],
        ['attempts', ['webhooks', 'attempts', UNKNOWN_ID, '--json'], /Webhook não encontrado|not found/i],
        ['resend unknown event', ['webhooks', 'resend', UNKNOWN_EVENT], /Evento não encontrado|not found/i],
        ['resend to unknown webhook', ['webhooks', 'resend', eventId, '--webhook', UNKNOWN_ID], /Webhook não encontrado|not found/i],
        ['recover', ['webhooks', 'recover', UNKNOWN_ID, '--since', '2026-01-01T00:00:00Z'], /Webhook não encontrado|not found/i],
      ];
      const results = await Promise.all(cases.map(([, args]) => runCli(url, args)));
      results.forEach((result, i) => expectCleanFailure(result, cases[i]![2], cases[i]![0]));
    },
    SLOW,
  );

  it(
    'the webhook never received an event type it did not subscribe to, and the server log holds no secret',
    async () => {
      const types = receiver.requests.map((r) => JSON.parse(r.body).type as string);
      expect(types.length).toBeGreaterThan(0);
      expect(new Set(types)).toEqual(new Set(['deal.created']));
      for (const s of [secret, ...oldSecrets, apiKey]) expect(server.output()).not.toContain(s);
    },
    SLOW,
  );
});
