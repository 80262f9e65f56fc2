/**
 * Who is reading, as the read side needs it: built once from the caller (an API key's or a panel
 * user's team) and applied by the read planner (read-planner.repository.ts) on every path it has, so
 * no list, search, board or read by id can forget it. Today a scope is the team; store and seller
 * visibility become fields here (a store-bound key sees its store only; a seller their own deals)
 * and one condition in the planner (`scopeConditions`), never an edit per route or per path.
 */
export interface Scope {
  readonly teamId: string;
}

/** The scope of a caller of `teamId` that sees the whole team (every key and panel user today). */
export const teamScope = (teamId: string): Scope => ({ teamId });
