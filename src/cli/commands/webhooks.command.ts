import { Command } from 'commander';
import type { WebhookView } from '../../domain/webhooks/webhooks.types.js';
import { withContext } from '../context.js';
import { print, table } from '../output.js';

const list = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

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
    .description('create a webhook (https:// only); prints its signing secret once')
    .requiredOption('--team <team_id>', 'team id')
    .requiredOption('--url <url>', 'https:// URL that receives the POSTs')
    .option('--events <types>', 'comma-separated event types, e.g. deal.created,deal.won (default: all)', list)
    .option('--json', 'print one JSON object')
    .action(async (opts: { team: string; url: string; events?: string[]; json?: boolean }) => {
      const hook = await withContext((ctx) => ctx.webhooks.create({ teamId: opts.team, url: opts.url, events: opts.events }));
      print(!!opts.json, hook, () => `${describe(hook)}\n\nSigning secret (store it now): ${hook.secret}`);
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
    .description('the attempt log, newest first: event, attempt, time, status or error, duration, response, next attempt')
    .argument('<webhook_id>', 'webhook id')
    .option('--limit <n>', 'how many attempts (default 100)', (v) => Number.parseInt(v, 10))
    .option('--json', 'print a JSON array')
    .action(async (id: string, opts: { limit?: number; json?: boolean }) => {
      if (opts.limit !== undefined && !(opts.limit > 0 && opts.limit <= 10_000)) throw new Error('--limit must be an integer from 1 to 10000');
      const rows = await withContext((ctx) => ctx.webhooks.attempts(id, opts.limit));
      print(!!opts.json, rows, () =>
        table(
          rows.map((r) => ({ ...r, result: r.error_class ? `${r.error_class}${r.status_code ? ` ${r.status_code}` : ''}` : String(r.status_code), response_body: r.response_body?.slice(0, 60).replace(/\s+/g, ' ') })),
          ['attempted_at', 'event_id', 'event_type', 'attempt', 'result', 'duration_ms', 'next_attempt_at', 'response_body'],
        ),
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
        [`Queued ${result.queued} event(s) for webhook ${result.webhook_id}.`, ...(result.status === 'disabled' ? ['The webhook is disabled: run `autosales webhooks enable` so they are sent.'] : [])].join('\n'),
      );
    });

  return webhooks;
}
