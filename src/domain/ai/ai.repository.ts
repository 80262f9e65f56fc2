import type { DbExecutor } from '../../storage/executor.js';
import type { AiModelRow, AiModelTable } from '../../storage/database.js';
import type { Insertable } from 'kysely';

const ms = (v: Date | string | null): number | null => (v === null ? null : typeof v === 'string' ? Date.parse(v) : v.getTime());

/** The team's phases with their suggested probabilities. */
export const loadPhases = (db: DbExecutor, teamId: string) =>
  db.selectFrom('team_phases').select(['name', 'position', 'probability']).where('team_id', '=', teamId).orderBy('position').execute();

/** Every deal event of the team, oldest first: the states of each deal's life (one statement). */
export async function loadDealEvents(db: DbExecutor, teamId: string): Promise<Array<{ at: number; object: string }>> {
  const rows = await db
    .selectFrom('events')
    .select(['created_at', 'object'])
    .where('team_id', '=', teamId)
    .where('type', 'in', ['deal.created', 'deal.updated'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ at: ms(r.created_at)!, object: r.object }));
}

export interface DealFactRow {
  id: string;
  status: string;
  created_at: number;
  client_id: string | null;
}

/** Every deal of the team: id, status, creation and client (one statement). */
export async function loadDealFacts(db: DbExecutor, teamId: string): Promise<DealFactRow[]> {
  const rows = await db.selectFrom('deals').select(['id', 'status', 'created_at', 'client_id']).where('team_id', '=', teamId).execute();
  return rows.map((r) => ({ ...r, created_at: ms(r.created_at)! }));
}

export interface ActivityFactRow {
  deal_id: string;
  type: string;
  status: string;
  title: string;
  created_at: number;
  due_at: number | null;
  completed_at: number | null;
  cancelled_at: number | null;
}

/** The activities linked to deals: of the whole team, or of some deals (one statement). */
export async function loadActivityFacts(db: DbExecutor, teamId: string, dealIds?: readonly string[]): Promise<ActivityFactRow[]> {
  if (dealIds && dealIds.length === 0) return [];
  let q = db
    .selectFrom('activities')
    .select(['deal_id', 'type', 'status', 'title', 'created_at', 'due_at', 'completed_at', 'cancelled_at'])
    .where('team_id', '=', teamId);
  // With a list, `in` alone: adding `is not null` made SQLite range-scan the team's every activity
  // (deal_id > NULL) instead of looking each deal up, per page of a team's refresh.
  q = dealIds ? q.where('deal_id', 'in', [...dealIds]) : q.where('deal_id', 'is not', null);
  const rows = await q.execute();
  return rows.map((r) => ({
    deal_id: r.deal_id!,
    type: r.type,
    status: r.status,
    title: r.title,
    created_at: ms(r.created_at)!,
    due_at: ms(r.due_at),
    completed_at: ms(r.completed_at),
    cancelled_at: ms(r.cancelled_at),
  }));
}

/** The team's clients (or some of them): segment and name. */
export async function loadClientFacts(db: DbExecutor, teamId: string, ids?: readonly string[]) {
  if (ids && ids.length === 0) return [];
  let q = db.selectFrom('clients').select(['id', 'segment', 'name']).where('team_id', '=', teamId);
  if (ids) q = q.where('id', 'in', [...ids]);
  return q.execute();
}

/** The team's vehicles (or some of them): price, entry in stock and name. */
export async function loadVehicleFacts(db: DbExecutor, teamId: string, ids?: readonly string[]) {
  if (ids && ids.length === 0) return [];
  let q = db.selectFrom('vehicles').select(['id', 'price_cents', 'created_at', 'title']).where('team_id', '=', teamId);
  if (ids) q = q.where('id', 'in', [...ids]);
  const rows = await q.execute();
  return rows.map((r) => ({ ...r, created_at: ms(r.created_at)! }));
}

export const findModel = (db: DbExecutor, teamId: string): Promise<AiModelRow | undefined> =>
  db.selectFrom('ai_models').selectAll().where('team_id', '=', teamId).executeTakeFirst();

/** Stores a training's outcome (and ends its lease). */
export async function saveModel(db: DbExecutor, row: Omit<Insertable<AiModelTable>, 'lease_until' | 'lease_token'>): Promise<void> {
  await db
    .insertInto('ai_models')
    .values({ ...row, lease_until: null, lease_token: null })
    .onConflict((oc) => oc.column('team_id').doUpdateSet({ ...row, lease_until: null, lease_token: null }))
    .execute();
}

/**
 * Takes the team's training lease when no other process holds it (or its holder's lease expired):
 * one statement, so two schedulers never both train the same team. True when taken.
 */
export async function claimTraining(db: DbExecutor, teamId: string, token: string, now: string, until: string): Promise<boolean> {
  await db
    .insertInto('ai_models')
    .values({
      team_id: teamId,
      version: 0,
      trained_at: null,
      closed_deals: 0,
      training_rows: 0,
      training_ms: 0,
      used: 'none',
      model: null,
      metrics: null,
      lease_until: null,
      lease_token: null,
    })
    .onConflict((oc) => oc.column('team_id').doNothing())
    .execute();
  const result = await db
    .updateTable('ai_models')
    .set({ lease_until: until, lease_token: token })
    .where('team_id', '=', teamId)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function releaseTraining(db: DbExecutor, teamId: string, token: string): Promise<void> {
  await db.updateTable('ai_models').set({ lease_until: null, lease_token: null }).where('team_id', '=', teamId).where('lease_token', '=', token).execute();
}

/**
 * Per team with closed deals: how many (from the per-status counters triggers keep, so this reads a
 * few rows per team, not the deals) and what its model was trained on: who needs training.
 */
export async function trainingCandidates(
  db: DbExecutor,
): Promise<Array<{ team_id: string; closed: number; trained_on: number | null; trained_at: number | null }>> {
  const rows = await db
    .selectFrom('record_counts')
    .leftJoin('ai_models', 'ai_models.team_id', 'record_counts.team_id')
    .select((eb) => [
      'record_counts.team_id as team_id',
      eb.fn.sum<number | string>('record_counts.n').as('closed'),
      eb.fn.max('ai_models.closed_deals').as('trained_on'),
      eb.fn.max('ai_models.trained_at').as('trained_at'),
    ])
    .where('record_counts.resource', '=', 'deals')
    .where('record_counts.status', 'in', ['ganho', 'perdido'])
    .groupBy('record_counts.team_id')
    .execute();
  return rows.map((r) => ({
    team_id: r.team_id,
    closed: Number(r.closed),
    trained_on: r.trained_on === null ? null : Number(r.trained_on),
    trained_at: ms(r.trained_at),
  }));
}
