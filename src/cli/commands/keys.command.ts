import { Command } from 'commander';
import { DEFAULT_SCOPES, SCOPES } from '../../domain/teams/api-keys.types.js';
import { withContext } from '../context.js';
import { print, table } from '../output.js';

const list = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function keysCommand(): Command {
  const keys = new Command('keys').description('manage API keys (shown once, stored only as a hash)');

  keys
    .command('create')
    .description('create an API key for a team')
    .requiredOption('--team <team_id>', 'team id')
    .option('--name <name>', 'a label for the key')
    .option(
      '--scopes <scopes>',
      `comma-separated, of: ${SCOPES.join(',')} (default: ${DEFAULT_SCOPES.join(',')}; the financial, activities and webhooks scopes open preview areas)`,
      list,
    )
    .option('--json', 'print one JSON object')
    .action(async (opts: { team: string; name?: string; scopes?: string[]; json?: boolean }) => {
      const key = await withContext((ctx) => ctx.keys.create({ teamId: opts.team, name: opts.name, scopes: opts.scopes }));
      print(!!opts.json, key, () =>
        [`API key created: ${key.id}`, `  scopes: ${key.scopes.join(' ')}`, '', `  ${key.key}`, '', 'Store it now: it is not shown again.'].join('\n'),
      );
    });

  keys
    .command('list')
    .description("list a team's keys (prefix only, never the secret)")
    .requiredOption('--team <team_id>', 'team id')
    .option('--json', 'print a JSON array')
    .action(async (opts: { team: string; json?: boolean }) => {
      const rows = await withContext((ctx) => ctx.keys.list(opts.team));
      print(!!opts.json, rows, () =>
        table(
          rows.map((r) => ({ ...r, scopes: r.scopes.join(' ') })),
          ['id', 'name', 'prefix', 'scopes', 'created_at', 'revoked_at'],
        ),
      );
    });

  keys
    .command('revoke')
    .description('revoke a key: it stops working at once')
    .argument('<key_id>', 'key id')
    .option('--json', 'print one JSON object')
    .action(async (keyId: string, opts: { json?: boolean }) => {
      const key = await withContext((ctx) => ctx.keys.revoke(keyId));
      print(!!opts.json, key, () => `API key revoked: ${key.id} (${key.prefix}…)`);
    });

  return keys;
}
