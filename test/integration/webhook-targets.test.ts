import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/services.js';
import { createWebhookSender } from '../../src/worker/webhook-sender.js';
import { SCOPES } from '../../src/domain/teams/api-keys.types.js';
import { DIALECTS } from '../support/dialects.js';
import { ensureBuilt, freePort, killAllChildren, runCli } from '../support/cli.js';
import { expectError } from '../support/expect.js';
import { signedIn } from '../support/panel.js';
import { createWebhookRig, type WebhookRig } from '../support/webhooks.js';

/**
 * Issue 23, point 1: a webhook target that is a private address in any notation is refused before
 * anything connects. A plain TCP listener sits on the port every form below names (dual stack: it
 * accepts 127.0.0.1, ::1 and what 0.0.0.0 and :: reach) and counts connections: an unguarded sender
 * proves each form really reaches it, then creating or editing webhooks through the panel, the CLI
 * and the preview API is refused with 400, and deliveries to targets that became blocked fail as
 * `blocked` without one connection, without a retry, and read the same for an open and a closed port.
 */

const FORMS = ['127.0.0.1', '127.1', '2130706433', '0177.0.0.1', '0x7f.0.0.1', '[::1]', '[::ffff:7f00:1]', '0.0.0.0', '0', '[::]', 'localhost'];
const REFUSED = /^A URL do webhook aponta para um endereço privado, de loopback ou reservado \(.+\); use um endereço público$/;
const SLOW = 120_000;

interface Listener {
  port: number;
  connections(): number;
  close(): Promise<void>;
}

/** Accepts on every local address of both families and hangs up at once, counting each connection. */
async function tcpListener(): Promise<Listener> {
  let count = 0;
  const server: Server = createServer((socket) => {
    count += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    connections: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

beforeAll(() => {
  ensureBuilt();
}, 200_000);

afterAll(() => {
  killAllChildren();
});

describe.each(DIALECTS)('webhook targets refused before any connection (%s)', (dialect) => {
  let rig: WebhookRig;
  let listener: Listener;
  let closedPort: number;
  const url = (form: string, port = listener.port) => `https://${form}:${port}/hook`;

  beforeAll(async () => {
    // The services refuse private targets, as a server without WEBHOOK_ALLOW_PRIVATE_TARGETS does.
    rig = await createWebhookRig(dialect, { allowPrivateWebhookTargets: false });
    listener = await tcpListener();
    do closedPort = await freePort();
    while (closedPort === listener.port);
  });
  afterAll(async () => {
    await listener?.close();
    await rig?.close();
  });

  it('the listener is reachable through every form (an unguarded sender connects)', async () => {
    const sender = createWebhookSender({ timeoutMs: 2000, allowPrivateTargets: true });
    try {
      for (const form of FORMS) {
        const before = listener.connections();
        const result = await sender.send(url(form), '{}', {});
        expect(result.ok, form).toBe(false);
        expect(listener.connections(), form).toBe(before + 1);
      }
    } finally {
      sender.close();
    }
  });

  it('the panel refuses every form at create and at edit (400), and nothing connects', async () => {
    const before = listener.connections();
    const { browser } = await signedIn(rig.h, 'owner');
    const kept = await browser.post('/webhooks', { url: 'https://hooks.example.com/autosales', events: [] });
    expect(kept.status, kept.text).toBe(201);
    const id = kept.body.data.id as string;
    for (const form of FORMS) {
      expectError(await browser.post('/webhooks', { url: url(form), events: [] }), 400, 'VALIDATION_ERROR', undefined, { field: 'url' });
      const edited = await browser.put(`/webhooks/${id}`, { url: url(form) });
      expectError(edited, 400, 'VALIDATION_ERROR', undefined, { field: 'url' });
      expect(edited.body.error.message, form).toMatch(REFUSED);
    }
    const list = await browser.get('/webhooks');
    expect(list.body.data.map((hook: { url: string }) => hook.url)).toEqual(['https://hooks.example.com/autosales']);
    expect(listener.connections()).toBe(before);
  });

  it('the preview API refuses every form at create and at update (400), and nothing connects', async () => {
    const before = listener.connections();
    const team = await rig.team();
    await rig.h.services.teams.setPreview(team.teamId, { enable: ['webhooks'] });
    const t = await rig.h.key(team.teamId, [...SCOPES]);
    const kept = await t.post('/webhooks', { url: 'https://hooks.example.com/api', events: [] });
    expect(kept.status, kept.text).toBe(201);
    for (const form of FORMS) {
      const created = await t.post('/webhooks', { url: url(form), events: [] });
      expectError(created, 400, 'VALIDATION_ERROR', undefined, { field: 'url' });
      expect(created.body.error.message, form).toMatch(REFUSED);
      expectError(await t.put(`/webhooks/${kept.body.data.id}`, { url: url(form) }), 400, 'VALIDATION_ERROR', undefined, { field: 'url' });
    }
    expect((await t.get('/webhooks')).body.data).toHaveLength(1);
    expect(listener.connections()).toBe(before);
  });

  it(
    'the CLI refuses every form with the message and a non-zero exit; WEBHOOK_ALLOW_PRIVATE_TARGETS=true accepts them',
    async () => {
      const before = listener.connections();
      const team = await rig.team();
      const create = (form: string, env: Record<string, string> = {}) =>
        runCli(rig.h.testDb.url, ['webhooks', 'create', '--team', team.teamId, '--url', url(form), '--json'], { env });
      for (const form of FORMS) {
        const refused = await create(form);
        expect(refused.code, `${form}\n${refused.stderr}`).toBe(1);
        expect(refused.stdout).toBe('');
        expect(refused.stderr.trim(), form).toMatch(
          /^error: A URL do webhook aponta para um endereço privado, de loopback ou reservado \(.+\); use um endereço público$/,
        );
      }
      expect(await rig.webhooks.list(team.teamId)).toEqual([]);

      // The operator's switch for local testing: accepted, with the note (the address in canonical form).
      const allowed = await runCli(rig.h.testDb.url, ['webhooks', 'create', '--team', team.teamId, '--url', url('2130706433')], {
        env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
      });
      expect(allowed.code, allowed.stderr).toBe(0);
      expect(allowed.stdout).toContain('Note: 127.0.0.1 is a private address.');
      expect(listener.connections()).toBe(before);
    },
    SLOW,
  );

  it('deliveries to targets that became blocked: `blocked` at once, no connection, no retry, the same log for an open and a closed port', async () => {
    const before = listener.connections();
    // Created while private targets were allowed (or while the name resolved elsewhere); the worker now refuses them.
    const allowing = createServices(rig.db, { clock: rig.clock, allowPrivateWebhookTargets: true });
    const team = await rig.team();
    const hooks = [];
    for (const form of FORMS) {
      const open = await allowing.webhooks.create({ teamId: team.teamId, url: url(form) });
      const closed = await allowing.webhooks.create({ teamId: team.teamId, url: url(form, closedPort) });
      hooks.push({ form, open, closed });
    }
    const guarded = rig.makeWorker({ allowPrivateTargets: false });
    expect((await team.post('/deals', { title: 'Alvo bloqueado' })).status).toBe(201);
    await rig.drain({ worker: guarded });
    // Later runs, well past every retry delay, find nothing to send.
    await rig.drain({ worker: guarded, until: () => false, maxRuns: 5 });

    for (const { form, open, closed } of hooks) {
      const [openLog, closedLog] = await Promise.all([rig.webhooks.attempts(open.id), rig.webhooks.attempts(closed.id)]);
      expect(openLog, form).toHaveLength(1);
      expect(openLog[0], form).toMatchObject({
        attempt: 1,
        error_class: 'blocked',
        status_code: null,
        response_body: null,
        next_attempt_at: null,
        duration_ms: 0,
      });
      const { attempted_at: _o, ...openEntry } = openLog[0]!;
      const { attempted_at: _c, ...closedEntry } = closedLog[0]!;
      expect(closedLog, form).toHaveLength(1);
      expect(closedEntry, form).toEqual(openEntry);

      for (const hook of [open, closed]) {
        const page = await rig.webhooks.deliveries(hook.id, 1, 10);
        expect(
          page.data.map((d) => [d.status, d.attempts_count, d.next_attempt_at]),
          form,
        ).toEqual([['failed', 1, null]]);
        const view = await rig.webhooks.get(hook.id);
        expect(view.status, form).toBe('disabled');
        expect(view.disabled_reason, form).toMatch(/^destino bloqueado: a URL aponta para um endereço privado/);
      }
    }
    expect(listener.connections()).toBe(before);
  });
});
