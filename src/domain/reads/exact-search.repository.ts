import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from '../../storage/dialect.js';
import { CLIENT_TAX_DIGITS_FLAG, CNPJ_WINDOW_ROWS, CNPJ_WINDOWS, cnpjWindow } from '../../storage/exact-search.js';
import { exactSearchCondition, type KeyedLookup } from '../shared/search-sql.js';
import { normalizeTaxId } from '../shared/tax-id.js';
import { canonicalPlate } from '../vehicles/vehicle-identifiers.js';
import type { ResourceDescription } from './resource.js';

/**
 * The searches that name one record (a whole CPF or CNPJ, a whole plate), as a resource's description
 * declares them (`search.exact`): the queries a search sends, whether it is expected to match a few
 * records at most (then one statement reads the matches and counts them, list-sql.ts pageAndTotalOfFew),
 * and SQLite's exact path for tax numbers.
 */

const TAX_ID_QUERY = /^(?=.*\d)[\dA-Za-z]*[./-][\dA-Za-z./\s-]*$/;
/** A full CPF or CNPJ, bare or in its usual punctuation: searched by its exact path. */
const CPF_QUERY = /^(?:\d{11}|\d{3}\.\d{3}\.\d{3}-\d{2})$/;
const CNPJ_QUERY = /^(?:\d{14}|\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2})$/;

/** A full CPF or CNPJ, bare or punctuated: a search expected to match one client, a few at most. */
const fullTaxNumber = (search: string): boolean => CPF_QUERY.test(search) || CNPJ_QUERY.test(search);

/** The search's queries: for tax numbers, a punctuated one (`111.444.777-35`) also finds one stored without punctuation. */
export function searchQueries(d: ResourceDescription, search: string): string[] {
  return d.search?.exact === 'tax-number' && TAX_ID_QUERY.test(search) ? [search, normalizeTaxId(search)] : [search];
}

/**
 * Whether the search names one record, a few at most: a full CPF or CNPJ (both databases), a whole
 * plate (PostgreSQL, its forms all in the vehicle's own search text; on SQLite the FTS index serves it).
 */
export function namesFew(d: ResourceDescription, dialect: DialectName, search: string): boolean {
  if (d.search?.exact === 'tax-number') return fullTaxNumber(search);
  if (d.search?.exact === 'plate') return dialect === 'postgres' && canonicalPlate(search) !== null;
  return false;
}

/**
 * A search for a full CPF or CNPJ on SQLite, from the tax-number indexes (migration 0012): the clients whose CPF
 * is it, or whose CNPJ is it or holds the CPF at one of its four offsets, and the few whose text holds
 * a tax number elsewhere; each checked with the LIKE. Exactly the rows of searchCondition. Null for any
 * other query, and on PostgreSQL (the team's trigram index measured faster there).
 */
export function exactSearch(d: ResourceDescription, dialect: DialectName, teamId: string, search: string): RawBuilder<boolean> | null {
  if (d.search?.exact !== 'tax-number' || dialect !== 'sqlite' || !fullTaxNumber(search)) return null;
  const cpf = CPF_QUERY.test(search);
  const key = normalizeTaxId(search);
  const keyed: KeyedLookup[] = cpf
    ? [
        { where: sql<boolean>`cpf_normalized = ${key}`, index: 'clients_team_cpf_uq' },
        ...CNPJ_WINDOWS.map((o) => ({
          where: sql<boolean>`${sql.raw(cnpjWindow(o))} = ${key} and ${sql.raw(CNPJ_WINDOW_ROWS)}`,
          index: `clients_team_cnpj_w${o}_idx`,
        })),
      ]
    : [{ where: sql<boolean>`cnpj_normalized = ${key}`, index: 'clients_team_cnpj_uq' }];
  const flagged = { where: sql<boolean>`${sql.raw(CLIENT_TAX_DIGITS_FLAG)}`, index: 'clients_team_tax_digits_idx' };
  return exactSearchCondition('clients', searchQueries(d, search), teamId, keyed, flagged);
}
