import { Command } from 'commander';
import { randomBytes } from 'node:crypto';
import { loadConfig, panelBaseUrl } from '../../config.js';
import type { CliContext } from '../context.js';
import { withContext } from '../context.js';
import { print } from '../output.js';

/** The demo team's name: `demo` finds its team again by it (the oldest team with this name). */
export const DEMO_TEAM_NAME = 'Auto Shopping Demo';
/** The demo's panel owner: signs in at / with the password the command prints. */
export const DEMO_OWNER_EMAIL = 'dono@loja-demo.com.br';

/**
 * The demo owner with a fresh random password (printed once): created on the first run, given a new
 * password on later runs (its earlier sessions end), since a password is never shown twice.
 */
async function demoOwner(ctx: CliContext, teamId: string): Promise<{ email: string; password: string; created: boolean }> {
  const password = `demo-${randomBytes(9).toString('base64url')}`;
  const existing = await ctx.users.findByEmail(teamId, DEMO_OWNER_EMAIL);
  if (existing) {
    await ctx.users.setPassword(teamId, existing.id, password);
    return { email: existing.email, password, created: false };
  }
  await ctx.users.create({ teamId, email: DEMO_OWNER_EMAIL, name: 'Dono da Loja Demo', role: 'owner', password });
  return { email: DEMO_OWNER_EMAIL, password, created: true };
}

/**
 * A small, realistic store: the same services the API uses, so the demo data is valid by construction.
 * Run again, it reuses its team (data left as it is) and prints a new key, since a key is shown only once.
 */
export function demoCommand(): Command {
  return new Command('demo')
    .description('create a demo team with an API key, clients and deals, and print a ready-to-paste curl command (run again: the same team, a new key)')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const result = await withContext(async (ctx) => {
        const existing = await ctx.teams.findByName(DEMO_TEAM_NAME);
        const team = existing ?? (await ctx.teams.create({ name: DEMO_TEAM_NAME, plan: 'professional' }));
        const key = await ctx.keys.create({ teamId: team.id, name: 'demo' });
        const owner = await demoOwner(ctx, team.id);
        if (existing) return { team, key: key.key, key_id: key.id, reused: true, clients: 0, deals: 0, owner };
        const { clients, deals } = ctx;
        const joao = await clients.create(team.id, {
          type: 'PF',
          name: 'João da Silva',
          email: 'joao.silva@example.com.br',
          mobile_phone: '(11) 98765-4321',
          whatsapp: '5511987654321',
          cpf: '529.982.247-25',
          segment: 'premium',
          source: 'instagram',
          address: { street: 'Rua Augusta', number: '1500', city: 'São Paulo', state: 'SP', zip_code: '01304-001', country: 'BR' },
        });
        const maria = await clients.create(team.id, {
          type: 'PF',
          name: 'Maria Conceição Araújo',
          email: 'maria.araujo@example.com.br',
          cpf: '111.444.777-35',
          gender: 'feminino',
          segment: 'vip',
          source: 'indicacao',
        });
        const frota = await clients.create(team.id, {
          type: 'PJ',
          name: 'Frota Rápida Logística',
          legal_name: 'Frota Rápida Logística Ltda',
          trade_name: 'Frota Rápida',
          cnpj: '11.222.333/0001-81',
          email: 'compras@frotarapida.example.com.br',
          segment: 'regular',
          credit_limit: 250000,
        });
        const samples = [
          { title: 'Honda Civic Touring 2023', value: 189900, phase: 'negociacao', client_id: joao.id, source: 'instagram', priority: 'alta' as const },
          { title: 'Jeep Compass Limited 2022', value: 164500, phase: 'proposta', client_id: maria.id, source: 'indicacao' },
          { title: '5 × Fiat Strada para frota', value: 545000, phase: 'qualificado', client_id: frota.id, source: 'parceiro', tags: ['frota', 'pj'] },
          { title: 'Volkswagen T-Cross 2021', value: 112000, phase: 'lead', source: 'portal', priority: 'baixa' as const },
        ];
        for (const sample of samples) await deals.create(team.id, sample);
        return { team, key: key.key, key_id: key.id, reused: false, clients: 3, deals: samples.length, owner };
      });
      const config = loadConfig();
      const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
      const curl = `curl -s ${base}/api/v1/deals -H "Authorization: Bearer ${result.key}"`;
      const panelUrl = `${panelBaseUrl(config)}/`;
      const panel = { url: panelUrl, email: result.owner.email, password: result.owner.password };
      print(!!opts.json, { team_id: result.team.id, key_id: result.key_id, key: result.key, curl, reused: result.reused, panel }, () =>
        [
          `Demo team "${result.team.name}" (${result.team.id}), plan ${result.team.plan}`,
          ...(result.reused
            ? [
                'The demo team already existed: reused it, its clients and deals left as they are.',
                `A new key was created; earlier demo keys still work (autosales keys list --team ${result.team.id}; revoke with autosales keys revoke KEY_ID).`,
              ]
            : [`Created ${result.clients} clients and ${result.deals} deals.`]),
          '',
          `API key (shown once): ${result.key}`,
          '',
          'With the server running (npm start), try:',
          `  ${curl}`,
          '',
          `Panel: open ${panelUrl} in a browser and sign in as the demo owner (shown once):`,
          `  e-mail: ${result.owner.email}`,
          `  senha:  ${result.owner.password}`,
          ...(result.owner.created ? [] : ['  (a new password: the earlier one no longer works, and its sessions ended)']),
        ].join('\n'),
      );
    });
}
