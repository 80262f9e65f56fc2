import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { CLIENT_TAX_DIGITS_FLAG, CNPJ_WINDOW_ROWS, CNPJ_WINDOWS, cnpjWindow } from '../exact-search.js';

/**
 * The exact path of a client search by a full CPF or CNPJ (issue 15; see storage/exact-search.ts):
 * indexes on the four CPF-length windows of the CNPJ (the CPF and the whole CNPJ already have their
 * unique (team_id, key) indexes), and on the team's rows whose text holds a tax number elsewhere.
 * Indexes only, all partial: nothing to backfill; the rows already there are indexed as they stand.
 *
 * SQLite only. On PostgreSQL the same path (candidates read by primary key from an array of the six
 * lookups) measured slower than the (team_id, search_text) trigram index in an interleaved A/B on the
 * 100,000-client team: planning the six lookups and the flag's predicate costs about as much as the
 * trigram search it replaces. PostgreSQL keeps that index, and no index it would not use.
 * (A plate has no such path: a chassis, also in the searched text, holds plate-shaped strings in about
 * half of the vehicles, so the flagged rows would not be few.)
 */
export function exactSearch(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'sqlite') return;
      for (const offset of CNPJ_WINDOWS) {
        await sql`create index ${sql.id(`clients_team_cnpj_w${offset}_idx`)} on clients (team_id, ${sql.raw(cnpjWindow(offset))})
          where ${sql.raw(CNPJ_WINDOW_ROWS)}`.execute(db);
      }
      await sql`create index clients_team_tax_digits_idx on clients (team_id) where ${sql.raw(CLIENT_TAX_DIGITS_FLAG)}`.execute(db);
    },
  };
}
