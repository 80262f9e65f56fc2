import { Command, Option } from 'commander';
import { BOARDS } from '../../domain/phases/phases.types.js';
import { checkBoard, parsePhaseList } from '../../domain/phases/phases.service.js';
import { LEAD_DISTRIBUTIONS } from '../../domain/leads/leads.types.js';
import { PLANS, PREVIEW_AREAS } from '../../domain/teams/teams.types.js';
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

  const areas = (value: string) =>
    value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);

  teams
    .command('preview')
    .description(`turn the preview of announced API areas on or off for one team (areas: ${PREVIEW_AREAS.join(', ')})`)
    .requiredOption('--team <team_id>', 'team id')
    .option('--enable <areas>', 'comma-separated areas to turn on', areas)
    .option('--disable <areas>', 'comma-separated areas to turn off', areas)
    .option('--json', 'print one JSON object')
    .action(async (opts: { team: string; enable?: string[]; disable?: string[]; json?: boolean }) => {
      if (!opts.enable?.length && !opts.disable?.length)
        throw new Error('use --enable and/or --disable with a comma-separated list of areas: ' + PREVIEW_AREAS.join(', '));
      const team = await withContext((ctx) => ctx.teams.setPreview(opts.team, { enable: opts.enable, disable: opts.disable }));
      print(!!opts.json, { id: team.id, preview: team.preview }, () =>
        [
          `Team ${team.id}: preview ${team.preview.length ? team.preview.join(', ') : '(none)'}`,
          team.preview.length ? '  Keys need the area scopes (e.g. financial:read,financial:write): autosales keys create --team ID --scopes …' : '',
        ]
          .filter(Boolean)
          .join('\n'),
      );
    });

  teams
    .command('time-zone')
    .description("set the team's time zone (IANA name; financial records become overdue at the end of their due date there)")
    .requiredOption('--team <team_id>', 'team id')
    .requiredOption('--zone <zone>', 'e.g. America/Sao_Paulo (the default), America/Manaus')
    .option('--json', 'print one JSON object')
    .action(async (opts: { team: string; zone: string; json?: boolean }) => {
      const team = await withContext(async (ctx) => {
        const found = await ctx.teams.find(opts.team);
        if (!found) throw new Error('Time não encontrado');
        await ctx.financial.setTeamTimeZone(found.id, opts.zone);
        return (await ctx.teams.find(found.id))!;
      });
      print(!!opts.json, { id: team.id, time_zone: team.time_zone }, () => `Team ${team.id}: time zone ${team.time_zone}`);
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
      print(!!opts.json, phases, () => table(phases, board === 'deals' ? ['position', 'name', 'label', 'probability'] : ['position', 'name', 'label']));
    });

  teams
    .command('settings')
    .description("show or change a team's settings: how leads are distributed, to whom when fixed, and the response target")
    .requiredOption('--team <team_id>', 'team id')
    .addOption(
      new Option('--lead-distribution <mode>', 'round_robin (among active people who take leads), fixed (one user) or none').choices(LEAD_DISTRIBUTIONS),
    )
    .option('--lead-user <user_id>', "the user who receives every lead with 'fixed'")
    .option('--response-minutes <n>', 'minutes after arrival the "Responder lead" call is due (default 15)', (v) => Number(v))
    .option('--json', 'print one JSON object')
    .action(async (opts: { team: string; leadDistribution?: string; leadUser?: string; responseMinutes?: number; json?: boolean }) => {
      const change = { distribution: opts.leadDistribution, user_id: opts.leadUser, response_minutes: opts.responseMinutes };
      const changing = Object.values(change).some((v) => v !== undefined);
      const leads = await withContext((ctx) => (changing ? ctx.leads.updateSettings(opts.team, change) : ctx.leads.settings(opts.team)));
      print(!!opts.json, { id: opts.team, leads }, () =>
        [
          `Team ${opts.team}`,
          `  lead distribution: ${leads.distribution}${leads.user_id ? ` (${leads.user_id})` : ''}`,
          `  response target:   ${leads.response_minutes} min`,
        ].join('\n'),
      );
    });

  return teams;
}
