// Reproducible data set: teams (through the teams repository and the API-keys service), then clients
// and deals inserted in bulk through Kysely, in transactions, with exactly the derived columns the
// API writes (search_text, name_key/title_key, normalized tax ids, cents, JSON tags and address).
import { sql } from 'kysely';
import { ADDRESS_MEMBERS } from '../src/domain/clients/clients.types.js';
import { createServices } from '../src/app/services.js';
import { insertTeam } from '../src/domain/teams/teams.repository.js';
import { DEFAULT_PHASES } from '../src/domain/teams/teams.service.js';
import { normalizeTaxId } from '../src/domain/shared/tax-id.js';
import { foldText, searchDocument } from '../src/domain/shared/text-search.js';
import type { Db } from '../src/storage/db.js';
import type { NewClientRow, NewDealRow, NewVehicleRow } from '../src/storage/database.js';
import { DEFAULT_VEHICLE_PHASES } from '../src/domain/phases/phases.types.js';
import { plateSearchForms } from '../src/domain/vehicles/vehicle-identifiers.js';
import * as data from './data.js';
import { Prng, uuidV7At } from './prng.js';

/** Two years of history, fixed so the data set does not depend on the day it is generated. */
export const WINDOW_START = Date.parse('2024-11-01T00:00:00.000Z');
export const WINDOW_END = Date.parse('2026-11-01T00:00:00.000Z');
const DAY = 86_400_000;

export interface TeamSpec {
  label: string;
  deals: number;
  clients: number;
  /** Vehicles in the team's stock (none unless given). */
  vehicles?: number;
}

export interface TeamSamples {
  /** Random deal ids of the team (any status). */
  dealIds: string[];
  /** Random active deals with the phase they were seeded in (for phase-changing PUTs). */
  activeDeals: Array<{ id: string; phase: string }>;
  clientIds: string[];
  /** Bare CPF digits of random PF clients. */
  cpfDigits: string[];
  /** Random vehicle ids (any status) and plates as stored (old with dash, or Mercosul). */
  vehicleIds: string[];
  plates: string[];
}

export interface SeededTeam {
  id: string;
  label: string;
  name: string;
  key: string;
  deals: number;
  clients: number;
  vehicles: number;
  samples: TeamSamples;
  clientsMs: number;
  dealsMs: number;
  vehiclesMs: number;
}

/** Reservoir sample of fixed size. */
class Reservoir<T> {
  readonly items: T[] = [];
  private seen = 0;
  constructor(
    private readonly size: number,
    private readonly prng: Prng,
  ) {}
  offer(item: T): void {
    this.seen++;
    if (this.items.length < this.size) this.items.push(item);
    else {
      const j = Math.floor(this.prng.next() * this.seen);
      if (j < this.size) this.items[j] = item;
    }
  }
}

function sortedInstants(prng: Prng, n: number, start: number, end: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(start + prng.next() * (end - start));
  return out.sort();
}

const iso = (ms: number) => new Date(ms).toISOString();
const dateOnly = (ms: number) => iso(ms).slice(0, 10);

/** Rows per INSERT: under SQLite's 32,766 bound variables and PostgreSQL's 65,535 parameters. */
const rowsPerInsert = (columns: number) => Math.floor(30_000 / columns);
/** Rows per transaction. */
const ROWS_PER_TRANSACTION = 20_000;

async function insertBatched<T extends object>(db: Db, table: 'deals' | 'clients' | 'vehicles', rows: Iterable<T>, columns: number): Promise<void> {
  const perInsert = rowsPerInsert(columns);
  let pending: T[] = [];
  let inTransaction: T[][] = [];
  let count = 0;
  const flush = async () => {
    if (pending.length) inTransaction.push(pending);
    pending = [];
    const chunks = inTransaction;
    inTransaction = [];
    count = 0;
    if (!chunks.length) return;
    await db.kysely.transaction().execute(async (trx) => {
      for (const chunk of chunks)
        await trx
          .insertInto(table)
          .values(chunk as never)
          .execute();
    });
  };
  for (const row of rows) {
    pending.push(row);
    count++;
    if (pending.length >= perInsert) {
      inTransaction.push(pending);
      pending = [];
    }
    if (count >= ROWS_PER_TRANSACTION) await flush();
  }
  await flush();
}

function* clientRows(
  prng: Prng,
  teamId: string,
  n: number,
  samples: { ids: Reservoir<string>; cpfs: Reservoir<string> },
  ids: string[],
): Generator<NewClientRow> {
  const created = sortedInstants(prng, n, WINDOW_START, WINDOW_END);
  const cpfs = new Set<string>();
  const cnpjs = new Set<string>();
  for (let i = 0; i < n; i++) {
    const createdAt = created[i]!;
    const id = uuidV7At(createdAt, prng);
    ids.push(id);
    const pj = prng.chance(0.15);
    const addr = prng.chance(0.8) ? data.address(prng) : null;
    const state = addr?.state ?? 'SP';
    let name: string;
    let cpf: string | null = null;
    let cnpj: string | null = null;
    let gender: string | null = null;
    let legalName: string | null = null;
    let tradeName: string | null = null;
    let displayName: string | null = null;
    if (pj) {
      const company = data.companyName(prng);
      name = company.trade;
      legalName = company.legal;
      tradeName = prng.chance(0.7) ? company.trade : null;
      if (prng.chance(0.95)) {
        let bare: string;
        do bare = data.cnpj(prng, prng.chance(0.1));
        while (cnpjs.has(bare));
        cnpjs.add(bare);
        cnpj = prng.chance(0.75) ? data.formatCnpj(bare) : bare;
      }
    } else {
      const person = data.personName(prng);
      name = person.name;
      gender = prng.chance(0.9) ? person.gender : null;
      displayName = prng.chance(0.3) ? person.first : null;
      if (prng.chance(0.95)) {
        let bare: string;
        do bare = data.cpf(prng);
        while (cpfs.has(bare));
        cpfs.add(bare);
        cpf = prng.chance(0.75) ? data.formatCpf(bare) : bare;
        samples.cpfs.offer(bare);
      }
    }
    const email = prng.chance(0.85) ? data.emailFor(pj ? (legalName ?? name) : name, prng) : null;
    const mobile = prng.chance(0.9) ? data.mobile(prng, state) : null;
    const inactive = prng.chance(0.03);
    const updatedAt = Math.min(WINDOW_END, createdAt + (prng.chance(0.4) ? Math.floor(prng.next() * 120 * DAY) : 0));
    const tags = data.clientTags(prng);
    const creditCents = prng.chance(pj ? 0.5 : 0.2) ? prng.int(5, 500) * 1000 * 100 : null;
    const cpfNormalized = cpf === null ? null : normalizeTaxId(cpf);
    const cnpjNormalized = cnpj === null ? null : normalizeTaxId(cnpj);
    // The address as the API stores it: every member, in ADDRESS_MEMBERS order, null when not sent.
    const storedAddress = addr === null ? null : JSON.stringify(Object.fromEntries(ADDRESS_MEMBERS.map((m) => [m, addr[m] ?? null])));
    samples.ids.offer(id);
    yield {
      id,
      team_id: teamId,
      type: pj ? 'PJ' : 'PF',
      name,
      display_name: displayName,
      email,
      phone: prng.chance(0.3) ? data.landline(prng, state) : null,
      mobile_phone: mobile,
      whatsapp: mobile !== null && prng.chance(0.7) ? mobile : null,
      cpf,
      cpf_normalized: cpfNormalized,
      rg: !pj && prng.chance(0.5) ? data.rg(prng) : null,
      birth_date: !pj && prng.chance(0.7) ? data.birthDate(prng) : null,
      gender,
      marital_status: !pj && prng.chance(0.5) ? data.maritalStatus(prng) : null,
      nationality: !pj && prng.chance(0.6) ? 'brasileira' : null,
      cnpj,
      cnpj_normalized: cnpjNormalized,
      legal_name: legalName,
      trade_name: tradeName,
      state_registration: pj && prng.chance(0.6) ? String(prng.int(100_000_000, 999_999_999)) : null,
      municipal_registration: pj && prng.chance(0.3) ? String(prng.int(1_000_000, 9_999_999)) : null,
      segment: prng.weighted([
        ['regular', 50],
        ['occasional', 25],
        ['premium', 15],
        ['vip', 10],
        [null, 10],
      ] as const),
      source: prng.chance(0.8) ? prng.pick(data.DEAL_SOURCES) : null,
      status: inactive ? 'inactive' : 'active',
      store_id: prng.chance(0.7) ? prng.pick(data.STORES) : null,
      address: storedAddress,
      notes: prng.chance(0.1) ? 'Prefere contato pelo WhatsApp após as 18h.' : null,
      tags: JSON.stringify(tags),
      credit_limit_cents: creditCents,
      search_text: searchDocument([name, email, cpf, cpfNormalized, cnpj, cnpjNormalized]),
      name_key: foldText(name),
      deactivated_at: inactive ? iso(updatedAt) : null,
      created_at: iso(createdAt),
      updated_at: iso(updatedAt),
    };
  }
}

const PHASE_WEIGHTS = [
  ['lead', 35],
  ['qualificado', 25],
  ['proposta', 18],
  ['negociacao', 12],
  ['fechamento', 10],
] as const;
const PRIORITY_RANK = { baixa: 1, media: 2, alta: 3 } as const;
const probabilityOf = new Map(DEFAULT_PHASES.map((p) => [p.name, p.probability]));

function* dealRows(
  prng: Prng,
  teamId: string,
  n: number,
  clientIds: string[],
  samples: { ids: Reservoir<string>; active: Reservoir<{ id: string; phase: string }> },
): Generator<NewDealRow> {
  const created = sortedInstants(prng, n, WINDOW_START, WINDOW_END);
  for (let i = 0; i < n; i++) {
    const createdAt = created[i]!;
    const id = uuidV7At(createdAt, prng);
    const vehicle = data.vehicleTitle(prng);
    const description = data.dealDescription(prng);
    const status = prng.weighted([
      ['ativo', 70],
      ['ganho', 14],
      ['perdido', 11],
      ['arquivado', 5],
    ] as const);
    const phase = status === 'ganho' ? 'fechamento' : prng.weighted(PHASE_WEIGHTS);
    const priority = prng.weighted([
      ['media', 60],
      ['alta', 20],
      ['baixa', 20],
    ] as const);
    const updatedAt = Math.min(WINDOW_END, createdAt + (status === 'ativo' && prng.chance(0.5) ? 0 : Math.floor(prng.next() * 45 * DAY)));
    const tags = data.dealTags(prng);
    samples.ids.offer(id);
    if (status === 'ativo') samples.active.offer({ id, phase });
    yield {
      id,
      team_id: teamId,
      title: vehicle.title,
      description,
      value_cents: prng.chance(0.95) ? data.priceCents(prng, vehicle.basePrice) : null,
      currency: 'BRL',
      phase,
      priority,
      priority_rank: PRIORITY_RANK[priority],
      probability: prng.chance(0.85) ? probabilityOf.get(phase)! : prng.int(0, 100),
      status,
      expected_close_date: prng.chance(0.5) ? dateOnly(createdAt + prng.int(7, 90) * DAY) : null,
      source: prng.chance(0.85) ? prng.pick(data.DEAL_SOURCES) : null,
      loss_reason: status === 'perdido' && prng.chance(0.8) ? prng.pick(data.LOSS_REASONS) : null,
      tags: JSON.stringify(tags),
      is_starred: prng.chance(0.05) ? 1 : 0,
      store_id: prng.chance(0.8) ? prng.pick(data.STORES) : null,
      client_id: clientIds.length && prng.chance(0.8) ? clientIds[Math.floor(prng.next() * clientIds.length)]! : null,
      responsible_id: prng.chance(0.9) ? `vendedor-${String(prng.int(1, 25)).padStart(2, '0')}` : null,
      case_id: null,
      search_text: searchDocument([vehicle.title, description]),
      title_key: foldText(vehicle.title),
      archived_at: status === 'arquivado' ? iso(updatedAt) : null,
      created_at: iso(createdAt),
      updated_at: iso(updatedAt),
    };
  }
}

const VEHICLE_FUELS = [
  ['flex', 70],
  ['gasolina', 8],
  ['diesel', 10],
  ['hibrido', 6],
  ['eletrico', 3],
  ['etanol', 2],
  ['gnv', 1],
] as const;
const VEHICLE_TRANSMISSIONS = ['manual', 'automatico', 'automatizado', 'cvt'] as const;
const VEHICLE_COLORS = ['Prata', 'Branco', 'Preto', 'Cinza', 'Vermelho', 'Azul'] as const;
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The i-th Mercosul plate (unique per i): 3 letters, digit, letter, 2 digits. */
function mercosulPlate(i: number): string {
  const digits2 = String(i % 100).padStart(2, '0');
  let rest = Math.floor(i / 100);
  const fifth = LETTERS[rest % 26]!;
  rest = Math.floor(rest / 26);
  const fourth = String(rest % 10);
  rest = Math.floor(rest / 10);
  const letters = [0, 1, 2].map(() => {
    const c = LETTERS[rest % 26]!;
    rest = Math.floor(rest / 26);
    return c;
  });
  return `${letters.reverse().join('')}${fourth}${fifth}${digits2}`;
}

/** A valid 11-digit RENAVAM from ten digits (check digit per DECISIONS.md). */
function renavamOf(tenDigits: string): string {
  const weights = [3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += Number(tenDigits[i]) * weights[i]!;
  return `${tenDigits}${((sum * 10) % 11) % 10}`;
}

/** Stock rows with the derived columns the vehicles service writes; plates, RENAVAMs and chassis unique per team. */
function* vehicleRows(prng: Prng, teamId: string, n: number, samples: { ids: Reservoir<string>; plates: Reservoir<string> }): Generator<NewVehicleRow> {
  const created = sortedInstants(prng, n, WINDOW_START, WINDOW_END);
  // A team-specific offset keeps identifiers apart between teams (not required: uniqueness is per team).
  const offset = prng.int(0, 1_000_000);
  for (let i = 0; i < n; i++) {
    const createdAt = created[i]!;
    const id = uuidV7At(createdAt, prng);
    const car = data.vehicleTitle(prng);
    const brand = car.title.slice(0, car.title.indexOf(' '));
    const model = car.model;
    const year = Number(/ (20\d{2})(?: |$)/.exec(car.title)?.[1] ?? 2022);
    const status = prng.weighted([
      ['ativo', 60],
      ['vendido', 30],
      ['arquivado', 10],
    ] as const);
    const canonical = mercosulPlate(offset + i);
    // Older cars keep their old plate (when the Mercosul fifth letter has an old digit).
    const oldDigit = canonical.charCodeAt(4) - 65;
    const plate = year < 2019 && oldDigit <= 9 ? `${canonical.slice(0, 3)}-${canonical[3]}${oldDigit}${canonical.slice(5)}` : canonical;
    const hasPlate = prng.chance(0.9);
    const chassis = prng.chance(0.6)
      ? `9BG${LETTERS[prng.int(0, 7)]}${String(offset + i).padStart(9, '0')}${String(prng.int(0, 9999)).padStart(4, '0')}`
      : null;
    const renavam = prng.chance(0.8) ? renavamOf(String((offset + i) * 7 + 1_000_000_000).slice(-10)) : null;
    const updatedAt = Math.min(WINDOW_END, createdAt + (status === 'ativo' && prng.chance(0.5) ? 0 : Math.floor(prng.next() * 60 * DAY)));
    const version = car.title.slice(brand.length + model.length + 2).replace(/ 20\d{2}( .*)?$/, '') || null;
    samples.ids.offer(id);
    if (hasPlate) samples.plates.offer(plate);
    const phase = status === 'ativo' ? prng.pick(DEFAULT_VEHICLE_PHASES) : 'disponivel';
    const priceCents = prng.chance(0.95) ? data.priceCents(prng, car.basePrice) : null;
    yield {
      id,
      team_id: teamId,
      title: car.title,
      brand,
      model,
      version,
      plate: hasPlate ? plate : null,
      plate_key: hasPlate ? canonical : null,
      renavam,
      renavam_key: renavam,
      chassis,
      chassis_key: chassis,
      manufacture_year: Math.min(year, 2026),
      model_year: Math.min(year, 2027),
      mileage: year >= 2026 ? 0 : prng.int(1000, 180_000),
      color: prng.pick(VEHICLE_COLORS),
      fuel: prng.weighted(VEHICLE_FUELS),
      transmission: prng.pick(VEHICLE_TRANSMISSIONS),
      body_type: null,
      doors: 4,
      condition: year >= 2026 ? 'novo' : year >= 2023 ? 'seminovo' : 'usado',
      fipe_code: null,
      price_cents: priceCents,
      purchase_price_cents: priceCents === null ? null : Math.round(priceCents * 0.85),
      phase,
      status,
      sold_at: status === 'vendido' ? iso(updatedAt) : null,
      description: null,
      features: '[]',
      tags: '[]',
      store_id: prng.chance(0.8) ? prng.pick(data.STORES) : null,
      search_text: searchDocument([car.title, brand, model, version, ...(hasPlate ? plateSearchForms(plate) : []), chassis]),
      title_key: foldText(car.title),
      brand_key: foldText(brand),
      model_key: foldText(model),
      archived_at: status === 'arquivado' ? iso(updatedAt) : null,
      created_at: iso(createdAt),
      updated_at: iso(updatedAt),
    };
  }
}

const CLIENT_COLUMNS = 35;
const VEHICLE_COLUMNS = 39;
const DEAL_COLUMNS = 26;

/** One team with its phases, an API key (all scopes), clients and deals. */
export async function seedTeam(db: Db, seed: string, spec: TeamSpec): Promise<SeededTeam> {
  const prng = new Prng(`${seed}:team:${spec.label}`);
  const id = uuidV7At(WINDOW_START - prng.int(1, 365) * DAY, prng);
  const name = `${data.companyName(prng).trade} Veículos (${spec.label})`;
  await insertTeam(db.kysely, { id, name, plan: 'autoshopping', alert_email: null, created_at: iso(WINDOW_START - 400 * DAY) }, DEFAULT_PHASES);
  const { keys } = createServices(db);
  const { key } = await keys.create({ teamId: id, name: 'bench' });

  const clientIds: string[] = [];
  const clientSamples = { ids: new Reservoir<string>(2000, prng.fork('s1')), cpfs: new Reservoir<string>(200, prng.fork('s2')) };
  let t = performance.now();
  await insertBatched(db, 'clients', clientRows(prng.fork('clients'), id, spec.clients, clientSamples, clientIds), CLIENT_COLUMNS);
  const clientsMs = performance.now() - t;

  const dealSamples = { ids: new Reservoir<string>(2000, prng.fork('s3')), active: new Reservoir<{ id: string; phase: string }>(4000, prng.fork('s4')) };
  t = performance.now();
  await insertBatched(db, 'deals', dealRows(prng.fork('deals'), id, spec.deals, clientIds, dealSamples), DEAL_COLUMNS);
  const dealsMs = performance.now() - t;

  const vehicleSamples = { ids: new Reservoir<string>(2000, prng.fork('s5')), plates: new Reservoir<string>(200, prng.fork('s6')) };
  t = performance.now();
  await insertBatched(db, 'vehicles', vehicleRows(prng.fork('vehicles'), id, spec.vehicles ?? 0, vehicleSamples), VEHICLE_COLUMNS);
  const vehiclesMs = performance.now() - t;

  return {
    id,
    label: spec.label,
    name,
    key,
    deals: spec.deals,
    clients: spec.clients,
    vehicles: spec.vehicles ?? 0,
    samples: {
      dealIds: dealSamples.ids.items,
      activeDeals: dealSamples.active.items,
      clientIds: clientSamples.ids.items,
      cpfDigits: clientSamples.cpfs.items,
      vehicleIds: vehicleSamples.ids.items,
      plates: vehicleSamples.plates.items,
    },
    clientsMs,
    dealsMs,
    vehiclesMs,
  };
}

/** What a production database would have after a bulk load: fresh planner statistics on PostgreSQL; a checkpointed WAL on SQLite. */
export async function afterBulkLoad(db: Db): Promise<void> {
  if (db.dialect === 'postgres') {
    // Autovacuum would do this shortly after such a load; done now so plans do not depend on its timing.
    for (const table of ['teams', 'team_phases', 'api_keys', 'clients', 'deals', 'events', 'deliveries', 'webhooks', 'vehicles', 'vehicle_phases']) {
      await sql`vacuum analyze ${sql.table(table)}`.execute(db.kysely);
    }
  } else {
    // The service never runs ANALYZE on SQLite, so neither do we: plans are the ones production gets.
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db.kysely);
  }
}
