import { sql, type ExpressionBuilder, type Updateable } from 'kysely';
import type { Database, LeadTable } from '../../storage/database.js';
import type { DbExecutor, Trx } from '../../storage/executor.js';
import type { Scope } from '../reads/scope.js';

/** The row of a received lead, written first in its transaction: its unique (team, source, external_id) slot is the idempotency guard. */
export interface NewLead {
  id: string;
  team_id: string;
  source: string;
  external_id: string | null;
  received_at: string;
}

export const insertLead = (trx: Trx, lead: NewLead) =>
  trx
    .insertInto('leads')
    .values({ ...lead, client_created: 0, duplicate: 0, deal_id: null, client_id: null, responsible_id: null, store_id: null, answer: null, seen_at: null })
    .execute();

export const completeLead = (trx: Trx, id: string, patch: Updateable<LeadTable>) => trx.updateTable('leads').set(patch).where('id', '=', id).execute();

/** The stored first answer of a team's `source` + `external_id`. */
export const findLeadAnswer = (db: DbExecutor, teamId: string, source: string, externalId: string) =>
  db
    .selectFrom('leads')
    .select(['answer', 'duplicate'])
    .where('team_id', '=', teamId)
    .where('source', '=', source)
    .where('external_id', '=', externalId)
    .executeTakeFirst();

export const findLeadSettings = (db: DbExecutor, teamId: string) =>
  db.selectFrom('teams').select(['lead_distribution', 'lead_user_id', 'lead_response_minutes']).where('id', '=', teamId).executeTakeFirst();

export const updateLeadSettings = (
  db: DbExecutor,
  teamId: string,
  patch: Pick<Updateable<Database['teams']>, 'lead_distribution' | 'lead_user_id' | 'lead_response_minutes'>,
) => db.updateTable('teams').set(patch).where('id', '=', teamId).execute();

/**
 * The records a caller's leads may match and use: the team's today. Stores (issue 26) narrow them
 * here, in one place for both lookups below: a store-bound key never matches another store's client or car.
 */
const visibleTo = (scope: Scope) => (eb: ExpressionBuilder<Database, 'clients'> | ExpressionBuilder<Database, 'vehicles'>) =>
  (eb as ExpressionBuilder<Database, 'clients'>)('team_id', '=', scope.teamId);

/** A car of the stock (`ativo`) the caller sees, by id or by canonical plate. */
export const findStockVehicle = (db: DbExecutor, scope: Scope, by: { id: string } | { plateKey: string }) =>
  db
    .selectFrom('vehicles')
    .select(['id', 'title', 'price_cents', 'store_id'])
    .where(visibleTo(scope))
    .where('status', '=', 'ativo')
    .$if('id' in by, (q) => q.where('id', '=', (by as { id: string }).id))
    .$if('plateKey' in by, (q) => q.where('plate_key', '=', (by as { plateKey: string }).plateKey))
    .executeTakeFirst();

export type ClientKey = { column: 'cpf_normalized' | 'cnpj_normalized' | 'email_key'; value: string } | { column: 'phones'; values: string[] };

/**
 * The client of the caller's book with this key: active ones first, then the oldest. `taxIds`: a
 * client holding another CPF/CNPJ than the lead's is another person, never a match by e-mail or phone.
 */
export async function findClientByKey(
  db: DbExecutor,
  scope: Scope,
  key: ClientKey,
  taxIds: { cpf: string | null; cnpj: string | null },
): Promise<{ id: string } | undefined> {
  const matching = (column: 'cpf_normalized' | 'cnpj_normalized' | 'email_key' | 'phone_key' | 'mobile_phone_key' | 'whatsapp_key', values: string[]) =>
    db
      .selectFrom('clients')
      .select(['id', 'status', 'created_at'])
      .where(visibleTo(scope))
      .where(column, 'in', values)
      .$if(column !== 'cpf_normalized' && taxIds.cpf !== null, (q) =>
        q.where((eb) => eb.or([eb('cpf_normalized', 'is', null), eb('cpf_normalized', '=', taxIds.cpf)])),
      )
      .$if(column !== 'cnpj_normalized' && taxIds.cnpj !== null, (q) =>
        q.where((eb) => eb.or([eb('cnpj_normalized', 'is', null), eb('cnpj_normalized', '=', taxIds.cnpj)])),
      );
  // One branch per phone column, each on its own (team, key) index: an OR of the three reads every
  // client of the team on SQLite. The few matches are sorted (no ORDER BY the team's status index could
  // serve: SQLite, without ANALYZE statistics, would walk it for an unknown key).
  const query =
    key.column === 'phones'
      ? matching('phone_key', key.values).unionAll(matching('mobile_phone_key', key.values)).unionAll(matching('whatsapp_key', key.values))
      : matching(key.column, [key.value]);
  const rows = await query.execute();
  const byRank = (a: (typeof rows)[number], b: (typeof rows)[number]) =>
    a.status.localeCompare(b.status) || new Date(a.created_at).getTime() - new Date(b.created_at).getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const best = rows.sort(byRank)[0];
  return best && { id: best.id };
}

/**
 * The client's `ativo` deal created since `since` for the same car (or, without one, from the same
 * source): the newest. Read by the client's (team, client, created) index only and picked here: a
 * client has few deals, and SQLite (no statistics) would otherwise walk the team's deals by status,
 * date or source.
 */
export async function findRecentActiveDeal(
  db: DbExecutor,
  teamId: string,
  clientId: string,
  since: string,
  same: { caseId: string } | { source: string | null },
): Promise<{ id: string } | undefined> {
  const rows = await db
    .selectFrom('deals')
    .select(['id', 'status', 'created_at', 'case_id', 'source'])
    .where('team_id', '=', teamId)
    .where('client_id', '=', clientId)
    .where('created_at', '>=', since)
    .execute();
  const newest = rows
    .filter((d) => d.status === 'ativo' && ('caseId' in same ? d.case_id === same.caseId : d.source === same.source))
    .sort((a, b) => new Date(b.created_at).getTime() - new Date(a.created_at).getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))[0];
  return newest && { id: newest.id };
}

/**
 * Who may receive a lead of the pool: the team's active users who take leads. A store's lead goes to
 * that store's people and the unbound; a lead without a store to the unbound (stores, issue 26: all today).
 */
export const listLeadTakers = (db: DbExecutor, teamId: string) =>
  db
    .selectFrom('users')
    .select('id')
    .where('team_id', '=', teamId)
    .where('deactivated_at', 'is', null)
    .where(sql<boolean>`takes_leads`)
    .orderBy('id')
    .execute();

export const findActiveUser = (db: DbExecutor, teamId: string, id: string) =>
  db.selectFrom('users').select('id').where('team_id', '=', teamId).where('id', '=', id).where('deactivated_at', 'is', null).executeTakeFirst();

/**
 * Takes the pool's round-robin turn: creates its cursor once, then updates it, which row-locks it
 * until the lead's transaction ends (PostgreSQL; SQLite runs one writer at a time). Concurrent leads
 * of the pool take turns here, each reading the last user its predecessor committed.
 */
export async function takeTurn(trx: Trx, teamId: string, pool: string): Promise<string | null> {
  await trx
    .insertInto('lead_cursors')
    .values({ team_id: teamId, pool, last_user_id: null, turns: 0 })
    .onConflict((oc) => oc.columns(['team_id', 'pool']).doNothing())
    .execute();
  const row = await trx
    .updateTable('lead_cursors')
    .set({ turns: sql<number>`turns + 1` })
    .where('team_id', '=', teamId)
    .where('pool', '=', pool)
    .returning('last_user_id')
    .executeTakeFirstOrThrow();
  return row.last_user_id;
}

export const setTurnUser = (trx: Trx, teamId: string, pool: string, userId: string) =>
  trx.updateTable('lead_cursors').set({ last_user_id: userId }).where('team_id', '=', teamId).where('pool', '=', pool).execute();
