import { sql, type Expression, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../storage/database.js';
import type { DialectName } from '../../storage/dialect.js';
import type { DbExecutor } from '../../storage/executor.js';
import { sortOrder, teamColumn } from '../shared/list-sql.js';
import { containsCondition, searchCondition, type SearchScope } from '../shared/search-sql.js';
import { exactSearch, searchQueries } from './exact-search.repository.js';
import type { ListQuery, ResourceDescription, ResourceTable } from './resource.js';
import { storeCondition, type Scope } from './scope.js';

/**
 * The pieces every read of a resource is built from, read off its description (resource.ts): the
 * scope's conditions, the filters, the search's condition, the sort. The planner
 * (read-planner.repository.ts) puts them together; nothing else writes a list's SQL.
 */

/** A query of a resource's table (its columns named by `sql.ref`, as the description gives them). */
export type ReadQuery<O> = SelectQueryBuilder<Database, ResourceTable | 'clients', O>;

const ref = (table: string, column: string) => sql.ref<unknown>(`${table}.${column}`);

/** The resource's table, with its client's name joined when the answer shows it (by client_id and the team). */
export function fromResource(db: DbExecutor, d: ResourceDescription): ReadQuery<object> {
  const from = db.selectFrom(d.table) as unknown as ReadQuery<object>;
  if (!d.clientName) return from;
  return from.leftJoin('clients', (join) =>
    join.on(sql.ref(`clients.id`), '=', sql.ref(`${d.table}.client_id`)).on(sql.ref('clients.team_id'), '=', sql.ref(`${d.table}.team_id`)),
  );
}

/** The answer's columns (and the client's name). */
export function selectView<O>(query: ReadQuery<object>, d: ResourceDescription): ReadQuery<O> {
  const columns = d.columns.map((c) => sql.ref(`${d.table}.${c}`).as(c));
  const q = query.select(columns);
  return (d.clientName ? q.select(sql.ref<string | null>('clients.name').as('client_name')) : q) as unknown as ReadQuery<O>;
}

/**
 * The scope's conditions: the caller's team, and its store when it is bound to one (scope.ts,
 * `storeCondition`). `fromSearchIndex` (SQLite): the team column behind a unary `+`, so the planner
 * finds the rows from the search index's hits instead of walking the team.
 */
export function inScope<O>(query: ReadQuery<O>, d: ResourceDescription, scope: Scope, fromSearchIndex = false): ReadQuery<O> {
  const inTeam = query.where(teamColumn(d.table as 'deals', fromSearchIndex), '=', scope.teamId);
  const store = storeCondition(scope, d.table);
  return store === null ? inTeam : inTeam.where(ref(d.table, store.column), '=', store.value);
}

/** Whether the list shows the listed rows only (no status asked, or the listed status itself): the search index's `listed` scope. */
export function listsListed(d: ResourceDescription, status: string | undefined): boolean {
  const rule = d.listed.rule;
  return status === undefined || status === '' || ('equals' in rule && status === rule.equals);
}

/** The status condition: the status asked for, else the listed rows (soft delete). */
export function statusCondition(d: ResourceDescription, status: string | undefined): { equals: boolean; status: string } {
  if (status) return { equals: true, status };
  const rule = d.listed.rule;
  return 'equals' in rule ? { equals: true, status: rule.equals } : { equals: false, status: rule.notEquals };
}

export interface FilterOptions {
  dialect: DialectName;
  /** SQLite: the rows are found from the search index's hits (see inScope). */
  fromSearchIndex?: boolean;
  /** A listed search's own condition (search-sql.ts, listedSearchPage), in place of the search's. */
  searched?: RawBuilder<boolean> | null;
  /** The sort's field: a range filter of its own column keeps its index. */
  sortField?: string;
  /** SQLite: range filters may use their own index (else only the sort's). */
  rangeIndex?: boolean;
}

/** Scope, status, every filter given, and the search: the list's whole WHERE. */
export function filtered<O>(query: ReadQuery<O>, d: ResourceDescription, scope: Scope, q: Omit<ListQuery, 'sort' | 'page'>, o: FilterOptions): ReadQuery<O> {
  const exact = q.search === undefined ? null : exactSearch(d, o.dialect, scope.teamId, q.search);
  // An exact search drives from its few candidates (SQLite: kept off the team indexes, as for the FTS hits).
  let out = inScope(query, d, scope, o.fromSearchIndex || exact !== null);
  const { equals, status } = statusCondition(d, q.status);
  out = out.where(ref(d.table, d.listed.column), equals ? '=' : '!=', status);
  const sortColumn = o.sortField === undefined ? undefined : d.sort[o.sortField];
  for (const [name, rule] of Object.entries(d.filters)) {
    const value = q.filters[name];
    if (value === undefined) continue;
    const ownIndex = !rule.range || o.rangeIndex !== false || (sortColumn && 'column' in sortColumn && sortColumn.column === rule.column);
    out = out.where(ownIndex ? ref(d.table, rule.column) : sql`+${ref(d.table, rule.column)}`, rule.op, value);
    if (rule.statusIn) out = out.where(ref(d.table, d.listed.column), 'in', rule.statusIn);
  }
  if (q.search !== undefined) {
    const scopeOfSearch: SearchScope = listsListed(d, q.status) ? 'listed' : 'team';
    const queries = searchQueries(d, q.search);
    const indexed = () =>
      d.search?.sqliteIndex ? searchCondition(o.dialect, d.table as 'deals', queries, scope.teamId, scopeOfSearch) : containsCondition(d.table, queries);
    out = out.where(o.searched ?? exact ?? indexed());
  }
  return out;
}

/** The expression a list sorts by. */
export function sortExpression(d: ResourceDescription, field: string): Expression<unknown> {
  const rule = d.sort[field]!;
  if ('column' in rule) return ref(d.table, rule.column);
  if (rule.phasePosition === 'team_phases') {
    return sql`(select p.position from team_phases p where p.team_id = ${ref(d.table, 'team_id')} and p.name = ${ref(d.table, 'phase')})`;
  }
  // Read through the join of the board-ordered page (read-planner.repository.ts).
  return sql.ref('vehicle_phases.position');
}

/** The list's ORDER BY: the sort (nulls last in both directions), ties broken by id so paging is stable. */
export function ordered<O>(query: ReadQuery<O>, d: ResourceDescription, dialect: DialectName, sort: ListQuery['sort']): ReadQuery<O> {
  const rule = d.sort[sort.field]!;
  const nullable = 'column' in rule ? rule.nullable === true : rule.phasePosition === 'team_phases';
  return query.orderBy(sortExpression(d, sort.field), sortOrder(dialect, sort, nullable)).orderBy(ref(d.table, 'id'), sort.direction);
}

/** Only the status is filtered (or nothing): no filter given and no search. */
export const onlyStatus = (q: Omit<ListQuery, 'sort' | 'page'>): boolean => q.search === undefined && Object.values(q.filters).every((v) => v === undefined);

/** Only the search (and the status): a SQLite search's total may come from its index alone. */
export const onlySearch = (q: Omit<ListQuery, 'sort' | 'page'>): boolean => Object.values(q.filters).every((v) => v === undefined);

/** The list sorts by the board order of vehicle phases: read through the join of phaseOrderedPage. */
export function boardOrdered(d: ResourceDescription, field: string): boolean {
  const rule = d.sort[field];
  return rule !== undefined && 'phasePosition' in rule && rule.phasePosition === 'vehicle_phases';
}

/** A range filter (resource.ts, FilterRule.range) is given. */
export const rangeFiltered = (d: ResourceDescription, q: Omit<ListQuery, 'sort' | 'page'>): boolean =>
  Object.entries(d.filters).some(([name, rule]) => rule.range && q.filters[name] !== undefined);

/**
 * A page in board order: the team's phases in position order, each phase's records from the
 * (team_id, phase, created_at, id) index, so ties within a phase go by created_at, then id. The
 * cross join keeps SQLite's loops in that order (the phases outside), and the unique
 * (team_id, position, name) index lets it read the page in order and stop after it, instead of
 * sorting the team's records (600 ms -> under 1 ms at 100,000 vehicles on SQLite).
 */
export function phaseOrderedPage(
  db: DbExecutor,
  d: ResourceDescription,
  scope: Scope,
  sort: ListQuery['sort'],
  page: ListQuery['page'],
  where: (query: ReadQuery<object>) => ReadQuery<object>,
) {
  const t = d.table;
  const joined = (db.selectFrom('vehicle_phases').crossJoin(t as 'vehicles') as unknown as ReadQuery<object>)
    .whereRef(sql.ref(`${t}.team_id`), '=', sql.ref('vehicle_phases.team_id'))
    .whereRef(sql.ref(`${t}.phase`), '=', sql.ref('vehicle_phases.name'))
    .where(sql.ref('vehicle_phases.team_id'), '=', scope.teamId);
  return where(selectView(joined, d))
    .orderBy(sql.ref('vehicle_phases.position'), sort.direction)
    .orderBy(sql.ref('vehicle_phases.name'), sort.direction)
    .orderBy(ref(t, 'created_at'), sort.direction)
    .orderBy(ref(t, 'id'), sort.direction)
    .limit(page.limit)
    .offset(page.offset);
}
