import { sql, type Kysely } from 'kysely';
import { contactKeyColumns } from '../contact-keys.js';
import { dialectTypes, type DialectName } from '../dialect.js';

const BACKFILL_BATCH = 1000;

/**
 * Issue 27, leads (DECISIONS.md, Leads):
 * - `leads`: every lead received, with the answer it got. UNIQUE (team_id, source, external_id) makes
 *   `source` + `external_id` idempotent even when two copies arrive at once: the second insert waits
 *   for the first transaction and fails, never a read-then-write check (NULL external_ids never clash).
 * - `lead_cursors`: the round-robin's last assigned user per pool (a store, or '' for the team's own
 *   leads); a lead updates its row first, so concurrent leads take turns on that row lock.
 * - teams: the distribution mode, its fixed user and the response target in minutes.
 * - users: `takes_leads` (on for sellers, off for managers and owners).
 * - deals: when its lead arrived and when it was first answered (response time).
 * - clients: the contact keys a lead is matched by (e-mail ignoring case, phones by their digits).
 * - keys that may write deals and clients may also send leads (`leads:write`, every new key's default).
 */
export function leads(dialect: DialectName) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('leads')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('team_id', t.uuid, (c) => c.notNull().references('teams.id').onDelete('cascade'))
        // '' when the lead named no source: the pair stays comparable.
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('external_id', 'text')
        .addColumn('deal_id', t.uuid)
        .addColumn('client_id', t.uuid)
        .addColumn('client_created', t.boolean, (c) => c.notNull())
        .addColumn('duplicate', t.boolean, (c) => c.notNull())
        .addColumn('responsible_id', 'text')
        .addColumn('store_id', 'text')
        // The first answer's JSON body: the same pair again answers it.
        .addColumn('answer', 'text')
        .addColumn('received_at', t.timestamp, (c) => c.notNull())
        // When the responsible saw the panel's notice of it (null: unread).
        .addColumn('seen_at', t.timestamp)
        .execute();
      await db.schema.createIndex('leads_team_source_external_idx').unique().on('leads').columns(['team_id', 'source', 'external_id']).execute();
      await db.schema.createIndex('leads_team_responsible_idx').on('leads').columns(['team_id', 'responsible_id', 'received_at']).execute();

      await db.schema
        .createTable('lead_cursors')
        .addColumn('team_id', t.uuid, (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('pool', 'text', (c) => c.notNull())
        .addColumn('last_user_id', 'text')
        .addColumn('turns', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('lead_cursors_pk', ['team_id', 'pool'])
        .execute();

      await db.schema
        .alterTable('teams')
        .addColumn('lead_distribution', 'text', (c) => c.notNull().defaultTo('round_robin'))
        .execute();
      await db.schema.alterTable('teams').addColumn('lead_user_id', 'text').execute();
      await db.schema
        .alterTable('teams')
        .addColumn('lead_response_minutes', 'integer', (c) => c.notNull().defaultTo(15))
        .execute();

      await db.schema
        .alterTable('users')
        .addColumn('takes_leads', t.boolean, (c) => c.notNull().defaultTo(sql.lit(dialect === 'postgres' ? true : 1)))
        .execute();
      await sql`update users set takes_leads = ${sql.lit(dialect === 'postgres' ? false : 0)} where role <> 'seller'`.execute(db);

      await db.schema.alterTable('deals').addColumn('lead_received_at', t.timestamp).execute();
      await db.schema.alterTable('deals').addColumn('lead_responded_at', t.timestamp).execute();
      // The board's untouched leads and Início's response times read the team's lead deals only.
      await sql`create index deals_team_lead_idx on deals (team_id, lead_received_at) where lead_received_at is not null`.execute(db);

      for (const column of ['email_key', 'phone_key', 'mobile_phone_key', 'whatsapp_key']) {
        await db.schema.alterTable('clients').addColumn(column, 'text').execute();
        await sql`create index ${sql.id(`clients_team_${column}_idx`)} on clients (team_id, ${sql.id(column)}) where ${sql.id(column)} is not null`.execute(db);
      }
      await backfillContactKeys(db, dialect);

      await sql`update api_keys set scopes = scopes || ' leads:write'
        where scopes like '%deals:write%' and scopes like '%clients:write%' and scopes not like '%leads:write%'`.execute(db);
    },
  };
}

interface ContactRow {
  id: string;
  email: string | null;
  phone: string | null;
  mobile_phone: string | null;
  whatsapp: string | null;
}

/** Existing clients' keys, by id in batches (one UPDATE … FROM (VALUES …) per batch on PostgreSQL). */
async function backfillContactKeys(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  let after: string | null = null;
  for (;;) {
    const { rows } = await sql<ContactRow>`select id, email, phone, mobile_phone, whatsapp from clients
      where ${after === null ? sql`1 = 1` : sql`id > ${after}`} and (email is not null or phone is not null or mobile_phone is not null or whatsapp is not null)
      order by id limit ${BACKFILL_BATCH}`.execute(db);
    if (rows.length === 0) return;
    after = String(rows[rows.length - 1]!.id);
    const keyed = rows.map((r) => ({ id: String(r.id), ...contactKeyColumns(r) }));
    if (dialect === 'postgres') {
      const values = sql.join(
        keyed.map((k) => sql`(${k.id}::uuid, ${k.email_key}::text, ${k.phone_key}::text, ${k.mobile_phone_key}::text, ${k.whatsapp_key}::text)`),
      );
      await sql`update clients c set email_key = v.e, phone_key = v.p, mobile_phone_key = v.m, whatsapp_key = v.w
        from (values ${values}) as v(id, e, p, m, w) where c.id = v.id`.execute(db);
    } else {
      for (const k of keyed) {
        await sql`update clients set email_key = ${k.email_key}, phone_key = ${k.phone_key}, mobile_phone_key = ${k.mobile_phone_key},
          whatsapp_key = ${k.whatsapp_key} where id = ${k.id}`.execute(db);
      }
    }
  }
}
