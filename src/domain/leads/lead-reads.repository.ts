import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../storage/database.js';
import { dialectOf } from '../../storage/dialect.js';
import type { DbExecutor } from '../../storage/executor.js';
import type { DealFilters } from '../deals/deals.repository.js';
import { DEALS } from '../deals/deals.resource.js';
import { filtered } from '../reads/read-query.repository.js';
import type { Scope } from '../reads/scope.js';

/**
 * What the panel reads of leads: the board's untouched leads, a person's unseen notices and the
 * response times of a period. Deals are read in the caller's scope with the read planner's own
 * conditions (`filtered`), so a lead shows exactly where a list in the same scope would show its deal.
 */

type DealsWithClient<O> = SelectQueryBuilder<Database, 'deals' | 'clients', O>;

/** The read planner's conditions for deals (scope, status, filters, search): the deals a list in the same scope shows. */
function inScope<O>(
  db: DbExecutor,
  query: DealsWithClient<O>,
  scope: Scope,
  q: { filters: Partial<Record<string, string | number>>; status?: string; search?: string | undefined },
): DealsWithClient<O> {
  return filtered(query, DEALS, scope, q, { dialect: dialectOf(db) });
}

/** The responsible's name: users by the team and the id as text (responsible_id is free text, users.id a uuid on PostgreSQL). */
const userIdText = (db: DbExecutor) => (dialectOf(db) === 'postgres' ? sql<string>`${sql.ref('users.id')}::text` : sql<string>`${sql.ref('users.id')}`);

export interface WaitingLeadRow {
  id: string;
  title: string;
  value_cents: number | null;
  phase: string;
  client_id: string | null;
  client_name: string | null;
  responsible_id: string | null;
  responsible_name: string | null;
  lead_received_at: string | Date;
}

/**
 * The `ativo` lead deals never answered (no completed activity, no phase change), oldest first, with
 * the board's filters: read from deals_team_lead_idx (team, lead_received_at where not null).
 */
export async function waitingLeadDeals(db: DbExecutor, scope: Scope, filters: DealFilters, limit: number): Promise<WaitingLeadRow[]> {
  const { status = 'ativo', search, ...rest } = filters;
  const withClient = db
    .selectFrom('deals')
    .leftJoin('clients', (join) => join.onRef('clients.id', '=', 'deals.client_id').onRef('clients.team_id', '=', 'deals.team_id'));
  const query = inScope(db, withClient, scope, { filters: { ...rest }, status, search });
  return (await query
    .where('deals.lead_received_at', 'is not', null)
    .where('deals.lead_responded_at', 'is', null)
    .leftJoin('users', (join) => join.onRef('users.team_id', '=', 'deals.team_id').on(userIdText(db), '=', sql.ref('deals.responsible_id')))
    .select([
      'deals.id',
      'deals.title',
      'deals.value_cents',
      'deals.phase',
      'deals.client_id',
      'clients.name as client_name',
      'deals.responsible_id',
      'users.name as responsible_name',
      'deals.lead_received_at',
    ])
    .orderBy('deals.lead_received_at', 'asc')
    .orderBy('deals.id', 'asc')
    .limit(limit)
    .execute()) as WaitingLeadRow[];
}

export interface LeadNoticeRow {
  id: string;
  deal_id: string;
  deal_title: string;
  client_name: string | null;
  source: string;
  received_at: string | Date;
}

/** The leads assigned to a person that opened a deal and that they have not seen yet, newest first (leads_team_responsible_idx). */
export const unseenLeads = (db: DbExecutor, teamId: string, userId: string, limit: number) =>
  db
    .selectFrom('leads')
    .innerJoin('deals', (join) => join.onRef('deals.id', '=', 'leads.deal_id').onRef('deals.team_id', '=', 'leads.team_id'))
    .leftJoin('clients', (join) => join.onRef('clients.id', '=', 'deals.client_id').onRef('clients.team_id', '=', 'deals.team_id'))
    .select(['leads.id', 'leads.deal_id', 'deals.title as deal_title', 'clients.name as client_name', 'leads.source', 'leads.received_at'])
    .where('leads.team_id', '=', teamId)
    .where('leads.responsible_id', '=', userId)
    .where('leads.seen_at', 'is', null)
    .where('leads.duplicate', '=', 0 as never)
    .orderBy('leads.received_at', 'desc')
    .orderBy('leads.id', 'desc')
    .limit(limit)
    .execute() as Promise<LeadNoticeRow[]>;

export async function countUnseenLeads(db: DbExecutor, teamId: string, userId: string): Promise<number> {
  const row = await db
    .selectFrom('leads')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('team_id', '=', teamId)
    .where('responsible_id', '=', userId)
    .where('seen_at', 'is', null)
    .where('duplicate', '=', 0 as never)
    .where('deal_id', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks a person's lead notice seen (once: the first time stays); false when it is not theirs. */
export async function markLeadSeen(db: DbExecutor, teamId: string, userId: string, leadId: string, at: string): Promise<boolean> {
  const found = await db
    .selectFrom('leads')
    .select(['id', 'seen_at'])
    .where('team_id', '=', teamId)
    .where('responsible_id', '=', userId)
    .where('id', '=', leadId)
    .executeTakeFirst();
  if (!found) return false;
  if (found.seen_at === null) await db.updateTable('leads').set({ seen_at: at }).where('id', '=', leadId).where('seen_at', 'is', null).execute();
  return true;
}

export interface LeadResponseRow {
  responsible_id: string | null;
  responsible_name: string | null;
  lead_received_at: string | Date;
  lead_responded_at: string | Date | null;
}

/** The lead deals received in [from, to) in the caller's scope, any status (a lead answered and then lost still counts). */
export async function leadResponses(db: DbExecutor, scope: Scope, from: string, to: string): Promise<LeadResponseRow[]> {
  const deals = db.selectFrom('deals') as unknown as DealsWithClient<object>;
  // Every status: with no status asked, the planner's condition hides archived deals only, as a list does.
  const query = inScope(db, deals, scope, { filters: {} });
  return (await query
    .where('deals.lead_received_at', '>=', from)
    .where('deals.lead_received_at', '<', to)
    .leftJoin('users', (join) => join.onRef('users.team_id', '=', 'deals.team_id').on(userIdText(db), '=', sql.ref('deals.responsible_id')))
    .select(['deals.responsible_id', 'users.name as responsible_name', 'deals.lead_received_at', 'deals.lead_responded_at'])
    .execute()) as LeadResponseRow[];
}
