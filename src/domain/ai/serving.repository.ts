import { sql } from 'kysely';
import { compiledQuery } from '../../storage/compiled-query.js';
import type { DbExecutor } from '../../storage/executor.js';
import type { DealFacts } from './serving.js';

const ms = (v: Date | string | null): number | null => (v === null ? null : typeof v === 'string' ? Date.parse(v) : v.getTime());

/** The stored model's version and use (a trained one only): what tells the in-memory cache it is stale. */
export async function modelVersion(db: DbExecutor, teamId: string): Promise<{ version: number; used: string } | undefined> {
  return db.selectFrom('ai_models').select(['version', 'used']).where('team_id', '=', teamId).where('trained_at', 'is not', null).executeTakeFirst();
}

export async function loadModelJson(db: DbExecutor, teamId: string) {
  return db.selectFrom('ai_models').select(['version', 'used', 'model']).where('team_id', '=', teamId).where('trained_at', 'is not', null).executeTakeFirst();
}

/** The columns of a deal's AI context over `teams as t` left-joined with `p` (phase), `c` (client), `v` (car), `m` (model). */
export const ONE_DEAL_CONTEXT_COLUMNS = [
  't.time_zone',
  'p.probability as phase_probability',
  'p.label as phase_label',
  'p.position as phase_position',
  'c.name as client_name',
  'c.segment as client_segment',
  'v.title as vehicle_title',
  'v.price_cents as vehicle_price_cents',
  'v.created_at as vehicle_created_at',
  'm.version as model_version',
  'm.used as model_used',
] as const;

/** The client's first deal's creation, as a column. */
export const clientFirstDealColumn = (teamId: string, clientId: string | null) =>
  sql<Date | string | null>`(select min(d.created_at) from deals d where d.team_id = ${teamId} and d.client_id = ${clientId})`.as('client_first_deal');

/**
 * What one deal's probability and summary read besides its activities, in one statement: the team's
 * time zone and model version, the phase, the client and the car the deal names (each in the deal's
 * own team, so a summary never names another team's records) and the client's first deal.
 */
const oneDealContext = compiledQuery('ai_one_deal_context', (db: DbExecutor, teamId: string, phase: string, clientId: string | null, caseId: string | null) =>
  db
    .selectFrom('teams as t')
    .leftJoin('team_phases as p', (join) => join.onRef('p.team_id', '=', 't.id').on('p.name', '=', phase))
    .leftJoin('clients as c', (join) => join.onRef('c.team_id', '=', 't.id').on('c.id', '=', clientId))
    .leftJoin('vehicles as v', (join) => join.onRef('v.team_id', '=', 't.id').on('v.id', '=', caseId))
    .leftJoin('ai_models as m', (join) => join.onRef('m.team_id', '=', 't.id').on('m.trained_at', 'is not', null))
    .select(ONE_DEAL_CONTEXT_COLUMNS)
    .select(clientFirstDealColumn(teamId, clientId))
    .where('t.id', '=', teamId),
);

export interface OneDealContext {
  time_zone: string;
  phase: { probability: number; label: string; position: number } | null;
  client: { name: string; segment: string | null } | null;
  vehicle: { title: string; price_cents: number | null; created_at: number } | null;
  model: { version: number; used: string } | null;
  clientFirstDeal: number | null;
}

export async function loadOneDealContext(
  db: DbExecutor,
  teamId: string,
  phase: string,
  clientId: string | null,
  caseId: string | null,
): Promise<OneDealContext | undefined> {
  const r = await oneDealContext.executeTakeFirst(db, teamId, phase, clientId, caseId);
  return r && oneDealContextOf(r);
}

interface OneDealContextRow {
  time_zone: string;
  phase_probability: number | null;
  phase_label: string | null;
  phase_position: number | null;
  client_name: string | null;
  client_segment: string | null;
  vehicle_title: string | null;
  vehicle_price_cents: number | null;
  vehicle_created_at: Date | string | null;
  model_version: number | null;
  model_used: string | null;
  client_first_deal: Date | string | null;
}

export function oneDealContextOf(r: OneDealContextRow): OneDealContext {
  return {
    time_zone: r.time_zone,
    phase: r.phase_probability === null ? null : { probability: Number(r.phase_probability), label: r.phase_label!, position: Number(r.phase_position) },
    client: r.client_name === null ? null : { name: r.client_name, segment: r.client_segment },
    vehicle: r.vehicle_title === null ? null : { title: r.vehicle_title, price_cents: r.vehicle_price_cents, created_at: ms(r.vehicle_created_at)! },
    model: r.model_version === null ? null : { version: Number(r.model_version), used: r.model_used! },
    clientFirstDeal: ms(r.client_first_deal),
  };
}

const DEAL_FACT_COLUMNS = [
  'id',
  'title',
  'status',
  'phase',
  'value_cents',
  'source',
  'priority',
  'client_id',
  'responsible_id',
  'case_id',
  'store_id',
  'expected_close_date',
  'loss_reason',
  'created_at',
  'phase_changed_at',
  'ai_win_probability',
  'ai_summary',
] as const;

export interface StoredDealFacts extends DealFacts {
  /** Null before migration 0014's first refresh. */
  stored_phase_changed_at: number | null;
  ai_win_probability: number | null;
  ai_summary: string | null;
}

/** Some deals of a team (or all but the archived), as serving reads them. */
export async function loadDealFactsForServing(db: DbExecutor, teamId: string, ids?: readonly string[]): Promise<StoredDealFacts[]> {
  if (ids && ids.length === 0) return [];
  let q = db.selectFrom('deals').select(DEAL_FACT_COLUMNS).where('team_id', '=', teamId);
  q = ids ? q.where('id', 'in', [...ids]) : q.where('status', '!=', 'arquivado');
  const rows = await q.execute();
  return rows.map((r) => {
    const created = ms(r.created_at)!;
    const changed = ms(r.phase_changed_at);
    return {
      ...r,
      status: r.status,
      priority: r.priority,
      created_at: created,
      phase_changed_at: changed ?? created,
      stored_phase_changed_at: changed,
    };
  });
}

/** Where a page of a team's deals ended: the last deal's creation and id (the order of deals_team_created_idx). */
export interface DealCursor {
  created_at: string | Date;
  id: string;
}

/** The ids of the next `limit` deals of the team not archived, in (created_at, id) order after `after`. */
export async function dealIdsPage(
  db: DbExecutor,
  teamId: string,
  after: DealCursor | null,
  limit: number,
): Promise<{ ids: string[]; next: DealCursor | null }> {
  let q = db.selectFrom('deals').select(['id', 'created_at']).where('team_id', '=', teamId).where('status', '!=', 'arquivado');
  if (after) q = q.where(sql<boolean>`(created_at, id) > (${after.created_at}, ${after.id})`);
  const rows = await q.orderBy('created_at').orderBy('id').limit(limit).execute();
  const last = rows[rows.length - 1];
  return { ids: rows.map((r) => r.id), next: rows.length < limit || !last ? null : { created_at: last.created_at, id: last.id } };
}

/** Whether a deal of the team not archived has no phase entry yet (written before migration 0014). */
export async function anyDealWithoutPhaseEntry(db: DbExecutor, teamId: string): Promise<boolean> {
  const row = await db
    .selectFrom('deals')
    .select('id')
    .where('team_id', '=', teamId)
    .where('status', '!=', 'arquivado')
    .where('phase_changed_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Ids of a client's deals that are not archived (whose summary names the client). */
export async function dealIdsOfClient(db: DbExecutor, teamId: string, clientId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('deals')
    .select('id')
    .where('team_id', '=', teamId)
    .where('client_id', '=', clientId)
    .where('status', '!=', 'arquivado')
    .execute();
  return rows.map((r) => r.id);
}

/** Per client: its first deal's creation. */
export async function clientFirstDeals(db: DbExecutor, teamId: string, clientIds?: readonly string[]): Promise<Map<string, number>> {
  if (clientIds && clientIds.length === 0) return new Map();
  let q = db
    .selectFrom('deals')
    .select((eb) => ['client_id', eb.fn.min('created_at').as('first')])
    .where('team_id', '=', teamId)
    .groupBy('client_id');
  // With a list, `in` alone (with `is not null` SQLite range-scans the team's deals instead of looking each client up).
  q = clientIds ? q.where('client_id', 'in', [...clientIds]) : q.where('client_id', 'is not', null);
  const rows = await q.execute();
  return new Map(rows.map((r) => [r.client_id!, ms(r.first)!]));
}

export const teamTimeZone = async (db: DbExecutor, teamId: string): Promise<string> =>
  (await db.selectFrom('teams').select('time_zone').where('id', '=', teamId).executeTakeFirst())?.time_zone ?? 'America/Sao_Paulo';

export const loadPhasesWithLabels = (db: DbExecutor, teamId: string) =>
  db.selectFrom('team_phases').select(['name', 'position', 'probability', 'label']).where('team_id', '=', teamId).orderBy('position').execute();

/** Writes a deal's refreshed fields (and the phase entry a first refresh derived): no event, no updated_at. */
export async function writeAiFields(
  db: DbExecutor,
  teamId: string,
  id: string,
  fields: { ai_win_probability: number | null; ai_summary: string | null; phase_changed_at?: string },
): Promise<void> {
  await db.updateTable('deals').set(fields).where('team_id', '=', teamId).where('id', '=', id).execute();
}

/** Teams with deals not archived (the hourly refresh's round). */
export async function teamsWithDeals(db: DbExecutor): Promise<string[]> {
  // The per-status counters triggers keep: a few rows per team, not the deals.
  const rows = await db
    .selectFrom('record_counts')
    .select('team_id')
    .where('resource', '=', 'deals')
    .where('status', 'in', ['ativo', 'ganho', 'perdido'])
    .groupBy('team_id')
    .having((eb) => eb.fn.sum('n'), '>', 0)
    .execute();
  return rows.map((r) => r.team_id);
}

/**
 * Início's weighted pipeline: the team's `ativo` deals per month of expected close (null: none set),
 * with their value and their value × probability (the served `ai_win_probability`, or the deal's own
 * `probability` where there is none). One grouped read over deals_team_status_close_idx.
 */
export async function weightedPipeline(db: DbExecutor, teamId: string) {
  const rows = await db
    .selectFrom('deals')
    .select((eb) => [
      sql<string | null>`substr(expected_close_date, 1, 7)`.as('month'),
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.sum<number | string | null>('value_cents').as('value_cents'),
      sql<number | string | null>`sum(value_cents * coalesce(ai_win_probability, probability))`.as('weighted'),
    ])
    .where('team_id', '=', teamId)
    .where('status', '=', 'ativo')
    .groupBy(sql`substr(expected_close_date, 1, 7)`)
    .execute();
  return rows
    .map((r) => ({
      month: r.month,
      count: Number(r.count),
      value_cents: Number(r.value_cents ?? 0),
      weighted_cents: Math.round(Number(r.weighted ?? 0) / 100),
    }))
    .sort((a, b) => (a.month === b.month ? 0 : a.month === null ? 1 : b.month === null ? -1 : a.month < b.month ? -1 : 1));
}
