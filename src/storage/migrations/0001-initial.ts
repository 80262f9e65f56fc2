import type { Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect.js';

export function initial(dialect: DialectName) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('teams')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('plan', 'text', (c) => c.notNull())
        .addColumn('alert_email', 'text')
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('team_phases')
        .addColumn('team_id', t.uuid, (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('probability', 'double precision', (c) => c.notNull())
        .addPrimaryKeyConstraint('team_phases_pk', ['team_id', 'name'])
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('team_id', t.uuid, (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('name', 'text')
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('revoked_at', t.timestamp)
        .execute();
      await db.schema.createIndex('api_keys_team_idx').on('api_keys').columns(['team_id', 'created_at']).execute();

      await db.schema
        .createTable('clients')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('team_id', t.uuid, (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('display_name', 'text')
        .addColumn('email', 'text')
        .addColumn('phone', 'text')
        .addColumn('mobile_phone', 'text')
        .addColumn('whatsapp', 'text')
        .addColumn('cpf', 'text')
        .addColumn('cpf_normalized', 'text')
        .addColumn('rg', 'text')
        .addColumn('birth_date', 'text')
        .addColumn('gender', 'text')
        .addColumn('marital_status', 'text')
        .addColumn('nationality', 'text')
        .addColumn('cnpj', 'text')
        .addColumn('cnpj_normalized', 'text')
        .addColumn('legal_name', 'text')
        .addColumn('trade_name', 'text')
        .addColumn('state_registration', 'text')
        .addColumn('municipal_registration', 'text')
        .addColumn('segment', 'text')
        .addColumn('source', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('store_id', 'text')
        .addColumn('address', 'text')
        .addColumn('notes', 'text')
        .addColumn('tags', 'text', (c) => c.notNull())
        .addColumn('credit_limit_cents', 'bigint')
        .addColumn('search_text', 'text', (c) => c.notNull())
        .addColumn('name_key', t.sortKey as 'text', (c) => c.notNull())
        .addColumn('deactivated_at', t.timestamp)
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .execute();
      // Uniqueness lives in the database so concurrent creates cannot both win.
      await db.schema.createIndex('clients_team_cpf_uq').on('clients').columns(['team_id', 'cpf_normalized']).unique().execute();
      await db.schema.createIndex('clients_team_cnpj_uq').on('clients').columns(['team_id', 'cnpj_normalized']).unique().execute();
      // Every list filter and sort leads with the team; ties break on id.
      for (const [name, columns] of [
        ['clients_team_status_created_idx', ['team_id', 'status', 'created_at', 'id']],
        ['clients_team_status_updated_idx', ['team_id', 'status', 'updated_at', 'id']],
        ['clients_team_status_name_idx', ['team_id', 'status', 'name_key', 'id']],
        ['clients_team_type_idx', ['team_id', 'type', 'status', 'created_at']],
        ['clients_team_segment_idx', ['team_id', 'segment', 'status', 'created_at']],
        ['clients_team_store_idx', ['team_id', 'store_id', 'status', 'created_at']],
      ] as const) {
        await db.schema
          .createIndex(name)
          .on('clients')
          .columns([...columns])
          .execute();
      }

      await db.schema
        .createTable('deals')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('team_id', t.uuid, (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('value_cents', 'bigint')
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('phase', 'text', (c) => c.notNull())
        .addColumn('priority', 'text', (c) => c.notNull())
        .addColumn('priority_rank', 'integer', (c) => c.notNull())
        .addColumn('probability', 'double precision', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('expected_close_date', 'text')
        .addColumn('source', 'text')
        .addColumn('loss_reason', 'text')
        .addColumn('tags', 'text', (c) => c.notNull())
        .addColumn('is_starred', t.boolean, (c) => c.notNull())
        .addColumn('store_id', 'text')
        .addColumn('client_id', t.uuid, (c) => c.references('clients.id'))
        .addColumn('responsible_id', 'text')
        .addColumn('case_id', 'text')
        .addColumn('search_text', 'text', (c) => c.notNull())
        .addColumn('title_key', t.sortKey as 'text', (c) => c.notNull())
        .addColumn('archived_at', t.timestamp)
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .execute();
      for (const [name, columns] of [
        ['deals_team_status_created_idx', ['team_id', 'status', 'created_at', 'id']],
        ['deals_team_status_updated_idx', ['team_id', 'status', 'updated_at', 'id']],
        ['deals_team_status_value_idx', ['team_id', 'status', 'value_cents', 'id']],
        ['deals_team_status_close_idx', ['team_id', 'status', 'expected_close_date', 'id']],
        ['deals_team_status_title_idx', ['team_id', 'status', 'title_key', 'id']],
        ['deals_team_status_probability_idx', ['team_id', 'status', 'probability', 'id']],
        ['deals_team_status_priority_idx', ['team_id', 'status', 'priority_rank', 'id']],
        ['deals_team_phase_idx', ['team_id', 'phase', 'status', 'created_at']],
        ['deals_team_client_idx', ['team_id', 'client_id', 'created_at']],
        ['deals_team_responsible_idx', ['team_id', 'responsible_id', 'created_at']],
        ['deals_team_source_idx', ['team_id', 'source', 'created_at']],
        ['deals_team_store_idx', ['team_id', 'store_id', 'created_at']],
      ] as const) {
        await db.schema
          .createIndex(name)
          .on('deals')
          .columns([...columns])
          .execute();
      }
    },
  };
}
