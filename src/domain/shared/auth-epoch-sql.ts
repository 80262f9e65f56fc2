import { sql } from 'kysely';

/**
 * The auth_epoch counter (migration 0008) as a one-row derived table `e(n)`. A GET by id starts
 * from it and left-joins its record, so the statement always returns one row: the counter, read in
 * the same snapshot as the record (or its absence). On PostgreSQL that confirms a cached
 * authentication in the read's own round trip (issue 15; domain/teams/api-keys.service.ts, `confirm`).
 */
export const authEpochTable = () => sql<{ n: number | string }>`(select n from auth_epoch where id = 1)`.as('e');
