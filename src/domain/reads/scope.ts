/**
 * Who is reading, as the read side needs it: built once from the caller (an API key's or a panel
 * user's team, and the store it may be bound to) and applied by the read planner
 * (read-planner.repository.ts) on every path it has, so no list, search, board or read by id can
 * forget it (`inScope` in read-query.repository.ts; the counter-served paths are skipped for a bound
 * scope, and a read by id takes the store condition in its own statement).
 */
export interface Scope {
  readonly teamId: string;
  /** The store a bound principal sees (its records only; a record of no store is not its); undefined: the whole team. */
  readonly storeId?: string;
  /** The team's client book (DECISIONS "Stores"): under `shared` (the default) clients are visible to every store's people. */
  readonly clientBook?: 'shared' | 'per_store';
}

/** The scope of a caller of `teamId` that sees the whole team. */
export const teamScope = (teamId: string): Scope => ({ teamId });

/** The scope of a caller bound to one store of the team. */
export const storeScope = (teamId: string, storeId: string, clientBook: 'shared' | 'per_store' = 'shared'): Scope => ({ teamId, storeId, clientBook });

/**
 * The store condition a table's reads take in this scope (`column = value`), or null when the scope
 * sees the table's every row of the team: unbound, or clients under a shared client book. A store's
 * own row is the bound principal's store.
 */
export function storeCondition(scope: Scope, table: string): { column: string; value: string } | null {
  if (scope.storeId === undefined) return null;
  if (table === 'stores') return { column: 'id', value: scope.storeId };
  if (table === 'clients' && scope.clientBook !== 'per_store') return null;
  return { column: 'store_id', value: scope.storeId };
}
