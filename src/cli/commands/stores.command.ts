import { Command } from 'commander';
import { withContext } from '../context.js';
import { print, table } from '../output.js';

/** `autosales stores`: a team's stores (DECISIONS "Stores"); the API only reads them. */
export function storesCommand(): Command {
  const stores = new Command('stores').description("manage a team's stores (a record's store_id names one)");

  stores
    .command('create')
    .description('create a store')
    .requiredOption('--team <team_id>', 'team id')
    .requiredOption('--name <name>', 'the store name')
    .option('--cnpj <cnpj>', 'CNPJ (check digits verified; unique in the team)')
    .option('--phone <phone>', 'phone')
    .option('--whatsapp <whatsapp>', 'WhatsApp')
    .option('--email <email>', 'e-mail')
    .option('--json', 'print one JSON object')
    .action(async (opts: { team: string; name: string; cnpj?: string; phone?: string; whatsapp?: string; email?: string; json?: boolean }) => {
      const store = await withContext((ctx) =>
        ctx.stores.create(opts.team, { name: opts.name, cnpj: opts.cnpj, phone: opts.phone, whatsapp: opts.whatsapp, email: opts.email }),
      );
      print(!!opts.json, store, () => `Store created: ${store.id} (${store.name})`);
    });

  stores
    .command('list')
    .description("list a team's stores, in name order")
    .requiredOption('--team <team_id>', 'team id')
    .option('--json', 'print a JSON array')
    .action(async (opts: { team: string; json?: boolean }) => {
      const rows = await withContext(async (ctx) => {
        const team = await ctx.teams.find(opts.team);
        return team ? ctx.stores.all(team.id) : [];
      });
      print(!!opts.json, rows, () => table(rows, ['id', 'name', 'cnpj', 'status', 'created_at']));
    });

  stores
    .command('deactivate')
    .description('deactivate a store: it keeps its records and takes no new ones')
    .requiredOption('--team <team_id>', 'team id')
    .requiredOption('--store <store_id>', 'store id')
    .option('--json', 'print one JSON object')
    .action(async (opts: { team: string; store: string; json?: boolean }) => {
      const store = await withContext(async (ctx) => {
        const team = await ctx.teams.find(opts.team);
        return ctx.stores.deactivate(team?.id ?? opts.team, opts.store);
      });
      print(!!opts.json, store, () => `Store deactivated: ${store.id} (${store.name})`);
    });

  return stores;
}
