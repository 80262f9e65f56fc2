/**
 * What the read side knows of a resource, declared once as plain data (no SQL): which table holds
 * it, which columns an answer is made of, how it sorts, how each of its filters applies, what its
 * search reads, which rows a list hides (soft delete) and the board it has. The read planner
 * (read-planner.repository.ts) reads these and nothing else to build every statement of a list, a
 * search, a board or a read by id; a new resource is a description, its migration and its service's
 * rules (docs/architecture.md, "Adding a resource").
 */

/** The tables the planner reads (each a resource of its own). */
export type ResourceTable = 'deals' | 'clients' | 'vehicles' | 'activities' | 'financial_records' | 'stores';

/** How one filter of a list applies to its column. Bounds are inclusive; `<` is an exclusive upper bound (a day's end). */
export interface FilterRule {
  column: string;
  op: '=' | '>=' | '<=' | '<';
  /**
   * A range of a column with its own index (SQLite): kept off that index unless the list sorts by the
   * column, so a wide range's page is found walking the sort's index (vehicles).
   */
  range?: true;
  /** The filter also keeps only records in these statuses (an overdue list: open activities, pending records). */
  statusIn?: readonly string[];
}

/** How a list sorts by one field: a column (nullable ones keep their nulls last), or the board order of the team's phases. */
export type SortRule = { column: string; nullable?: true } | { phasePosition: 'team_phases' | 'vehicle_phases' };

/**
 * Which rows a list shows when no status is asked for: the others are soft-deleted (archived deals
 * and vehicles, inactive clients). A status filter shows that status, hidden rows included.
 * `counted`: the per-status counters (record_counts) hold the resource, so a status-only list's
 * total needs no scan.
 */
export interface ListedRows {
  column: 'status';
  rule: { notEquals: string } | { equals: string };
  counted: boolean;
}

/**
 * The text search: `search_text` holds the folded words of the record. SQLite reads `<table>_fts`
 * (FTS5 trigrams, with the team's listed and all rows as scope columns), PostgreSQL the (team_id,
 * search_text) trigram index; without `sqliteIndex` (activities, financial records: a team's agenda
 * and ledger are small) a LIKE checks the team's rows on both. `exact`: the queries that name one record and have a path of their own
 * (a whole CPF or CNPJ, a whole plate).
 */
export interface SearchRule {
  column: 'search_text';
  /** The FTS5 table on SQLite (absent: the LIKE scans the team's rows there too). */
  sqliteIndex?: string;
  exact?: 'tax-number' | 'plate';
}

/** A board: the record's phase column and its pipeline, the order of a column's cards, and the counters of its `ativo` records. */
export interface BoardRule {
  phases: 'team_phases' | 'vehicle_phases';
  /** The card order within a column (its index is (team, phase, that column, id)). */
  cardOrder: { column: string; direction: 'asc' | 'desc'; nullable?: true };
  /** The columns a card shows. */
  cardColumns: readonly string[];
  /** board_totals' key: per phase, the `ativo` records and their summed value (migration 0009). */
  totals: 'deals' | 'vehicles';
}

export interface ResourceDescription<F extends string = string, S extends string = string> {
  table: ResourceTable;
  /** The columns an answer is made of (lists and reads by id read only these). */
  columns: readonly string[];
  /** The answer shows its client's name (`client_name`, from clients by client_id and the team). */
  clientName?: true;
  sort: Record<S, SortRule>;
  filters: Record<F, FilterRule>;
  listed: ListedRows;
  search?: SearchRule;
  board?: BoardRule;
  /**
   * A range whose total comes from bucket counters when it is the only filter (vehicle_price_counts,
   * migration 0011): the names of its lower and upper bound filters.
   */
  rangeCounts?: { table: 'vehicle_price_counts'; filters: readonly [string, string] };
}

/** A list as the planner takes it: filters by the description's names, the status (soft delete), the search, the sort and the page. */
export interface ListQuery<F extends string = string, S extends string = string> {
  filters: Partial<Record<F, string | number>>;
  status?: string;
  search?: string;
  sort: { field: S; direction: 'asc' | 'desc' };
  page: { page: number; limit: number; offset: number };
}
