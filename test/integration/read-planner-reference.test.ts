import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITIES } from '../../src/domain/activities/activities.resource.js';
import { CLIENTS } from '../../src/domain/clients/clients.resource.js';
import { DEALS } from '../../src/domain/deals/deals.resource.js';
import { FINANCIAL_RECORDS } from '../../src/domain/financial/financial.resource.js';
import { createReadPlanner } from '../../src/domain/reads/read-planner.repository.js';
import type { ListQuery, ResourceDescription } from '../../src/domain/reads/resource.js';
import { teamScope } from '../../src/domain/reads/scope.js';
import { containsPattern, foldText } from '../../src/domain/shared/text-search.js';
import { VEHICLES } from '../../src/domain/vehicles/vehicles.resource.js';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';

/**
 * Every read path of the planner (read-planner.repository.ts) against one plain reference query, per
 * resource, on both databases. The reference is built from the resource's description alone: the
 * team's rows, the status (or the listed rows), each filter as its rule says, the search as "the
 * record's folded text holds the folded words", ordered by the sort with nulls last and ties by id,
 * then LIMIT/OFFSET, and its total a plain count. Each request below is shaped to take one path
 * of the planner (named in its label):
 * - status: the status-only page, compiled, first page with a literal limit (`first`) or not (`page 2`);
 * - deep: from offset 100 on, the page's ids first and then their rows;
 * - listed search: a search of the listed rows only (deals, clients, vehicles), page and total in one
 *   statement on SQLite's FTS or PostgreSQL's date-ordered walk; `like`: words too short for the index;
 * - exact: a whole CPF (clients) or plate (vehicles);
 * - filtered / range: a filter (SQLite: the range's count decides how its page is read), the price range
 *   alone (vehicles: the total from the price buckets);
 * - board order: vehicles by the pipeline's phase positions.
 * The other team's rows are the same words and values: nothing of it may appear.
 */

const SIZE = 130;
const SCOPES = ['deals', 'clients', 'vehicles', 'activities', 'financial'].flatMap((r) => [`${r}:read`, `${r}:write`]);
const WORDS = ['onix', 'civic', 'hilux', 'corolla', 'kwid'];

function cpf(n: number): string {
  const base = String(100000000 + n * 7919)
    .slice(-9)
    .split('')
    .map(Number);
  const digit = (digits: number[]) => {
    const sum = digits.reduce((s, d, i) => s + d * (digits.length + 1 - i), 0);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  const d1 = digit(base);
  const d2 = digit([...base, d1]);
  return [...base, d1, d2].join('');
}

const plate = (n: number) => `ABC${n % 10}${String.fromCharCode(65 + (n % 26))}${String(n % 100).padStart(2, '0')}`;
const day = (n: number) => `2026-${String(1 + (n % 12)).padStart(2, '0')}-${String(1 + (n % 28)).padStart(2, '0')}`;

type Shape = { label: string; q: Partial<ListQuery> & { sort?: ListQuery['sort'] } };

const page = (n: number, limit = 20) => ({ page: n, limit, offset: (n - 1) * limit });

async function seed(t: Caller): Promise<void> {
  const ok = (res: { status: number; text: string }) => expect(res.status, res.text).toBeLessThan(300);
  const clients: string[] = [];
  for (let i = 0; i < SIZE; i++) {
    const w = WORDS[i % WORDS.length];
    const res = await t.post('/clients', {
      name: `Cliente ${w} ${i}`,
      type: 'PF',
      cpf: cpf(i + 1),
      segment: i % 7 === 0 ? undefined : ['vip', 'premium', 'regular', 'occasional'][i % 4],
    });
    ok(res);
    clients.push(res.body.data.id);
    if (i % 9 === 0) ok(await t.delete(`/clients/${res.body.data.id}`));
  }
  for (let i = 0; i < SIZE; i++) {
    const w = WORDS[i % WORDS.length];
    const res = await t.post('/deals', {
      title: `${w} negócio ${i}`,
      value: i % 6 === 0 ? undefined : 1000 + ((i * 37) % 50) * 1000,
      source: ['site', 'indicacao', 'whatsapp'][i % 3],
      client_id: i % 4 === 0 ? clients[i] : undefined,
      expected_close_date: i % 5 === 0 ? undefined : day(i),
    });
    ok(res);
    if (i % 8 === 0) ok(await t.put(`/deals/${res.body.data.id}`, { status: 'arquivado' }));
    else if (i % 11 === 0) ok(await t.put(`/deals/${res.body.data.id}`, { status: 'ganho' }));
  }
  for (let i = 0; i < SIZE; i++) {
    const w = WORDS[i % WORDS.length];
    const res = await t.post('/vehicles', {
      title: `Carro ${w} ${i}`,
      brand: ['Chevrolet', 'Honda', 'Toyota'][i % 3],
      model: w,
      price: i % 10 === 0 ? undefined : 30000 + ((i * 53) % 90) * 1000,
      model_year: 2010 + (i % 15),
      mileage: (i * 3571) % 150000,
      plate: plate(i),
      fuel: ['flex', 'gasolina', 'diesel'][i % 3],
    });
    ok(res);
    if (i % 8 === 0) ok(await t.put(`/vehicles/${res.body.data.id}`, { status: 'arquivado' }));
    else if (i % 7 === 0) ok(await t.put(`/vehicles/${res.body.data.id}`, { status: 'vendido' }));
  }
  for (let i = 0; i < SIZE; i++) {
    const w = WORDS[i % WORDS.length];
    const res = await t.post('/activities', {
      type: ['task', 'call', 'meeting'][i % 3],
      title: `Ligar ${w} ${i}`,
      due_at: `${day(i)}T1${i % 10}:00:00Z`,
      priority: ['baixa', 'media', 'alta'][i % 3],
    });
    ok(res);
    if (i % 8 === 0) ok(await t.delete(`/activities/${res.body.data.id}`));
  }
  for (let i = 0; i < SIZE; i++) {
    const w = WORDS[i % WORDS.length];
    const [type, category] = (
      [
        ['revenue', 'comissao'],
        ['expense', 'marketing'],
        ['cost', 'mecanica'],
      ] as const
    )[i % 3]!;
    const res = await t.post('/financial', { type, category, description: `Lançamento ${w} ${i}`, amount: 100 + i, due_date: day(i) });
    ok(res);
    if (i % 8 === 0) ok(await t.delete(`/financial/${res.body.data.id}`));
  }
}

/** The reference: one plain statement from the description (no compiled page, index hint, counter or walk). */
async function reference(h: Harness, d: ResourceDescription, teamId: string, q: ListQuery): Promise<{ ids: string[]; total: number }> {
  const t = d.table;
  const conditions = [sql`${sql.ref(`${t}.team_id`)} = ${teamId}`];
  if (q.status) conditions.push(sql`${sql.ref(`${t}.status`)} = ${q.status}`);
  else if ('equals' in d.listed.rule) conditions.push(sql`${sql.ref(`${t}.status`)} = ${d.listed.rule.equals}`);
  else conditions.push(sql`${sql.ref(`${t}.status`)} != ${d.listed.rule.notEquals}`);
  for (const [name, value] of Object.entries(q.filters)) {
    if (value === undefined) continue;
    const rule = d.filters[name]!;
    conditions.push(sql`${sql.ref(`${t}.${rule.column}`)} ${sql.raw(rule.op)} ${value}`);
    if (rule.statusIn) conditions.push(sql`${sql.ref(`${t}.status`)} in (${sql.join(rule.statusIn)})`);
  }
  if (q.search !== undefined) {
    const digits = q.search.replace(/\D/g, '');
    const forms = [foldText(q.search), ...(d.search?.exact === 'tax-number' && digits.length >= 11 ? [digits] : [])];
    conditions.push(
      sql`(${sql.join(
        forms.map((f) => sql`${sql.ref(`${t}.search_text`)} like ${containsPattern(f)} escape '\\'`),
        sql` or `,
      )})`,
    );
  }
  const where = sql.join(conditions, sql` and `);
  const rule = d.sort[q.sort.field]!;
  const dir = sql.raw(q.sort.direction);
  const by =
    'column' in rule
      ? sql`${sql.ref(`${t}.${rule.column}`)} ${dir} nulls last, ${sql.ref(`${t}.id`)} ${dir}`
      : rule.phasePosition === 'team_phases'
        ? sql`(select p.position from team_phases p where p.team_id = ${sql.ref(`${t}.team_id`)} and p.name = ${sql.ref(`${t}.phase`)}) ${dir} nulls last, ${sql.ref(`${t}.id`)} ${dir}`
        : sql`(select p.position from vehicle_phases p where p.team_id = ${sql.ref(`${t}.team_id`)} and p.name = ${sql.ref(`${t}.phase`)}) ${dir}, ${sql.ref(`${t}.phase`)} ${dir}, ${sql.ref(`${t}.created_at`)} ${dir}, ${sql.ref(`${t}.id`)} ${dir}`;
  const kysely = h.testDb.db.kysely;
  const { rows } = await sql<{
    id: string;
  }>`select ${sql.ref(`${t}.id`)} as id from ${sql.table(t)} where ${where} order by ${by} limit ${q.page.limit} offset ${q.page.offset}`.execute(kysely);
  const { rows: counted } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(t)} where ${where}`.execute(kysely);
  return { ids: rows.map((r) => r.id), total: Number(counted[0]!.n) };
}

/** A word every record of the resource has (its deep searches). */
const EVERY = { deals: 'negocio', clients: 'cliente', vehicles: 'carro', activities: 'ligar', financial_records: 'lancamento' } as const;

function shapes(d: ResourceDescription, extra: Shape[]): Shape[] {
  const out: Shape[] = [];
  for (const field of Object.keys(d.sort))
    for (const direction of ['asc', 'desc'] as const) {
      out.push({ label: `status, first page, ${field} ${direction}`, q: { sort: { field, direction }, page: page(1) } });
      out.push({ label: `status, page 2, ${field} ${direction}`, q: { sort: { field, direction }, page: page(2, 15) } });
      out.push({ label: `deep, ${field} ${direction}`, q: { sort: { field, direction }, page: page(6) } });
      out.push({ label: `listed search, ${field} ${direction}`, q: { sort: { field, direction }, page: page(1), search: 'onix' } });
      out.push({ label: `like search, ${field} ${direction}`, q: { sort: { field, direction }, page: page(1), search: 'wi' } });
    }
  out.push({ label: 'listed search, page 2', q: { search: 'civic', page: page(2, 10) } });
  out.push({ label: 'short search, deep', q: { search: 'e', page: page(6) } });
  out.push({ label: 'search, deep', q: { search: EVERY[d.table as keyof typeof EVERY], page: page(6) } });
  out.push({
    label: 'search, deep, by title',
    q: { search: EVERY[d.table as keyof typeof EVERY], sort: { field: Object.keys(d.sort)[2]!, direction: 'asc' }, page: page(5, 25) },
  });
  out.push({ label: 'search that finds nothing', q: { search: 'zzzqqq', page: page(1) } });
  out.push({ label: 'search of accented words', q: { search: 'NEGÓCIO', page: page(1) } });
  for (const status of ['ativo', 'ganho', 'arquivado', 'active', 'inactive', 'vendido', 'cancelled', 'pending'])
    out.push(
      { label: `status ${status}`, q: { status, page: page(1) } },
      { label: `status ${status} + search`, q: { status, search: 'hilux', page: page(1) } },
    );
  return [...out, ...extra];
}

const RESOURCES: Array<{ d: ResourceDescription; extra: Shape[] }> = [
  {
    d: DEALS,
    extra: [
      { label: 'filtered source', q: { filters: { source: 'site' }, page: page(1) } },
      { label: 'filtered value range + search', q: { filters: { minCents: 1_000_000, maxCents: 3_000_000 }, search: 'corolla', page: page(1) } },
      { label: 'filtered created range, deep', q: { filters: { createdFrom: '2000-01-01T00:00:00Z' }, page: page(6) } },
    ],
  },
  {
    d: CLIENTS,
    extra: [
      { label: 'exact CPF', q: { search: cpf(5), page: page(1) } },
      { label: 'exact CPF with punctuation', q: { search: cpf(12).replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4'), page: page(1) } },
      { label: 'exact CPF of an inactive client, all statuses', q: { search: cpf(10), status: 'inactive', page: page(1) } },
      { label: 'filtered segment', q: { filters: { segment: 'vip' }, page: page(1) } },
      { label: 'filtered type + search', q: { filters: { type: 'PF' }, search: 'kwid', page: page(1) } },
    ],
  },
  {
    d: VEHICLES,
    extra: [
      { label: 'exact plate', q: { search: plate(33), page: page(1) } },
      { label: 'price range alone (bucket counts)', q: { filters: { minCents: 4_000_000, maxCents: 9_000_000 }, page: page(1) } },
      { label: 'narrow range (few: read from its index)', q: { filters: { minYear: 2024 }, page: page(1) } },
      { label: 'wide range (many: walk the sort)', q: { filters: { maxMileage: 140_000 }, page: page(2, 5) } },
      { label: 'range, sorted by its own column', q: { filters: { minCents: 5_000_000 }, sort: { field: 'price', direction: 'asc' }, page: page(1) } },
      { label: 'range + search', q: { filters: { maxCents: 8_000_000 }, search: 'hilux', page: page(1) } },
      { label: 'filtered fuel, deep', q: { filters: { fuel: 'flex' }, page: page(2, 25) } },
    ],
  },
  {
    d: ACTIVITIES,
    extra: [
      { label: 'overdue', q: { filters: { overdueAt: '2026-06-15T00:00:00Z' }, sort: { field: 'due_at', direction: 'asc' }, page: page(1) } },
      { label: 'due window', q: { filters: { dueFrom: '2026-03-01T00:00:00Z', dueBefore: '2026-05-01T00:00:00Z' }, page: page(1) } },
      { label: 'type + search', q: { filters: { type: 'call' }, search: 'onix', page: page(1) } },
    ],
  },
  {
    d: FINANCIAL_RECORDS,
    extra: [
      { label: 'overdue', q: { filters: { overdueAt: '2026-06-15T00:00:00Z' }, page: page(1) } },
      { label: 'due window + search', q: { filters: { dueFrom: '2026-03-01', dueTo: '2026-08-31' }, search: 'civic', page: page(1) } },
      { label: 'category', q: { filters: { category: 'marketing' }, sort: { field: 'amount', direction: 'desc' }, page: page(2, 10) } },
    ],
  },
];

/** The paths each resource's shapes take: activities and financial records have no counters, no search index and no exact search. */
const PATHS = {
  sqlite: {
    deals: 'deep-page deep-page-from-search-index listed-search page page-from-search-index status-first-page status-page',
    clients: 'deep-page deep-page-from-search-index exact listed-search page page-from-search-index status-first-page status-page',
    vehicles:
      'board-order board-order-from-search-index deep-page deep-page-from-search-index listed-search page page-from-search-index range-few range-many status-first-page status-page',
    activities: 'deep-page page',
    financial_records: 'deep-page page',
  },
  // No search index drives a page on PostgreSQL (its planner weighs the trigram index itself); a whole plate is exact there.
  postgres: {
    deals: 'deep-page listed-search page status-first-page status-page',
    clients: 'deep-page exact listed-search page status-first-page status-page',
    vehicles: 'board-order deep-page exact listed-search page status-first-page status-page',
    activities: 'deep-page page',
    financial_records: 'deep-page page',
  },
} as const;

describe.each(DIALECTS)('the read planner against a plain reference (%s)', (dialect) => {
  let h: Harness;
  let team: Caller;
  /** A team with the agenda and ledger (preview areas) on and a key holding every scope it needs. */
  async function previewTeam(): Promise<Caller> {
    const t = await h.team({ plan: 'autoshopping', scopes: SCOPES });
    await h.services.teams.setPreview(t.teamId, { enable: ['financial', 'activities'] });
    return t;
  }
  beforeAll(async () => {
    h = await createHarness(dialect);
    // The other team first, with the same words and values: its rows must never be answered.
    await seed(await previewTeam());
    team = await previewTeam();
    await seed(team);
  }, 240_000);
  afterAll(async () => h?.close());

  it.each(RESOURCES.map((r) => [r.d.table, r] as const))('%s: every path answers the reference', async (_table, { d, extra }) => {
    const planner = createReadPlanner(h.testDb.db);
    const defaultSort = { field: 'created_at', direction: 'desc' as const };
    let nonEmpty = 0;
    const paths = new Set<string>();
    for (const shape of shapes(d, extra)) {
      const q: ListQuery = { filters: {}, sort: defaultSort, page: page(1), ...shape.q };
      const answer = await planner.list<{ id: string }>(d, teamScope(team.teamId), q);
      const want = await reference(h, d, team.teamId, q);
      expect({ ids: answer.rows.map((r) => r.id), total: answer.total }, `${d.table}: ${shape.label}`).toEqual(want);
      if (want.ids.length > 0) nonEmpty++;
      paths.add(answer.path ?? '?');
    }
    // Every path the planner has for this resource on this database was taken (and answered the reference).
    expect([...paths].sort().join(' ')).toBe(PATHS[dialect][d.table as keyof (typeof PATHS)['sqlite']]);
    // The shapes are not vacuous: most of them answer rows.
    expect(nonEmpty).toBeGreaterThan(20);
  });

  it.each(RESOURCES.map((r) => [r.d.table, r] as const))(
    '%s: by id, with and without the auth_epoch counter, answers the reference row or nothing',
    async (_table, { d }) => {
      const planner = createReadPlanner(h.testDb.db);
      const { rows } = await sql<{ id: string; team_id: string }>`select id, team_id from ${sql.table(d.table)} order by id limit 400`.execute(
        h.testDb.db.kysely,
      );
      for (const row of rows.filter((_, i) => i % 13 === 0)) {
        for (const withAuthEpoch of [false, true]) {
          const found = await planner.byId<{ id: string }>(d, teamScope(team.teamId), row.id, withAuthEpoch);
          expect(found.row?.id, `${d.table} ${row.id} ${withAuthEpoch}`).toBe(row.team_id === team.teamId ? row.id : undefined);
        }
      }
    },
  );
});
