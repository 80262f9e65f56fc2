import { sql, type Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect.js';

/** The tables whose records carry a `store_id` (activities and financial records get theirs here). */
export const STORE_RECORD_TABLES = ['deals', 'clients', 'vehicles', 'activities', 'financial_records'] as const;

/**
 * Issue 26, stores (DECISIONS.md, "Stores (one team, many stores)"):
 * - `stores`: the team's stores; CNPJ unique per team by a unique index on its digits.
 * - `store_id` on users, API keys and webhooks (null: the whole team), and on activities and financial
 *   records (deals, clients and vehicles had it as free text).
 * - teams: `client_book` (`shared` | `per_store`) and `seller_visibility` (`all` | `own`).
 * - every existing key may read the stores (`stores:read`, every new key's default).
 * - `migration_notes`: what a migration leaves for the operator to look at. Records whose `store_id`
 *   names no store (every non-null one before this migration) are kept as they are and answer as
 *   before until edited; their count per table is noted here (and printed by `autosales migrate`).
 */
export function stores(dialect: DialectName) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('stores')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('team_id', t.uuid, (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', t.sortKey as 'text', (c) => c.notNull())
        .addColumn('cnpj', 'text')
        .addColumn('cnpj_normalized', 'text')
        .addColumn('phone', 'text')
        .addColumn('whatsapp', 'text')
        .addColumn('email', 'text')
        .addColumn('address', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('search_text', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('stores_team_cnpj_uq').on('stores').columns(['team_id', 'cnpj_normalized']).unique().execute();
      await db.schema.createIndex('stores_team_created_idx').on('stores').columns(['team_id', 'created_at', 'id']).execute();

      for (const table of ['users', 'api_keys', 'webhooks', 'activities', 'financial_records']) {
        await db.schema.alterTable(table).addColumn('store_id', 'text').execute();
      }
      // A bound principal's lists read its store's rows of the team (deals, clients and vehicles have these indexes since 0001/0005).
      await db.schema.createIndex('activities_team_store_idx').on('activities').columns(['team_id', 'store_id', 'created_at']).execute();
      await db.schema.createIndex('financial_team_store_idx').on('financial_records').columns(['team_id', 'store_id', 'created_at']).execute();

      await db.schema
        .alterTable('teams')
        .addColumn('client_book', 'text', (c) => c.notNull().defaultTo('shared'))
        .execute();
      await db.schema
        .alterTable('teams')
        .addColumn('seller_visibility', 'text', (c) => c.notNull().defaultTo('all'))
        .execute();

      await sql`update api_keys set scopes = scopes || ' stores:read' where scopes not like '%stores:read%'`.execute(db);

      await db.schema
        .createTable('migration_notes')
        .addColumn('migration', 'text', (c) => c.notNull())
        .addColumn('note', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();
      const notes: string[] = [];
      for (const table of STORE_RECORD_TABLES) {
        const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)} where store_id is not null`.execute(db);
        const n = Number(rows[0]?.n ?? 0);
        if (n > 0) notes.push(`${table}: ${n} registro(s) com store_id que não nomeia uma loja (mantidos como estão até serem editados)`);
      }
      const now = new Date().toISOString();
      for (const note of notes) await sql`insert into migration_notes (migration, note, created_at) values ('0018-stores', ${note}, ${now})`.execute(db);
    },
  };
}
