import type { DbExecutor, Trx } from '../../storage/executor.js';
import { sql, type Expression, type QueryCreator, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { compiledQuery, compiledQueryFamily } from '../../storage/compiled-query.js';
import { compiledInsertWithEventsPostgres } from '../events/events.repository.js';
import type { Database, DealUpdate, NewDealRow } from '../../storage/database.js';
import type { DialectName } from '../../storage/dialect.js';
import { boardTotalsByPhase, onlyActiveFilter, sortOrder, teamColumn } from '../shared/list-sql.js';
import { searchCondition } from '../shared/search-sql.js';
import type { DealRowWithClient } from './deals.mapper.js';
import { clientFirstDealColumn, ONE_DEAL_CONTEXT_COLUMNS, oneDealContextOf, type OneDealContext } from '../ai/serving.repository.js';
import { dealPhasesWithTotalsQuery, listDealPhasesWithTotals, withTotals, type PhaseWithTotals } from '../phases/phases.repository.js';

export interface DealFilters {
  status?: string;
  phase?: string;
  client_id?: string;
  responsible_id?: string;
  source?: string;
  store_id?: string;
  minCents?: number;
  maxCents?: number;
  createdFrom?: string;
  createdBefore?: string;
  search?: string;
}

function withClient(db: DbExecutor) {
  return db
    .selectFrom('deals')
    .leftJoin('clients', (join) => join.onRef('clients.id', '=', 'deals.client_id').onRef('clients.team_id', '=', 'deals.team_id'))
    .selectAll('deals')
    .select('clients.name as client_name');
}

const dealById = compiledQuery('deal_by_id', (db: DbExecutor, teamId: string, id: string) =>
  withClient(db).where('deals.team_id', '=', teamId).where('deals.id', '=', id),
);

/** A deal with its client's name; no lock. GET /deals/:id's hot path: compiled once (storage/compiled-query.ts). */
export async function findDeal(db: DbExecutor, teamId: string, id: string): Promise<DealRowWithClient | undefined> {
  return dealById.executeTakeFirst(db, teamId, id);
}

/** The same, row-locked until the transaction ends (PostgreSQL), so concurrent updates compute their changes from the row they replace. */
export async function findDealForUpdate(trx: Trx, teamId: string, id: string): Promise<DealRowWithClient | undefined> {
  const query = withClient(trx).where('deals.team_id', '=', teamId).where('deals.id', '=', id).forUpdate('deals');
  return query.executeTakeFirst();
}

export const insertDeal = (db: DbExecutor, row: NewDealRow) => db.insertInto('deals').values(row).execute();

/** Every column a create writes, in one fixed order: the compiled insert below binds them by position. */
const DEAL_COLUMNS = [
  'id',
  'team_id',
  'title',
  'description',
  'value_cents',
  'currency',
  'phase',
  'priority',
  'priority_rank',
  'probability',
  'status',
  'expected_close_date',
  'source',
  'loss_reason',
  'tags',
  'is_starred',
  'store_id',
  'client_id',
  'responsible_id',
  'case_id',
  'search_text',
  'title_key',
  'archived_at',
  'created_at',
  'updated_at',
  'ai_win_probability',
  'ai_summary',
  'phase_changed_at',
] as const satisfies ReadonlyArray<keyof NewDealRow>;

type DealColumn = (typeof DEAL_COLUMNS)[number];
/** A create's row: every column given (null where empty), so one compiled statement serves them all. */
export type CreatedDealRow = { [C in DealColumn]-?: Exclude<NewDealRow[C], undefined> };

/** A create's insert with its values bound by position (DEAL_COLUMNS' order, see dealValues). */
export const boundDealInsert = (db: QueryCreator<Database>, ...values: unknown[]) =>
  db.insertInto('deals').values(Object.fromEntries(DEAL_COLUMNS.map((column, i) => [column, values[i]])) as unknown as NewDealRow);

/** A create's row as the values of boundDealInsert. */
export const dealValues = (row: CreatedDealRow): unknown[] => DEAL_COLUMNS.map((column) => row[column]);

const insertDealStatement = compiledQuery('insert_deal', boundDealInsert);

/** A create's insert, built and compiled once (Kysely's building was a per-request cost of POST /deals, issue 15). */
export async function insertCreatedDeal(db: DbExecutor, row: CreatedDealRow): Promise<void> {
  await insertDealStatement.execute(db, ...dealValues(row));
}

/**
 * PostgreSQL: a create's deal, its event, its delivery and the worker's NOTIFY as one statement,
 * compiled once (events.repository.ts); more than one delivery takes the general path.
 */
export const insertDealWithEventsPostgres = compiledInsertWithEventsPostgres('deal_create', boundDealInsert);

/**
 * What a create checks and needs, in one read: the phase (its suggested probability), the client
 * (its name; `clientId` null names none), what the deal's `ai_win_probability` and `ai_summary` read
 * (the team's time zone and model version, the phase's label, the client's segment and first deal,
 * the car `caseId` names in the team) and the team's enabled webhooks, one row per webhook (one row
 * with null webhook columns when there is none).
 */
const createLookupStatement = compiledQuery(
  'deal_create_lookup',
  (db: DbExecutor, teamId: string, phase: string, clientId: string | null, caseId: string | null) =>
    db
      .selectFrom('teams as t')
      .leftJoin('team_phases as p', (join) => join.onRef('p.team_id', '=', 't.id').on('p.name', '=', phase))
      .leftJoin('clients as c', (join) => join.onRef('c.team_id', '=', 't.id').on('c.id', '=', clientId))
      .leftJoin('vehicles as v', (join) => join.onRef('v.team_id', '=', 't.id').on('v.id', '=', caseId))
      .leftJoin('ai_models as m', (join) => join.onRef('m.team_id', '=', 't.id').on('m.trained_at', 'is not', null))
      .leftJoin('webhooks as w', (join) => join.onRef('w.team_id', '=', 't.id').on('w.status', '=', 'enabled'))
      .select([
        'p.name as phase_name',
        'p.probability as phase_probability',
        ...ONE_DEAL_CONTEXT_COLUMNS,
        'c.id as client_id',
        'w.id as hook_id',
        'w.events as hook_events',
      ])
      .select(clientFirstDealColumn(teamId, clientId))
      .where('t.id', '=', teamId),
);

export interface CreateLookup {
  phase: { name: string; probability: number } | undefined;
  client: { id: string; name: string } | undefined;
  /** What the new deal's AI fields read (undefined: the team does not exist). */
  ai: OneDealContext | undefined;
  hooks: Array<{ id: string; events: string }>;
}

export async function createLookup(db: DbExecutor, teamId: string, phase: string, clientId: string | null, caseId: string | null): Promise<CreateLookup> {
  const rows = await createLookupStatement.execute(db, teamId, phase, clientId, caseId);
  const first = rows[0];
  return {
    phase: first?.phase_name != null ? { name: first.phase_name, probability: Number(first.phase_probability) } : undefined,
    client: first?.client_id != null ? { id: first.client_id, name: first.client_name! } : undefined,
    ai: first ? oneDealContextOf(first) : undefined,
    hooks: rows.flatMap((r) => (r.hook_id != null ? [{ id: r.hook_id, events: r.hook_events! }] : [])),
  };
}

export const updateDeal = (db: DbExecutor, teamId: string, id: string, patch: DealUpdate) =>
  db.updateTable('deals').set(patch).where('team_id', '=', teamId).where('id', '=', id).execute();

/** A query from deals alone, typed as one that may join clients (applyFilters never names clients). */
type DealsOnly<O> = SelectQueryBuilder<Database, 'deals' | 'clients', O>;

/** The list's conditions; they name only deals' columns, so they apply to a query from deals with or without the client join. */
function applyFilters<O>(
  query: SelectQueryBuilder<Database, 'deals' | 'clients', O>,
  dialect: DialectName,
  teamId: string,
  f: DealFilters,
  fromSearchIndex = false,
  /** A listed search's own condition (listedSearchPage), in place of the search's. */
  listedSearch: RawBuilder<boolean> | null = null,
) {
  let q = query.where(teamColumn('deals', fromSearchIndex), '=', teamId);
  // Archived deals are soft-deleted: listed only when asked for by status.
  q = f.status ? q.where('deals.status', '=', f.status as never) : q.where('deals.status', '!=', 'arquivado');
  if (f.phase !== undefined) q = q.where('deals.phase', '=', f.phase);
  if (f.client_id !== undefined) q = q.where('deals.client_id', '=', f.client_id);
  if (f.responsible_id !== undefined) q = q.where('deals.responsible_id', '=', f.responsible_id);
  if (f.source !== undefined) q = q.where('deals.source', '=', f.source);
  if (f.store_id !== undefined) q = q.where('deals.store_id', '=', f.store_id);
  if (f.minCents !== undefined) q = q.where('deals.value_cents', '>=', f.minCents);
  if (f.maxCents !== undefined) q = q.where('deals.value_cents', '<=', f.maxCents);
  if (f.createdFrom !== undefined) q = q.where('deals.created_at', '>=', f.createdFrom);
  if (f.createdBefore !== undefined) q = q.where('deals.created_at', '<', f.createdBefore);
  // Without a status filter the search index answers with the team's listed rows only.
  if (f.search !== undefined) q = q.where(listedSearch ?? searchCondition(dialect, 'deals', [f.search], teamId, f.status ? 'team' : 'listed'));
  return q;
}

/** The columns a deals board card shows (boards.service.ts toCard): a page reads these, never whole rows. */
const CARD_COLUMNS = [
  'deals.id',
  'deals.title',
  'deals.value_cents',
  'deals.priority',
  'deals.phase',
  'deals.status',
  'deals.client_id',
  'deals.responsible_id',
  'deals.updated_at',
  'deals.ai_win_probability',
] as const;

/** A card of the deals board: its deal's columns, its client's and its responsible's names and whether it has an overdue activity. */
export type DealCardRow = Pick<
  DealRowWithClient,
  'id' | 'title' | 'value_cents' | 'priority' | 'phase' | 'status' | 'client_id' | 'responsible_id' | 'updated_at' | 'client_name' | 'ai_win_probability'
> & {
  /** Null when the responsible is not one of the team's people (an integrator may name any id). */
  responsible_name: string | null;
  /** An open activity (pending or in progress) of the deal due before `now` (1/0 on SQLite, a boolean on PostgreSQL). */
  has_overdue_activity: number | boolean;
};

/**
 * One column of the deals board as cards: a page of the team's deals in `phase` (status and the
 * other filters as given), most valuable first, read in order from deals_team_phase_value_idx (team,
 * phase, value, id, status): `limit + 1` rows tell whether there are more, no count of the column is
 * needed. Each card comes with its client's name, its responsible's name (users, by the team and the
 * id as text: responsible_id is free text, users.id a uuid on PostgreSQL) and an EXISTS probe of
 * activities_team_deal_idx, so the cards need no other read.
 */
export function boardCardQuery(
  db: DbExecutor,
  dialect: DialectName,
  teamId: string,
  phase: string | Expression<string>,
  filters: DealFilters,
  offset: number,
  limit: number,
  now: string,
) {
  const sort = { field: 'value', direction: 'desc' } as const;
  const userId = dialect === 'postgres' ? sql<string>`${sql.ref('users.id')}::text` : sql<string>`${sql.ref('users.id')}`;
  const withClient = db
    .selectFrom('deals')
    .leftJoin('clients', (join) => join.onRef('clients.id', '=', 'deals.client_id').onRef('clients.team_id', '=', 'deals.team_id'));
  return applyFilters(withClient, dialect, teamId, { ...filters, phase: undefined })
    .where('deals.phase', '=', phase)
    .leftJoin('users', (join) => join.onRef('users.team_id', '=', 'deals.team_id').on(userId, '=', sql.ref('deals.responsible_id')))
    .select((eb) => [
      ...CARD_COLUMNS,
      'clients.name as client_name',
      'users.name as responsible_name',
      eb
        .exists(
          eb
            .selectFrom('activities')
            .select(sql.lit(1).as('one'))
            .where('activities.team_id', '=', teamId)
            .whereRef('activities.deal_id', '=', 'deals.id')
            .where('activities.status', 'in', ['pending', 'in_progress'])
            .where('activities.due_at', '<', now),
        )
        .as('has_overdue_activity'),
    ])
    .orderBy(sql.ref('deals.value_cents'), sortOrder(dialect, sort, true))
    .orderBy('deals.id', 'desc')
    .limit(limit)
    .offset(offset);
}

/** The board's own filter only: its statements are built and compiled once (storage/compiled-query.ts). */
const ACTIVE: DealFilters = { status: 'ativo' };

const activeColumnCards = compiledQueryFamily(
  'deals_board_column',
  (dialect: DialectName) => (db: DbExecutor, teamId: string, phase: string, offset: number, limit: number, now: string) =>
    boardCardQuery(db, dialect, teamId, phase, ACTIVE, offset, limit, now),
);

/** One page of one column of the deals board, as cards (the column's "carregar mais"): one statement. */
export const boardColumnCards = (
  db: DbExecutor,
  dialect: DialectName,
  teamId: string,
  phase: string,
  filters: DealFilters,
  offset: number,
  limit: number,
  now: string,
): Promise<DealCardRow[]> =>
  onlyActiveFilter(filters)
    ? activeColumnCards(dialect).execute(db, teamId, phase, offset, limit, now)
    : boardCardQuery(db, dialect, teamId, phase, filters, offset, limit, now).execute();

/**
 * The first `limit` cards of several columns of the deals board in ONE statement: per phase the
 * column's own query (boardCardQuery, stopped after `limit` rows of the phase index), the branches
 * joined by UNION ALL, so a board is one round trip instead of one per column. `board_column` is the
 * phase's index in `phases`; the rows come column by column, each in the column's order (the outer
 * ORDER BY sorts at most `limit` rows per column, never the team).
 */
function boardColumnsQuery(db: DbExecutor, dialect: DialectName, teamId: string, filters: DealFilters, limit: number, now: string, phases: string[]) {
  if (dialect === 'postgres') {
    // PostgreSQL: the phases as one array, each column a LATERAL page of the same subquery, so the
    // statement is planned once per column shape (not once per branch) and is the same for any number
    // of phases (planning a 5-branch UNION cost more than running it).
    return db
      .selectFrom(sql<{ phase: string; k: number }>`(select * from unnest(${phases}::text[]) with ordinality as t(phase, k))`.as('p'))
      .innerJoinLateral(
        () => boardCardQuery(db, dialect, teamId, sql.ref<string>('p.phase'), filters, 0, limit, now).as('c'),
        (join) => join.onTrue(),
      )
      .selectAll('c')
      .select(sql<number>`p.k - 1`.as('board_column'))
      .orderBy('p.k')
      .orderBy('c.value_cents', sortOrder(dialect, { field: 'value', direction: 'desc' }, true))
      .orderBy('c.id', 'desc');
  }
  const [first, ...rest] = phases.map((phase, i) =>
    db
      .selectFrom(boardCardQuery(db, dialect, teamId, phase, filters, 0, limit, now).as('c'))
      .selectAll('c')
      .select(sql.lit(i).as('board_column')),
  );
  const sort = { field: 'value', direction: 'desc' } as const;
  return rest
    .reduce((union, branch) => union.unionAll(branch), first!)
    .orderBy('board_column')
    .orderBy('value_cents', sortOrder(dialect, sort, true))
    .orderBy('id', 'desc');
}

// Unfiltered boards: one compiled statement per dialect and number of phases (the phases are bound values).
const activeColumnsCards = compiledQueryFamily(
  'deals_board',
  (key: `${DialectName}_${number}`) =>
    (db: DbExecutor, teamId: string, limit: number, now: string, ...names: string[]) =>
      boardColumnsQuery(db, key.split('_')[0] as DialectName, teamId, ACTIVE, limit, now, names),
);

const activeColumnsCardsPg = compiledQuery('deals_board_postgres', (db: DbExecutor, teamId: string, limit: number, now: string, phases: string[]) =>
  boardColumnsQuery(db, 'postgres', teamId, ACTIVE, limit, now, phases),
);

export async function boardColumnsCards(
  db: DbExecutor,
  dialect: DialectName,
  teamId: string,
  phases: string[],
  filters: DealFilters,
  limit: number,
  now: string,
): Promise<Array<DealCardRow & { board_column: number }>> {
  if (phases.length === 0) return [];
  const rows = onlyActiveFilter(filters)
    ? dialect === 'postgres'
      ? await activeColumnsCardsPg.execute(db, teamId, limit, now, phases)
      : await activeColumnsCards(`${dialect}_${phases.length}`).execute(db, teamId, limit, now, ...phases)
    : await boardColumnsQuery(db, dialect, teamId, filters, limit, now, phases).execute();
  for (const row of rows) row.board_column = Number(row.board_column);
  return rows;
}

/** Count and summed value of the team's deals per phase (filters as given): one grouped read of the (team, phase, value, status) index. */
export async function boardDealTotals(
  db: DbExecutor,
  dialect: DialectName,
  teamId: string,
  filters: DealFilters,
): Promise<Array<{ phase: string; count: number; value_cents: number }>> {
  if (onlyActiveFilter(filters)) return (await boardTotalsByPhase(db, teamId, 'deals')).map((r) => ({ phase: r.phase, count: r.count, value_cents: r.total }));
  const rows = await applyFilters(
    db
      .selectFrom('deals')
      .select((eb) => [
        'deals.phase',
        eb.fn.countAll<number>().as('count'),
        eb.fn.coalesce(eb.fn.sum<number>('deals.value_cents'), eb.lit(0)).as('value_cents'),
      ])
      .groupBy('deals.phase') as DealsOnly<{ phase: string; count: number; value_cents: number }>,
    dialect,
    teamId,
    filters,
  ).execute();
  return rows.map((r) => ({ phase: r.phase, count: Number(r.count), value_cents: Number(r.value_cents) }));
}

/** Count and summed value per status of the team's deals in `statuses` last changed in [from, before) (the dashboard's month; deals_team_updated_idx). */
export async function dealTotalsChangedBetween(
  db: DbExecutor,
  teamId: string,
  statuses: string[],
  from: string,
  before: string,
): Promise<Array<{ status: string; count: number; value_cents: number }>> {
  const rows = await db
    .selectFrom('deals')
    .select((eb) => ['status', eb.fn.countAll<number>().as('count'), eb.fn.coalesce(eb.fn.sum<number>('value_cents'), eb.lit(0)).as('value_cents')])
    .where('team_id', '=', teamId)
    .where('updated_at', '>=', from)
    .where('updated_at', '<', before)
    .where('status', 'in', statuses as never)
    .groupBy('status')
    .execute();
  return rows.map((r) => ({ status: r.status, count: Number(r.count), value_cents: Number(r.value_cents) }));
}

/**
 * PostgreSQL: the whole unfiltered deals board in ONE statement: the phases with their totals
 * (dealPhasesWithTotalsQuery) and, per phase with deals, a LATERAL page of its column
 * (boardCardQuery, `limit` rows of the phase index). A phase without cards comes as one row whose
 * card columns are null. Rows come phase by phase, each column in its order.
 */
const activeBoardPg = compiledQuery('deals_board_full_postgres', (db: DbExecutor, teamId: string, limit: number, now: string) =>
  db
    .selectFrom(dealPhasesWithTotalsQuery(db, teamId).as('p'))
    .leftJoinLateral(
      () =>
        boardCardQuery(db, 'postgres', teamId, sql.ref<string>('p.name'), ACTIVE, 0, limit, now)
          .where(sql<boolean>`coalesce(p.n, 0) <> 0`)
          .as('c'),
      (join) => join.onTrue(),
    )
    .select(['p.name as board_phase', 'p.label as board_label', 'p.probability as board_probability', 'p.n as board_n', 'p.total as board_total'])
    .selectAll('c')
    .orderBy('p.position')
    .orderBy('c.value_cents', sortOrder('postgres', { field: 'value', direction: 'desc' }, true))
    .orderBy('c.id', 'desc'),
);

/** The unfiltered deals board: its phases with their totals, and the first `limit` cards of every phase with deals. */
export interface ActiveDealsBoard {
  phases: PhaseWithTotals[];
  cards: DealCardRow[];
}

/**
 * The unfiltered deals board (its own `ativo` filter only). PostgreSQL: one statement, one round
 * trip (activeBoardPg). SQLite: two statements, the phases with their totals, then every column with
 * deals in one UNION ALL (boardColumnsCards).
 */
export async function activeDealsBoard(db: DbExecutor, dialect: DialectName, teamId: string, limit: number, now: string): Promise<ActiveDealsBoard> {
  if (dialect === 'postgres') {
    const phases: PhaseWithTotals[] = [];
    const cards: DealCardRow[] = [];
    for (const row of await activeBoardPg.execute(db, teamId, limit, now)) {
      if (phases.at(-1)?.name !== row.board_phase) {
        phases.push(
          withTotals({
            name: row.board_phase,
            label: row.board_label,
            position: phases.length,
            probability: row.board_probability,
            n: row.board_n,
            total: row.board_total,
          }),
        );
      }
      // The card's own fields are read by name (boards.service.ts toCard); the phase's columns ride along.
      if (row.id !== null) cards.push(row as unknown as DealCardRow);
    }
    return { phases, cards };
  }
  const phases = await listDealPhasesWithTotals(db, teamId);
  const read = phases.filter((p) => p.count !== 0).map((p) => p.name);
  const cards = await boardColumnsCards(db, dialect, teamId, read, ACTIVE, limit, now);
  return { phases, cards };
}
