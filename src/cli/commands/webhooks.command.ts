import { Command } from 'commander';
import type { WebhookView } from '../../domain/webhooks/webhooks.types.js';
import { isBlockedHost, targetHostOf } from '../../domain/webhooks/target-guard.js';
import { withContext } from '../context.js';
import { print, table } from '../output.js';

const list = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * What each failure class of the attempt log means and what to do about it: `error_detail` in
 * `attempts --json`, and a note under the table for each class it shows.
 */
export const ATTEMPT_ERROR_DETAILS: Readonly<Record<string, string>> = {
  blocked:
    'blocked: the target resolves to a private, loopback or link-local address, which webhooks may not reach (not retried; the webhook is disabled); for local testing set WEBHOOK_ALLOW_PRIVATE_TARGETS=true on the serve/worker process that delivers, then enable the webhook and resend',
  tls: 'tls: the TLS handshake failed (certificate not trusted, expired or for another host name); for a receiver with a self-signed certificate set NODE_EXTRA_CA_CERTS=/path/to/its-cert.pem on the serve/worker process',
  dns: 'dns: the host name of the URL does not resolve',
  connection: 'connection: the connection was refused, reset or closed before an answer (is the receiver listening on that host and port?)',
  timeout: 'timeout: no answer within the delivery timeout (WEBHOOK_TIMEOUT_MS, 5 s by default)',
  redirect: 'redirect: the receiver answered 3xx; redirects are never followed, so configure the final URL',
  http: 'http: the receiver answered with a status outside 2xx (its response body is kept, first 2 KB)',
};

/**
 * A heads-up when the URL names a private host outright (localhost, a private IP in any notation), which
 * only WEBHOOK_ALLOW_PRIVATE_TARGETS=true lets `create` accept; names resolving to one are caught at delivery.
 */
function privateTargetNote(url: string): string[] {
  const parsed = new URL(url);
  const host = targetHostOf(parsed);
  return isBlockedHost(parsed.hostname)
    ? [
        '',
        `Note: ${host} is a private address. Deliveries to it are blocked unless the serve/worker process runs with WEBHOOK_ALLOW_PRIVATE_TARGETS=true (local testing only).`,
      ]
    : [];
}

const describe = (hook: WebhookView) =>
  [
    `Webhook ${hook.id}`,
    `  url:    ${hook.url}`,
    `  events: ${hook.events.length ? hook.events.join(', ') : '(all)'}`,
    `  status: ${hook.status}${hook.disabled_reason ? ` (${hook.disabled_reason})` : ''}`,
  ].join('\n');

/** Settings > Webhooks of the product panel, for operators (the public /api/v1/webhooks stays 501). */
export function webhooksCommand(): Command {
  const webhooks = new Command('webhooks').description('manage webhooks: signed HTTPS deliveries of deal and client events');

  webhooks
    .command('create')
    .description(
      'create a webhook (https:// only; a private, loopback or link-local host is refused unless WEBHOOK_ALLOW_PRIVATE_TARGETS=true); prints its signing secret once',
    )
    .requiredOption('--team <team_id>', 'team id')
    .requiredOption('--url <url>', 'https:// URL that receives the POSTs')
    .option('--events <types>', 'comma-separated event types, e.g. deal.created,deal.won (default: all)', list)
    .option('--json', 'print one JSON object')
    .action(async (opts: { team: string; url: string; events?: string[]; json?: boolean }) => {
      const hook = await withContext((ctx) => ctx.webhooks.create({ teamId: opts.team, url: opts.url, events: opts.events }));
      print(!!opts.json, hook, () => [`${describe(hook)}\n\nSigning secret (store it now): ${hook.secret}`, ...privateTargetNote(hook.url)].join('\n'));
    });

  webhooks
    .command('list')
    .description("list a team's webhooks (never the secrets)")
    .requiredOption('--team <team_id>', 'team id')
    .option('--json', 'print a JSON array')
    .action(async (opts: { team: string; json?: boolean }) => {
      const rows = await withContext((ctx) => ctx.webhooks.list(opts.team));
      print(!!opts.json, rows, () =>
        table(
          rows.map((r) => ({ ...r, events: r.events.join(',') || '(all)' })),
          ['id', 'url', 'events', 'status', 'disabled_reason', 'created_at'],
        ),
      );
    });

  for (const [name, status] of [
    ['enable', 'enabled'],
    ['disable', 'disabled'],
  ] as const) {
    webhooks
      .command(name)
      .description(status === 'enabled' ? 'enable a webhook (then `recover` sends what it missed)' : 'disable a webhook: it receives nothing until enabled')
      .argument('<webhook_id>', 'webhook id')
      .option('--json', 'print one JSON object')
      .action(async (id: string, opts: { json?: boolean }) => {
        const hook = await withContext((ctx) => ctx.webhooks.setStatus(id, status));
        print(!!opts.json, hook, () => describe(hook));
      });
  }

  webhooks
    .command('rotate-secret')
    .description('replace the signing secret (the next attempt is signed with the new one)')
    .argument('<webhook_id>', 'webhook id')
    .option('--json', 'print one JSON object')
    .action(async (id: string, opts: { json?: boolean }) => {
      const hook = await withContext((ctx) => ctx.webhooks.rotateSecret(id));
      print(!!opts.json, hook, () => `${describe(hook)}\n\nNew signing secret (store it now): ${hook.secret}`);
    });

  webhooks
    .command('attempts')
    .description('the attempt log, newest first: event, attempt, time, status or error (explained), duration, response, next attempt')
    .argument('<webhook_id>', 'webhook id')
    .option('--limit <n>', 'how many attempts (default 100)', (v) => Number.parseInt(v, 10))
    .option('--json', 'print a JSON array')
    .action(async (id: string, opts: { limit?: number; json?: boolean }) => {
      if (opts.limit !== undefined && !(opts.limit > 0 && opts.limit <= 10_000)) throw new Error('--limit must be an integer from 1 to 10000');
      const rows = (await withContext((ctx) => ctx.webhooks.attempts(id, opts.limit))).map((r) => ({
        ...r,
        error_detail: r.error_class ? (ATTEMPT_ERROR_DETAILS[r.error_class] ?? null) : null,
      }));
      const notes = [...new Set(rows.flatMap((r) => (r.error_detail ? [r.error_detail] : [])))];
      print(!!opts.json, rows, () =>
        [
          table(
            rows.map((r) => ({
              ...r,
              result: r.error_class ? `${r.error_class}${r.status_code ? ` ${r.status_code}` : ''}` : String(r.status_code),
              response_body: r.response_body?.slice(0, 60).replace(/\s+/g, ' '),
            })),
            ['attempted_at', 'event_id', 'event_type', 'attempt', 'result', 'duration_ms', 'next_attempt_at', 'response_body'],
          ),
          ...(notes.length ? ['', ...notes] : []),
        ].join('\n'),
      );
    });

  webhooks
    .command('resend')
    .description('send one event again (to one webhook, or to every enabled webhook of its team that takes it)')
    .argument('<event_id>', 'event id (evt_…)')
    .option('--webhook <webhook_id>', 'only this webhook')
    .option('--json', 'print one JSON object')
    .action(async (eventId: string, opts: { webhook?: string; json?: boolean }) => {
      const result = await withContext((ctx) => ctx.webhooks.resend(eventId, opts.webhook));
      print(!!opts.json, result, () => `Queued ${result.event_id} for ${result.webhook_ids.length} webhook(s): ${result.webhook_ids.join(', ') || '-'}`);
    });

  webhooks
    .command('recover')
    .description('queue every event since a time that the webhook did not receive (after re-enabling it)')
    .argument('<webhook_id>', 'webhook id')
    .requiredOption('--since <iso_time>', 'ISO 8601 time, e.g. 2026-11-22T10:00:00Z')
    .option('--json', 'print one JSON object')
    .action(async (id: string, opts: { since: string; json?: boolean }) => {
      const result = await withContext((ctx) => ctx.webhooks.recover(id, opts.since));
      print(!!opts.json, result, () =>
        [
          `Queued ${result.queued} event(s) for webhook ${result.webhook_id}.`,
          ...(result.status === 'disabled' ? ['The webhook is disabled: run `autosales webhooks enable` so they are sent.'] : []),
        ].join('\n'),
      );
    });

  return webhooks;
}
