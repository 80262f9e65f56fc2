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
  return db
    .selectFrom('clients')
    .select('id')
    .where(visibleTo(scope))
    .where((eb) => {
      if (key.column !== 'phones') return eb(key.column, '=', key.value);
      return eb.or([eb('phone_key', 'in', key.values), eb('mobile_phone_key', 'in', key.values), eb('whatsapp_key', 'in', key.values)]);
    })
    .$if(key.column !== 'cpf_normalized' && taxIds.cpf !== null, (q) =>
      q.where((eb) => eb.or([eb('cpf_normalized', 'is', null), eb('cpf_normalized', '=', taxIds.cpf)])),
    )
    .$if(key.column !== 'cnpj_normalized' && taxIds.cnpj !== null, (q) =>
      q.where((eb) => eb.or([eb('cnpj_normalized', 'is', null), eb('cnpj_normalized', '=', taxIds.cnpj)])),
    )
    .orderBy('status')
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/** The client's `ativo` deal created since `since` for the same car (or, without one, from the same source): the newest. */
export const findRecentActiveDeal = (db: DbExecutor, teamId: string, clientId: string, since: string, same: { caseId: string } | { source: string | null }) =>
  db
    .selectFrom('deals')
    .select('id')
    .where('team_id', '=', teamId)
    .where('client_id', '=', clientId)
    .where('status', '=', 'ativo')
    .where('created_at', '>=', since)
    .where((eb) => {
      if ('caseId' in same) return eb('case_id', '=', same.caseId);
      return same.source === null ? eb('source', 'is', null) : eb('source', '=', same.source);
    })
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

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
