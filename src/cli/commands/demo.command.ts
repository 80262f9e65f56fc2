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
    .description(
      'create a demo team with an API key, clients, deals and vehicles, and print a ready-to-paste curl command (run again: the same team, a new key)',
    )
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const result = await withContext(async (ctx) => {
        const existing = await ctx.teams.findByName(DEMO_TEAM_NAME);
        const team = existing ?? (await ctx.teams.create({ name: DEMO_TEAM_NAME, plan: 'professional' }));
        const key = await ctx.keys.create({ teamId: team.id, name: 'demo' });
        const owner = await demoOwner(ctx, team.id);
        if (existing) return { team, key: key.key, key_id: key.id, reused: true, clients: 0, deals: 0, vehicles: 0, owner, activities: 0, records: 0 };
        const { clients, deals } = ctx;
        // Two stores of the team: the cars are in one or the other (a record's store_id names a store).
        const centro = await ctx.stores.create(team.id, { name: 'Loja Centro', cnpj: '11.222.333/0001-81' });
        const shopping = await ctx.stores.create(team.id, { name: 'Loja Shopping' });
        // The stock: valid plates (old and Mercosul forms), RENAVAMs and chassis.
        const cars = [
          {
            title: 'Chevrolet Onix LT 1.0 Turbo 2022',
            brand: 'Chevrolet',
            model: 'Onix',
            version: 'LT 1.0 Turbo',
            plate: 'BRA2E19',
            renavam: '86769597308',
            chassis: '9BGEA48A0NG123456',
            manufacture_year: 2021,
            model_year: 2022,
            mileage: 38500,
            color: 'Prata',
            fuel: 'flex' as const,
            transmission: 'automatico' as const,
            body_type: 'hatch' as const,
            doors: 4,
            condition: 'seminovo' as const,
            fipe_code: '004462-5',
            price: 82900,
            purchase_price: 71000,
            phase: 'disponivel',
            features: ['ar-condicionado', 'central multimídia', 'câmera de ré'],
            store_id: centro.id,
          },
          {
            title: 'Hyundai HB20 Comfort 1.0 2020',
            brand: 'Hyundai',
            model: 'HB20',
            version: 'Comfort 1.0',
            plate: 'FJK-3481',
            renavam: '35298206229',
            manufacture_year: 2020,
            model_year: 2020,
            mileage: 61200,
            color: 'Branco',
            fuel: 'flex' as const,
            transmission: 'manual' as const,
            body_type: 'hatch' as const,
            doors: 4,
            condition: 'usado' as const,
            price: 64900,
            purchase_price: 55000,
            phase: 'preparacao',
            store_id: centro.id,
          },
          {
            title: 'Toyota Corolla XEi 2.0 2024',
            brand: 'Toyota',
            model: 'Corolla',
            version: 'XEi 2.0',
            plate: 'RTA1B23',
            renavam: '01234567897',
            chassis: '9BRBDWHE0R0654321',
            manufacture_year: 2023,
            model_year: 2024,
            mileage: 12000,
            color: 'Cinza',
            fuel: 'flex' as const,
            transmission: 'cvt' as const,
            body_type: 'sedan' as const,
            doors: 4,
            condition: 'seminovo' as const,
            price: 154900,
            purchase_price: 139000,
            phase: 'disponivel',
            tags: ['destaque'],
            store_id: centro.id,
          },
          {
            title: 'Jeep Compass Limited 1.3 Turbo 2022',
            brand: 'Jeep',
            model: 'Compass',
            version: 'Limited 1.3 Turbo',
            plate: 'QOX-7D52',
            renavam: '54871236906',
            manufacture_year: 2022,
            model_year: 2022,
            mileage: 45300,
            color: 'Preto',
            fuel: 'flex' as const,
            transmission: 'automatico' as const,
            body_type: 'suv' as const,
            doors: 4,
            condition: 'seminovo' as const,
            price: 164500,
            purchase_price: 148000,
            phase: 'reservado',
            store_id: shopping.id,
          },
          {
            title: 'Fiat Strada Freedom 1.3 Cabine Dupla 2025',
            brand: 'Fiat',
            model: 'Strada',
            version: 'Freedom 1.3 CD',
            renavam: '98123456704',
            manufacture_year: 2025,
            model_year: 2025,
            mileage: 0,
            color: 'Vermelho',
            fuel: 'flex' as const,
            transmission: 'manual' as const,
            body_type: 'picape' as const,
            doors: 4,
            condition: 'novo' as const,
            price: 119990,
            phase: 'entrada',
            tags: ['frota'],
            store_id: shopping.id,
          },
        ];
        const stock = [];
        for (const car of cars) stock.push(await ctx.vehicles.create(team.id, car));
        const compass = stock[3]!;
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
          { title: 'Jeep Compass Limited 2022', value: 164500, phase: 'proposta', client_id: maria.id, source: 'indicacao', case_id: compass.id },
          { title: '5 × Fiat Strada para frota', value: 545000, phase: 'qualificado', client_id: frota.id, source: 'parceiro', tags: ['frota', 'pj'] },
          { title: 'Volkswagen T-Cross 2021', value: 112000, phase: 'lead', source: 'portal', priority: 'baixa' as const },
        ];
        const created = [];
        for (const sample of samples) created.push(await deals.create(team.id, sample));
        const agenda = await demoAgenda(ctx, team.id, { clientId: joao.id, dealId: created[0]!.id, vehicleId: stock[0]!.id });
        return { team, key: key.key, key_id: key.id, reused: false, clients: 3, deals: samples.length, vehicles: stock.length, owner, ...agenda };
      });
      const config = loadConfig();
      // The address `serve` answers at with this environment (PUBLIC_URL, else HOST and PORT): the API and the panel share it.
      const base = panelBaseUrl(config);
      const curl = `curl -s ${base}/api/v1/deals -H "Authorization: Bearer ${result.key}"`;
      const panelUrl = `${base}/`;
      const panel = { url: panelUrl, email: result.owner.email, password: result.owner.password };
      print(!!opts.json, { team_id: result.team.id, key_id: result.key_id, key: result.key, curl, reused: result.reused, panel }, () =>
        [
          `Demo team "${result.team.name}" (${result.team.id}), plan ${result.team.plan}`,
          ...(result.reused
            ? [
                'The demo team already existed: reused it, its clients, deals and vehicles left as they are.',
                `A new key was created; earlier demo keys still work (autosales keys list --team ${result.team.id}; revoke with autosales keys revoke KEY_ID).`,
              ]
            : [
                `Created ${result.clients} clients, ${result.deals} deals and ${result.vehicles} vehicles.`,
                `Also ${result.activities} activities and ${result.records} financial records (API preview: autosales teams preview --team ${result.team.id} --enable financial,activities).`,
              ]),
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

/** The demo store's agenda and cash book (issue 12), relative to today so due times stay meaningful. */
async function demoAgenda(
  ctx: CliContext,
  teamId: string,
  links: { clientId: string; dealId: string; vehicleId: string },
): Promise<{ activities: number; records: number }> {
  const now = ctx.clock.now().getTime();
  const day = (offset: number) => new Date(now + offset * 86_400_000).toISOString().slice(0, 10);
  const at = (hours: number) => new Date(now + hours * 3_600_000).toISOString();
  const activities = [
    {
      type: 'call' as const,
      title: 'Ligar para João sobre o financiamento do Civic',
      due_at: at(20),
      client_id: links.clientId,
      deal_id: links.dealId,
      priority: 'alta' as const,
    },
    { type: 'meeting' as const, title: 'Test drive do Compass com Maria', due_at: at(72) },
    { type: 'note' as const, title: 'Frota Rápida prefere contato por e-mail' },
  ];
  for (const a of activities) await ctx.activities.create(teamId, a);
  const records = [
    { type: 'revenue' as const, category: 'comissao', description: 'Comissão de financiamento (banco parceiro)', amount: 3250.5, due_date: day(10) },
    { type: 'expense' as const, category: 'aluguel', description: 'Aluguel do salão', amount: 18500, due_date: day(5) },
    {
      type: 'expense' as const,
      category: 'marketing',
      description: 'Anúncios em portais',
      amount: 2990.9,
      due_date: day(-3),
      status: 'paid' as const,
      payment_method: 'cartao' as const,
    },
    { type: 'cost' as const, category: 'higienizacao', description: 'Higienização do Onix', amount: 450, due_date: day(2), vehicle_id: links.vehicleId },
    { type: 'revenue' as const, category: 'venda-veiculo', description: 'Venda do Onix LT', amount: 82900, due_date: day(15), vehicle_id: links.vehicleId },
  ];
  for (const r of records) await ctx.financial.create(teamId, r);
  return { activities: activities.length, records: records.length };
}
