import { Command, Option } from 'commander';
import { PLANS } from '../../domain/teams/teams.types.js';
import { withContext } from '../context.js';
import { print, table } from '../output.js';

export function teamsCommand(): Command {
  const teams = new Command('teams').description('manage teams (a dealership or shopping centre and its pipeline)');

  teams
    .command('create')
    .description('create a team with the default pipeline phases')
    .requiredOption('--name <name>', 'team name')
    .addOption(new Option('--plan <plan>', 'plan').choices(PLANS).default('starter'))
    .option('--alert-email <email>', 'address that receives operational alerts')
    .option('--json', 'print one JSON object')
    .action(async (opts: { name: string; plan: string; alertEmail?: string; json?: boolean }) => {
      const team = await withContext((ctx) => ctx.teams.create({ name: opts.name, plan: opts.plan, alertEmail: opts.alertEmail ?? null }));
      print(!!opts.json, team, () =>
        [`Team created: ${team.id}`, `  name:  ${team.name}`, `  plan:  ${team.plan}`, `  phases: ${team.phases.map((p) => p.name).join(', ')}`].join('\n'),
      );
    });

  teams
    .command('list')
    .description('list teams')
    .option('--json', 'print a JSON array')
    .action(async (opts: { json?: boolean }) => {
      const list = await withContext((ctx) => ctx.teams.list());
      print(!!opts.json, list, () => table(list, ['id', 'name', 'plan', 'alert_email', 'created_at']));
    });

  return teams;
}
