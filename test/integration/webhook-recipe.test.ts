import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { spawnChild } from '../support/child.js';
import {
  ROOT,
  api,
  childEnv,
  ensureBuilt,
  freePort,
  killAllChildren,
  processDb,
  runCli,
  runCliJson,
  startServe,
  type ProcessDb,
  type ServerProcess,
} from '../support/cli.js';
import { recipeCertificate } from '../support/docs.js';
import { waitUntil } from '../support/wait.js';

/**
 * docs/webhooks.md, "Try it on your machine", as a newcomer follows it: the certificate from the
 * page's openssl command; `autosales serve` with NODE_EXTRA_CA_CERTS and
 * WEBHOOK_ALLOW_PRIVATE_TARGETS=true; `demo`, `webhooks create` to https://localhost; the SDK's quick
 * start (packages/sdk/examples/quickstart.mjs, run from the checkout) as the receiver, printing the
 * signed events it gets. Then the page's trouble table: without NODE_EXTRA_CA_CERTS the attempt log
 * says `tls` and how to fix it, and a `resend` after the fix delivers at once.
 */

beforeAll(() => {
  ensureBuilt();
}, 200_000);

afterAll(() => {
  killAllChildren();
});

const EVENT = /evt_[0-9a-f]{32}/;

describe.each(DIALECTS)('the local receiver recipe of docs/webhooks.md (%s)', (dialect) => {
  let dir: string;
  let db: ProcessDb;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'autosales-recipe-'));
    db = await processDb(dialect);
  });

  afterAll(async () => {
    await server?.stop('SIGKILL').catch(() => undefined);
    killAllChildren();
    await db?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('delivers signed events to the quick start over HTTPS; a missing CA shows as tls with its fix; resend after the fix', async () => {
    // 1. The certificate, with the page's command.
    const { keyFile, certFile } = recipeCertificate(dir);

    // 2. The service, with the two variables on the delivering process (and nothing inherited).
    // SCHEDULER=off: the demo's agenda would add activity events at moments of the scheduler's choosing.
    const serveEnv = (ca: string | undefined) => ({ NODE_EXTRA_CA_CERTS: ca, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SCHEDULER: 'off' });
    server = await startServe(db.url, { env: serveEnv(certFile) });

    // 3. A team, a key and a webhook to https://localhost.
    const demo = await runCliJson(db.url, ['demo', '--json'], { env: { PORT: String(server.port) } });
    const port = await freePort();
    const created = await runCli(db.url, ['webhooks', 'create', '--team', demo.team_id, '--url', `https://localhost:${port}/webhooks`], {
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain('Note: localhost is a private address.');
    const secret = /Signing secret \(store it now\): (whsec_\S+)/.exec(created.stdout)?.[1];
    const webhookId = /^Webhook (\S+)/m.exec(created.stdout)?.[1];
    expect(secret, created.stdout).toBeDefined();
    expect(webhookId, created.stdout).toBeDefined();

    // 4. The receiver: the SDK quick start, from the checkout.
    const quickstart = spawnChild(process.execPath, ['packages/sdk/examples/quickstart.mjs'], {
      cwd: ROOT,
      env: childEnv({
        TLS_KEY_FILE: keyFile,
        TLS_CERT_FILE: certFile,
        AUTOSALES_URL: server.url,
        AUTOSALES_API_KEY: demo.key,
        AUTOSALES_WEBHOOK_SECRET: secret,
        RECEIVER_PORT: String(port),
      }),
      name: 'the SDK quick start',
    });
    const out = () => quickstart.output();
    const received = (type: string) =>
      out()
        .split('\n')
        .filter((line) => line.startsWith(`received ${type} evt_`));
    const printed = (type: string) => () => received(type).length > 0;

    await waitUntil(printed('deal.created'), 15_000, 'the receiver printing deal.created');
    await waitUntil(printed('client.created'), 5_000, 'the receiver printing client.created');
    // The deal listing may come before or after the deliveries.
    await waitUntil(() => out().includes('lead Toyota Corolla XEi 2024 Ana Beatriz Souza'), 10_000, 'the deal listing');
    expect(out()).toContain(`webhook receiver on https://localhost:${port}/`);
    expect(out()).not.toContain('refused');

    // 5. Win the deal: deal.updated and deal.won arrive; every attempt so far is a 204.
    const list = await api(server.url, demo.key, 'GET', '/api/v1/deals?search=corolla');
    const won = await api(server.url, demo.key, 'PUT', `/api/v1/deals/${list.body.data[0].id}`, { status: 'ganho' });
    expect(won.status, won.text).toBe(200);
    // Both, in either order (deliveries run concurrently).
    await waitUntil(printed('deal.won'), 10_000, 'the receiver printing deal.won');
    await waitUntil(printed('deal.updated'), 10_000, 'the receiver printing deal.updated');
    expect(received('deal.updated')).toHaveLength(1);
    // At least four: winning a demo deal may add its car's vehicle events.
    await waitUntil(async () => (await runCliJson<any[]>(db.url, ['webhooks', 'attempts', webhookId!, '--json'])).length >= 4, 10_000, 'four attempts logged');
    const ok = await runCliJson<any[]>(db.url, ['webhooks', 'attempts', webhookId!, '--json']);
    expect(ok.map((a) => [a.status_code, a.error_class, a.error_detail])).toEqual(Array.from({ length: ok.length }, () => [204, null, null]));

    // Trouble table: the service restarted without NODE_EXTRA_CA_CERTS cannot trust the receiver.
    await server.stop('SIGTERM');
    server = await startServe(db.url, { env: serveEnv(undefined) });
    const deal = await api(server.url, demo.key, 'POST', '/api/v1/deals', { title: 'Renault Kardian 2025' });
    expect(deal.status, deal.text).toBe(201);
    let failed: any;
    await waitUntil(
      async () => {
        [failed] = await runCliJson<any[]>(db.url, ['webhooks', 'attempts', webhookId!, '--json', '--limit', '1']);
        return failed?.error_class === 'tls';
      },
      15_000,
      'a tls attempt',
    );
    expect(failed).toMatchObject({ event_type: 'deal.created', status_code: null, next_attempt_at: expect.any(String) });
    expect(failed.error_detail).toContain('set NODE_EXTRA_CA_CERTS=/path/to/its-cert.pem on the serve/worker process');
    expect(failed.event_id).toMatch(EVENT);
    expect(received('deal.created')).toHaveLength(1);

    // The fix, then resend instead of waiting 5 minutes: delivered at once; the replaced retry is no longer announced.
    await server.stop('SIGTERM');
    server = await startServe(db.url, { env: serveEnv(certFile) });
    const resend = await runCli(db.url, ['webhooks', 'resend', failed.event_id]);
    expect(resend.code, resend.stderr).toBe(0);
    await waitUntil(() => out().includes(`received deal.created ${failed.event_id}`), 15_000, 'the receiver printing the resent event');
    await waitUntil(
      async () => (await runCliJson<any[]>(db.url, ['webhooks', 'attempts', webhookId!, '--json', '--limit', '1']))[0].status_code === 204,
      10_000,
      'the resent attempt logged',
    );
    const [resent, superseded] = await runCliJson<any[]>(db.url, ['webhooks', 'attempts', webhookId!, '--json', '--limit', '2']);
    expect(resent).toMatchObject({ event_id: failed.event_id, attempt: 1, status_code: 204, next_attempt_at: null });
    expect(superseded).toMatchObject({ event_id: failed.event_id, error_class: 'tls', next_attempt_at: null });

    // Secrets stay out of every log.
    expect(server.output()).not.toContain(secret!);
    expect(server.output()).not.toContain(demo.key);
  }, 120_000);
});
