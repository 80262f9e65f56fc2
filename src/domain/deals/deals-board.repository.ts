import { sql, type Expression, type SelectQueryBuilder } from 'kysely';
import { compiledQuery, compiledQueryFamily } from '../../storage/compiled-query.js';
import type { Database } from '../../storage/database.js';
import { dialectOf, type DialectName } from '../../storage/dialect.js';
import type { DbExecutor } from '../../storage/executor.js';
import { dealPhasesWithTotalsQuery, listDealPhasesWithTotals, withTotals, type PhaseWithTotals } from '../phases/phases.repository.js';
import { filtered } from '../reads/read-query.repository.js';
import { teamScope, type Scope } from '../reads/scope.js';
import { boardTotalsByPhase, onlyActiveFilter, sortOrder } from '../shared/list-sql.js';
import type { DealRowWithClient } from './deals.mapper.js';
import type { DealFilters } from './deals.repository.js';
import { DEALS } from './deals.resource.js';

/**
 * The deals board (the panel's pipeline): its columns' cards and its totals, in the caller's scope,
 * with the read planner's conditions (`filtered`). The unfiltered board of a team-wide scope has
 * statements compiled once per shape; PostgreSQL reads a whole board in one statement.
 */

/** A query from deals alone, typed as one that may join clients (the filters never name clients). */
type DealsOnly<O> = SelectQueryBuilder<Database, 'deals' | 'clients', O>;

/**
 * A board's conditions: the read planner's (read-query.repository.ts, `filtered`), from the deals'
 * description and the caller's scope, so a board shows exactly the deals a list in the same scope would.
 */
function applyFilters<O>(query: DealsOnly<O>, dialect: DialectName, scope: Scope, f: DealFilters): DealsOnly<O> {
  const { status, search, ...filters } = f;
  return filtered(query, DEALS, scope, { filters, status, search }, { dialect });
}

/** The compiled board statements bind the team alone: a scope with more than its team (a store, a seller) is built each time. */
const teamOnly = (scope: Scope): boolean => Object.values(scope).filter((v) => v !== undefined).length === 1;

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
  scope: Scope,
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
  return applyFilters(withClient, dialect, scope, { ...filters, phase: undefined })
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
            .where('activities.team_id', '=', scope.teamId)
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
    boardCardQuery(db, dialect, teamScope(teamId), phase, ACTIVE, offset, limit, now),
);

/** One page of one column of the deals board, as cards (the column's "carregar mais"): one statement. */
export function boardColumnCards(
  db: DbExecutor,
  scope: Scope,
  phase: string,
  filters: DealFilters,
  offset: number,
  limit: number,
  now: string,
): Promise<DealCardRow[]> {
  const dialect = dialectOf(db);
  return onlyActiveFilter(filters) && teamOnly(scope)
    ? activeColumnCards(dialect).execute(db, scope.teamId, phase, offset, limit, now)
    : boardCardQuery(db, dialect, scope, phase, filters, offset, limit, now).execute();
}

/**
 * The first `limit` cards of several columns of the deals board in ONE statement: per phase the
 * column's own query (boardCardQuery, stopped after `limit` rows of the phase index), the branches
 * joined by UNION ALL, so a board is one round trip instead of one per column. `board_column` is the
 * phase's index in `phases`; the rows come column by column, each in the column's order (the outer
 * ORDER BY sorts at most `limit` rows per column, never the team).
 */
function boardColumnsQuery(db: DbExecutor, dialect: DialectName, scope: Scope, filters: DealFilters, limit: number, now: string, phases: string[]) {
  if (dialect === 'postgres') {
    // PostgreSQL: the phases as one array, each column a LATERAL page of the same subquery, so the
    // statement is planned once per column shape (not once per branch) and is the same for any number
    // of phases (planning a 5-branch UNION cost more than running it).
    return db
      .selectFrom(sql<{ phase: string; k: number }>`(select * from unnest(${phases}::text[]) with ordinality as t(phase, k))`.as('p'))
      .innerJoinLateral(
        () => boardCardQuery(db, dialect, scope, sql.ref<string>('p.phase'), filters, 0, limit, now).as('c'),
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
      .selectFrom(boardCardQuery(db, dialect, scope, phase, filters, 0, limit, now).as('c'))
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
      boardColumnsQuery(db, key.split('_')[0] as DialectName, teamScope(teamId), ACTIVE, limit, now, names),
);

const activeColumnsCardsPg = compiledQuery('deals_board_postgres', (db: DbExecutor, teamId: string, limit: number, now: string, phases: string[]) =>
  boardColumnsQuery(db, 'postgres', teamScope(teamId), ACTIVE, limit, now, phases),
);

export async function boardColumnsCards(
  db: DbExecutor,
  scope: Scope,
  phases: string[],
  filters: DealFilters,
  limit: number,
  now: string,
): Promise<Array<DealCardRow & { board_column: number }>> {
  if (phases.length === 0) return [];
  const dialect = dialectOf(db);
  const rows =
    onlyActiveFilter(filters) && teamOnly(scope)
      ? dialect === 'postgres'
        ? await activeColumnsCardsPg.execute(db, scope.teamId, limit, now, phases)
        : await activeColumnsCards(`${dialect}_${phases.length}`).execute(db, scope.teamId, limit, now, ...phases)
      : await boardColumnsQuery(db, dialect, scope, filters, limit, now, phases).execute();
  for (const row of rows) row.board_column = Number(row.board_column);
  return rows;
}

/** Count and summed value of the team's deals per phase (filters as given): one grouped read of the (team, phase, value, status) index. */
export async function boardDealTotals(
  db: DbExecutor,
  scope: Scope,
  filters: DealFilters,
): Promise<Array<{ phase: string; count: number; value_cents: number }>> {
  if (onlyActiveFilter(filters) && teamOnly(scope))
    return (await boardTotalsByPhase(db, scope.teamId, 'deals')).map((r) => ({ phase: r.phase, count: r.count, value_cents: r.total }));
  const rows = await applyFilters(
    db
      .selectFrom('deals')
      .select((eb) => [
        'deals.phase',
        eb.fn.countAll<number>().as('count'),
        eb.fn.coalesce(eb.fn.sum<number>('deals.value_cents'), eb.lit(0)).as('value_cents'),
      ])
      .groupBy('deals.phase') as DealsOnly<{ phase: string; count: number; value_cents: number }>,
    dialectOf(db),
    scope,
    filters,
  ).execute();
  return rows.map((r) => ({ phase: r.phase, count: Number(r.count), value_cents: Number(r.value_cents) }));
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
        boardCardQuery(db, 'postgres', teamScope(teamId), sql.ref<string>('p.name'), ACTIVE, 0, limit, now)
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
export async function activeDealsBoard(db: DbExecutor, scope: Scope, limit: number, now: string): Promise<ActiveDealsBoard> {
  const teamId = scope.teamId;
  if (dialectOf(db) === 'postgres') {
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
  const cards = await boardColumnsCards(db, scope, read, ACTIVE, limit, now);
  return { phases, cards };
}
