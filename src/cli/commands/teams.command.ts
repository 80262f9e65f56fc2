import { Command, Option } from 'commander';
import { BOARDS } from '../../domain/phases/phases.types.js';
import { checkBoard, parsePhaseList } from '../../domain/phases/phases.service.js';
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

  teams
    .command('phases')
    .description("list or replace a team's board: the deal pipeline (with suggested probabilities) or the vehicle board")
    .requiredOption('--team <id>', 'team id')
    .addOption(new Option('--board <board>', 'which board').choices(BOARDS).makeOptionMandatory())
    .option('--set <phases>', 'replace the board, in order: "lead:10,qualificado:25,…" (deals) or "entrada,preparacao,…" (vehicles)')
    .option('--json', 'print a JSON array')
    .action(async (opts: { team: string; board: string; set?: string; json?: boolean }) => {
      const board = checkBoard(opts.board);
      const phases = await withContext((ctx) =>
        opts.set === undefined ? ctx.phases.list(opts.team, board) : ctx.phases.replace(opts.team, board, parsePhaseList(opts.set)),
      );
      print(!!opts.json, phases, () => table(phases, board === 'deals' ? ['position', 'name', 'probability'] : ['position', 'name']));
    });

  return teams;
}
