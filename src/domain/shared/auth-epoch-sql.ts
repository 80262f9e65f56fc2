import { sql } from 'kysely';

/**
 * The auth_epoch counter (migration 0008) as a one-row derived table `e(n)`. A GET by id starts
 * from it and left-joins its record, so the statement always returns one row: the counter, read in
 * the same snapshot as the record (or its absence). On PostgreSQL that confirms a cached
 * authentication in the read's own round trip (issue 15; domain/teams/api-keys.service.ts, `confirm`).
 */
export const authEpochTable = () => sql<{ n: number | string }>`(select n from auth_epoch where id = 1)`.as('e');

/**
 * The same counter as a column of a list's page statement (`auth_epoch`): an uncorrelated subquery,
 * run once per statement, so every row carries the counter of the page's own snapshot (list-sql.ts).
 */
export const authEpochColumn = () => sql<number | string>`(select n from auth_epoch where id = 1)`.as('auth_epoch');

/**
 * The one row of such a read, split: the record (absent when the left join found none) and the
 * counter. No row or no counter (a database without migration 0008's row) reads as null: the key is
 * then checked in full, never taken as confirmed.
 */
export function splitAuthEpoch<R>(found: { auth_epoch: number | string | null; id: string | null } | undefined): {
  row: R | undefined;
  authEpoch: number | null;
} {
  if (!found) return { row: undefined, authEpoch: null };
  const { auth_epoch, ...row } = found;
  return { row: row.id === null ? undefined : (row as R), authEpoch: auth_epoch === null ? null : Number(auth_epoch) };
}
