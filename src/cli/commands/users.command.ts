import { Command, Option } from 'commander';
import { loadConfig, panelBaseUrl } from '../../config.js';
import { ROLES } from '../../domain/users/users.types.js';
import { withContext } from '../context.js';
import { print, table } from '../output.js';

/** The panel page where a one-time link sets a password (the panel app's route). */
export const setPasswordUrl = (token: string): string => `${panelBaseUrl(loadConfig())}/definir-senha/${token}`;

export function usersCommand(): Command {
  const users = new Command('users').description('manage the people who sign in to the panel (owner, manager, seller)');

  users
    .command('create')
    .description('create a panel user; without --password, print a one-time link to choose one (valid 72 hours)')
    .requiredOption('--team <team_id>', 'team id')
    .requiredOption('--email <email>', 'e-mail (the sign-in name; unique)')
    .requiredOption('--name <name>', 'full name')
    .addOption(new Option('--role <role>', 'role').choices(ROLES).default('seller'))
    .option('--password <password>', 'initial password (10+ characters); prefer the link, which keeps it out of shell history')
    .addOption(
      new Option('--takes-leads <bool>', 'whether the round-robin gives them leads (default: true for sellers, false otherwise)').choices(['true', 'false']),
    )
    .option('--json', 'print one JSON object')
    .action(async (opts: { team: string; email: string; name: string; role: string; password?: string; takesLeads?: string; json?: boolean }) => {
      const takesLeads = opts.takesLeads === undefined ? undefined : opts.takesLeads === 'true';
      const { user, link } = await withContext((ctx) =>
        ctx.users.create({ teamId: opts.team, email: opts.email, name: opts.name, role: opts.role, password: opts.password, takesLeads }),
      );
      const url = link ? setPasswordUrl(link.token) : null;
      print(!!opts.json, { ...user, set_password_url: url, set_password_expires_at: link?.expires_at ?? null }, () =>
        [
          `User created: ${user.id}`,
          `  e-mail: ${user.email}`,
          `  name:   ${user.name}`,
          `  role:   ${user.role}`,
          `  leads:  ${user.takes_leads ? 'takes leads' : 'does not take leads'}`,
          '',
          url ? `Open this link to choose a password (works once, until ${link!.expires_at}):\n  ${url}` : `Sign in at ${panelBaseUrl(loadConfig())}/`,
        ].join('\n'),
      );
    });

  users
    .command('list')
    .description("list a team's users")
    .requiredOption('--team <team_id>', 'team id')
    .option('--json', 'print a JSON array')
    .action(async (opts: { team: string; json?: boolean }) => {
      const rows = await withContext((ctx) => ctx.users.list(opts.team));
      print(!!opts.json, rows, () => table(rows, ['id', 'email', 'name', 'role', 'active', 'has_password', 'takes_leads', 'created_at']));
    });

  users
    .command('password-link')
    .description('print a new one-time link for a user to (re)set their password (earlier links stop working)')
    .requiredOption('--team <team_id>', 'team id')
    .argument('<user_id>', 'user id')
    .option('--json', 'print one JSON object')
    .action(async (userId: string, opts: { team: string; json?: boolean }) => {
      const link = await withContext((ctx) => ctx.users.passwordLink(opts.team, userId));
      const url = setPasswordUrl(link.token);
      print(!!opts.json, { user_id: userId, set_password_url: url, expires_at: link.expires_at }, () => `Works once, until ${link.expires_at}:\n  ${url}`);
    });

  return users;
}
