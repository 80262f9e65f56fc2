// The HTTP scenarios of issue 6 point 3, as request generators for autocannon.
import type { DealListInput } from '../src/domain/deals/deals.types.js';
import type { ClientListInput } from '../src/domain/clients/clients.types.js';
import type { VehicleListInput } from '../src/domain/vehicles/vehicles.types.js';
import { plateSearchForms } from '../src/domain/vehicles/vehicle-identifiers.js';
import { PLAN_LIMITS } from '../src/domain/ratelimit/plans.js';
import { createServices } from '../src/app/services.js';
import type { Db } from '../src/storage/db.js';
import * as data from './data.js';
import type { NextRequest } from './load.js';
import type { Prng } from './prng.js';
import type { SeededTeam } from './seed.js';

export type Group = 'ceiling' | 'read' | 'list' | 'search' | 'cpf' | 'limiter' | 'write' | 'mixed' | 'webhook' | 'panel' | 'scale-out';

export interface HttpScenario {
  id: string;
  title: string;
  group: Group;
  teamSize: number;
  /** Also measured with one connection (service time without queueing). */
  single?: boolean;
  headers: Record<string, string>;
  next: () => NextRequest & { headers?: Record<string, string> };
  /** The service call behind the scenario, for EXPLAIN evidence. */
  explain?: (db: Db) => Promise<unknown>;
  note?: string;
  /** Requests the scenario may send before its rate-limit window is reset (plan limits on). */
  budget?: RequestBudget;
}

/**
 * What a load with plan limits on may send without a 429: the runner stops the load once it is used
 * up, and starts it over whenever the limiter's windows start over (a new server process with the
 * memory store, Redis counters deleted).
 */
export class RequestBudget {
  private used = 0;
  constructor(readonly limit: number) {}
  take(): void {
    this.used++;
  }
  get spent(): boolean {
    return this.used >= this.limit;
  }
  /** A warm-up leaves most of the budget to the measured run. */
  get warm(): boolean {
    return this.used >= this.limit / 4;
  }
  reset(): void {
    this.used = 0;
  }
}

const PHASES = ['lead', 'qualificado', 'proposta', 'negociacao', 'fechamento'] as const;
const auth = (team: SeededTeam) => ({ authorization: `Bearer ${team.key}` });
const rotate =
  <T>(items: readonly T[], prng: Prng) =>
  () =>
    items[Math.floor(prng.next() * items.length)]!;

export function byIdScenarios(team: SeededTeam, prng: Prng): HttpScenario[] {
  const dealId = rotate(team.samples.dealIds, prng);
  const clientId = rotate(team.samples.clientIds, prng);
  return [
    {
      id: 'deal-by-id',
      // The single-connection p50 is a by-id read's own time: what one round trip less shows in.
      single: true,
      title: 'GET /deals/:id',
      group: 'read',
      teamSize: team.deals,
      headers: auth(team),
      next: () => ({ method: 'GET', path: `/api/v1/deals/${dealId()}` }),
    },
    {
      id: 'client-by-id',
      single: true,
      title: 'GET /clients/:id',
      group: 'read',
      teamSize: team.deals,
      headers: auth(team),
      next: () => ({ method: 'GET', path: `/api/v1/clients/${clientId()}` }),
    },
  ];
}

export const LIST_FILTER = { phase: 'proposta', min_value: 100000, sort: '-value' } as const;

/** List and search scenarios (the ones repeated at every scale). */
export function listSearchScenarios(team: SeededTeam, prng: Prng): HttpScenario[] {
  const cpf = rotate(team.samples.cpfDigits, prng);
  const name = rotate(data.UNACCENTED_NAME_QUERIES, prng);
  const word = data.RARE_TITLE_WORD.toLowerCase();
  const deals = (db: Db, q: DealListInput) => createServices(db).deals.list(team.id, q);
  const clients = (db: Db, q: ClientListInput) => createServices(db).clients.list(team.id, q);
  const base = { teamSize: team.deals, headers: auth(team), single: true };
  return [
    {
      ...base,
      id: 'list-default',
      title: 'GET /deals (default list)',
      group: 'list',
      next: () => ({ method: 'GET', path: '/api/v1/deals' }),
      explain: (db) => deals(db, {}),
    },
    {
      ...base,
      id: 'list-filtered',
      title: 'GET /deals?phase=proposta&min_value=100000&sort=-value',
      group: 'list',
      next: () => ({ method: 'GET', path: `/api/v1/deals?phase=${LIST_FILTER.phase}&min_value=${LIST_FILTER.min_value}&sort=${LIST_FILTER.sort}` }),
      explain: (db) => deals(db, { ...LIST_FILTER }),
    },
    {
      ...base,
      id: 'list-page-2000',
      title: 'GET /deals?page=2000',
      group: 'list',
      next: () => ({ method: 'GET', path: '/api/v1/deals?page=2000' }),
      explain: (db) => deals(db, { page: 2000 }),
    },
    {
      ...base,
      id: 'search-title',
      title: `GET /deals?search=${word} (1% of titles)`,
      group: 'search',
      next: () => ({ method: 'GET', path: `/api/v1/deals?search=${word}` }),
      explain: (db) => deals(db, { search: word }),
    },
    {
      ...base,
      id: 'search-cpf',
      title: 'GET /clients?search=<CPF digits>',
      group: 'cpf',
      next: () => ({ method: 'GET', path: `/api/v1/clients?search=${cpf()}` }),
      explain: (db) => clients(db, { search: team.samples.cpfDigits[0]! }),
    },
    {
      ...base,
      id: 'search-name',
      title: 'GET /clients?search=<unaccented name>',
      group: 'search',
      next: () => ({ method: 'GET', path: `/api/v1/clients?search=${name()}` }),
      explain: (db) => clients(db, { search: data.UNACCENTED_NAME_QUERIES[0] }),
      note: `rotates ${data.UNACCENTED_NAME_QUERIES.join(', ')}`,
    },
  ];
}

export const VEHICLE_PRICE_FILTER = { min_price: 50000, max_price: 100000, sort: '-price' } as const;

/** Vehicle scenarios (issue 11): by id, default list, price-filtered list, plate search; same targets as the deal ones. */
export function vehicleScenarios(team: SeededTeam, prng: Prng): HttpScenario[] {
  if (team.vehicles === 0) return [];
  const vehicleId = rotate(team.samples.vehicleIds, prng);
  // Every way people type a plate: old or Mercosul form, with or without the dash.
  const plateQueries = team.samples.plates.flatMap((p) => plateSearchForms(p));
  const plate = rotate(plateQueries, prng);
  const vehicles = (db: Db, q: VehicleListInput) => createServices(db).vehicles.list(team.id, q);
  const base = { teamSize: team.vehicles, headers: auth(team), single: true };
  return [
    {
      id: 'vehicle-by-id',
      single: true,
      title: 'GET /vehicles/:id',
      group: 'read',
      teamSize: team.vehicles,
      headers: auth(team),
      next: () => ({ method: 'GET', path: `/api/v1/vehicles/${vehicleId()}` }),
    },
    {
      ...base,
      id: 'vehicle-list-default',
      title: 'GET /vehicles (default list)',
      group: 'list',
      next: () => ({ method: 'GET', path: '/api/v1/vehicles' }),
      explain: (db) => vehicles(db, {}),
    },
    {
      ...base,
      id: 'vehicle-list-price',
      title: `GET /vehicles?min_price=${VEHICLE_PRICE_FILTER.min_price}&max_price=${VEHICLE_PRICE_FILTER.max_price}&sort=${VEHICLE_PRICE_FILTER.sort}`,
      group: 'list',
      next: () => ({
        method: 'GET',
        path: `/api/v1/vehicles?min_price=${VEHICLE_PRICE_FILTER.min_price}&max_price=${VEHICLE_PRICE_FILTER.max_price}&sort=${VEHICLE_PRICE_FILTER.sort}`,
      }),
      explain: (db) => vehicles(db, { ...VEHICLE_PRICE_FILTER }),
    },
    {
      ...base,
      id: 'vehicle-search-plate',
      title: 'GET /vehicles?search=<plate, any form>',
      group: 'search',
      next: () => ({ method: 'GET', path: `/api/v1/vehicles?search=${encodeURIComponent(plate())}` }),
      explain: (db) => vehicles(db, { search: plateQueries[0] ?? 'ABC1C34' }),
      note: 'rotates sampled plates in old and Mercosul forms, with and without the dash',
    },
  ];
}

/** GET /deals/:id spread over every team, each with its own key (the limiter's cost). */
/**
 * GET by id spread over every team. Teams are taken in turn, so each gets the same share: with plan
 * limits on, the load stays under every team's per-minute limit until the budget (90% of it, for the
 * requests already in flight when the runner stops) is spent.
 */
export function spreadByIdScenario(teams: SeededTeam[], prng: Prng, mode: 'off' | 'memory' | 'redis'): HttpScenario {
  const pool = teams.map((t) => ({ headers: auth(t), ids: t.samples.dealIds }));
  const label = { off: 'RATE_LIMITS=off', memory: 'limiter in memory', redis: 'limiter in Redis' }[mode];
  const budget = mode === 'off' ? undefined : new RequestBudget(Math.floor(0.9 * teams.length * PLAN_LIMITS.autoshopping.perMinute));
  let turn = 0;
  return {
    id: `by-id-teams-${mode}`,
    title: `GET /deals/:id over ${teams.length} teams, ${label}`,
    group: 'limiter',
    teamSize: teams[0]!.deals,
    headers: {},
    budget,
    next: () => {
      budget?.take();
      const t = pool[turn++ % pool.length]!;
      return { method: 'GET', path: `/api/v1/deals/${t.ids[Math.floor(prng.next() * t.ids.length)]!}`, headers: t.headers };
    },
  };
}

export function dealBody(team: SeededTeam, prng: Prng): string {
  const vehicle = data.vehicleTitle(prng);
  const body: Record<string, unknown> = { title: vehicle.title, value: data.priceCents(prng, vehicle.basePrice) / 100, source: prng.pick(data.DEAL_SOURCES) };
  if (prng.chance(0.5)) body.client_id = team.samples.clientIds[Math.floor(prng.next() * team.samples.clientIds.length)];
  if (prng.chance(0.3)) body.phase = prng.pick(PHASES);
  if (prng.chance(0.5)) body.tags = ['bench', prng.pick(['suv', 'sedan', 'picape', 'hatch'])];
  if (prng.chance(0.3)) body.description = data.dealDescription(prng) ?? 'Lead do site';
  return JSON.stringify(body);
}

/** Leads sent so far by this run: each new-client lead gets its own e-mail, phone and external id. */
let leadSeq = 0;

/**
 * POST /leads (issue 27) as a portal sends it. `new`: a person the book does not have (a client, a
 * deal and the "Responder lead" call are created). `matched`: the CPF of a seeded client, each lead
 * from a source of its own, so the match and the contact fill-in run and a deal is still created
 * (the same client and source within 30 days would take the duplicate path: a note on that deal).
 */
export function leadBody(team: SeededTeam, prng: Prng, kind: 'new' | 'matched'): string {
  const n = ++leadSeq;
  const vehicle = data.vehicleTitle(prng);
  const body: Record<string, unknown> = {
    name: data.personName(prng).name,
    message: `Tenho interesse no ${vehicle.title}. Aceita troca?`,
    value: data.priceCents(prng, vehicle.basePrice) / 100,
    wants_financing: prng.chance(0.5),
  };
  if (kind === 'new') {
    Object.assign(body, {
      email: `lead.bench.${n}.${Math.floor(prng.next() * 1_000_000)}@exemplo.com.br`,
      mobile_phone: `(11) 9${String(10_000_000 + ((n * 7919) % 89_999_999)).slice(0, 8)}`,
      source: 'webmotors',
      external_id: `bench-${Date.now().toString(36)}-${n}`,
    });
  } else {
    const cpfs = team.samples.cpfDigits;
    Object.assign(body, { cpf: cpfs[Math.floor(prng.next() * cpfs.length)], email: `cliente.bench.${n}@exemplo.com.br`, source: `portal-${n}` });
  }
  return JSON.stringify(body);
}

export function writeScenarios(team: SeededTeam, prng: Prng): HttpScenario[] {
  // Phases the runner knows each sampled active deal to be in: every PUT moves a deal to the next phase.
  const active = team.samples.activeDeals.map((d) => ({ ...d }));
  let cursor = 0;
  const nextPut = (): NextRequest => {
    const deal = active[cursor++ % active.length]!;
    const at = PHASES.indexOf(deal.phase as (typeof PHASES)[number]);
    deal.phase = PHASES[(at + 1) % PHASES.length]!;
    return { method: 'PUT', path: `/api/v1/deals/${deal.id}`, body: JSON.stringify({ phase: deal.phase }) };
  };
  const post = (): NextRequest => ({ method: 'POST', path: '/api/v1/deals', body: dealBody(team, prng) });
  const dealId = rotate(team.samples.dealIds, prng);
  const clientId = rotate(team.samples.clientIds, prng);
  const base = { teamSize: team.deals, headers: auth(team) };
  return [
    {
      ...base,
      id: 'post-deal',
      title: 'POST /deals (1 subscribed webhook)',
      group: 'write',
      next: post,
      note: 'worker in a separate step: the event and its delivery row are written in the request',
    },
    {
      ...base,
      id: 'post-lead-new',
      title: 'POST /leads (new client)',
      group: 'write',
      next: () => ({ method: 'POST', path: '/api/v1/leads', body: leadBody(team, prng, 'new') }),
      note: 'one transaction: the lead row (source + external_id unique), no match by e-mail or phone, client + deal + "Responder lead" call, the round-robin cursor row-locked; 3 events',
    },
    {
      ...base,
      id: 'post-lead-matched',
      title: 'POST /leads (matched client, by CPF)',
      group: 'write',
      next: () => ({ method: 'POST', path: '/api/v1/leads', body: leadBody(team, prng, 'matched') }),
      note: 'a seeded client found by CPF (e-mail filled in when missing), a source of its own per lead so a deal is created, the call, the cursor; 2 events',
    },
    {
      ...base,
      id: 'put-phase',
      title: 'PUT /deals/:id (phase change)',
      group: 'write',
      next: nextPut,
      note: 'emits deal.updated + deal.phase_changed (2 deliveries)',
    },
    {
      ...base,
      id: 'mixed',
      title: 'Mixed 80/20 read/write',
      group: 'mixed',
      next: () => {
        const r = prng.next();
        if (r < 0.4) return { method: 'GET', path: `/api/v1/deals/${dealId()}` };
        if (r < 0.6) return { method: 'GET', path: `/api/v1/clients/${clientId()}` };
        if (r < 0.8) return { method: 'GET', path: '/api/v1/deals' };
        if (r < 0.9) return post();
        return nextPut();
      },
      note: '40% GET deal, 20% GET client, 20% list, 10% POST deal, 10% PUT phase',
    },
  ];
}

/**
 * The panel's JSON routes behind the boards (issue 15: the same targets as the API's lists), signed in
 * as an owner of the team with a session cookie. Each board is one paged read per column; the column
 * page ("carregar mais") reads a deeper slice of one column.
 */
export function panelScenarios(team: SeededTeam, cookie: string, prng: Prng): HttpScenario[] {
  const offset = () => 20 * (1 + Math.floor(prng.next() * 10));
  const phase = rotate(PHASES, prng);
  const base = { teamSize: team.deals, headers: { cookie }, single: true, group: 'panel' as const };
  return [
    { ...base, id: 'panel-deals-board', title: 'Panel: GET /panel/api/deals/board', next: () => ({ method: 'GET', path: '/panel/api/deals/board' }) },
    {
      ...base,
      id: 'panel-deals-column',
      title: 'Panel: GET /panel/api/deals/board/:phase?offset=20…200',
      next: () => ({ method: 'GET', path: `/panel/api/deals/board/${phase()}?offset=${offset()}` }),
    },
    { ...base, id: 'panel-vehicles-board', title: 'Panel: GET /panel/api/vehicles/board', next: () => ({ method: 'GET', path: '/panel/api/vehicles/board' }) },
    { ...base, id: 'panel-dashboard', title: 'Panel: GET /panel/api/dashboard', next: () => ({ method: 'GET', path: '/panel/api/dashboard' }) },
    { ...base, id: 'panel-clients', title: 'Panel: GET /panel/api/clients', next: () => ({ method: 'GET', path: '/panel/api/clients' }) },
  ];
}
