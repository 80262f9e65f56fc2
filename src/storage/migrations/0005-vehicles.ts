import { sql, type Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect.js';
import { countRecordsOf } from './list-performance/record-counts.js';
import { createSearchIndexes } from './list-performance/search-indexes.js';

/** The vehicle board every team starts with (DECISIONS.md, Vehicles). Kept here: a migration never changes after it ships. */
const DEFAULT_VEHICLE_PHASES = ['entrada', 'preparacao', 'documentacao', 'disponivel', 'reservado'];

/** The scopes every key held before vehicles existed, and the ones such a key gains. */
const OLD_SCOPES = ['deals:read', 'deals:write', 'clients:read', 'clients:write'];
const VEHICLE_SCOPES = ['vehicles:read', 'vehicles:write'];

/**
 * Vehicles (issue 11):
 * - `vehicle_phases`: each team's vehicle board, apart from the deal pipeline (`team_phases`), seeded
 *   with the defaults for every existing team (new teams get them from the teams service);
 * - `vehicles`, with its phase tied to the team's board by a foreign key (a phase in use cannot be
 *   deleted, whoever deletes it); plate, chassis and RENAVAM unique per team in canonical form among
 *   `ativo` vehicles by partial unique indexes (concurrent creates: exactly one wins);
 * - list indexes led by the team, as for deals (0004); per-status counters and the trigram search index;
 * - keys holding every scope that existed before gain `vehicles:read` and `vehicles:write`.
 */
export function vehicles(dialect: DialectName) {
  const t = dialectTypes(dialect);
  const priceDesc = dialect === 'postgres' ? sql`price_cents desc nulls last, id desc` : sql`price_cents, id`;
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('vehicle_phases')
        .addColumn('team_id', t.uuid, (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('vehicle_phases_pk', ['team_id', 'name'])
        .execute();
      // Unique (name is): lets SQLite read a phase-sorted list in board order without sorting it.
      await sql`create unique index vehicle_phases_position_idx on vehicle_phases (team_id, position, name)`.execute(db);
      for (const [index, name] of DEFAULT_VEHICLE_PHASES.entries()) {
        await sql`insert into vehicle_phases (team_id, name, position) select id, ${name}, ${index + 1} from teams`.execute(db);
      }

      await db.schema
        .createTable('vehicles')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('team_id', t.uuid, (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('brand', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('version', 'text')
        .addColumn('plate', 'text')
        .addColumn('plate_key', 'text')
        .addColumn('renavam', 'text')
        .addColumn('renavam_key', 'text')
        .addColumn('chassis', 'text')
        .addColumn('chassis_key', 'text')
        .addColumn('manufacture_year', 'integer')
        .addColumn('model_year', 'integer')
        .addColumn('mileage', 'integer')
        .addColumn('color', 'text')
        .addColumn('fuel', 'text')
        .addColumn('transmission', 'text')
        .addColumn('body_type', 'text')
        .addColumn('doors', 'integer')
        .addColumn('condition', 'text', (c) => c.notNull())
        .addColumn('fipe_code', 'text')
        .addColumn('price_cents', 'bigint')
        .addColumn('purchase_price_cents', 'bigint')
        .addColumn('phase', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('sold_at', t.timestamp)
        .addColumn('description', 'text')
        .addColumn('features', 'text', (c) => c.notNull())
        .addColumn('tags', 'text', (c) => c.notNull())
        .addColumn('store_id', 'text')
        .addColumn('search_text', 'text', (c) => c.notNull())
        .addColumn('title_key', t.sortKey as 'text', (c) => c.notNull())
        .addColumn('brand_key', t.sortKey as 'text', (c) => c.notNull())
        .addColumn('model_key', t.sortKey as 'text', (c) => c.notNull())
        .addColumn('archived_at', t.timestamp)
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .addForeignKeyConstraint('vehicles_phase_fk', ['team_id', 'phase'], 'vehicle_phases', ['team_id', 'name'], (fk) => fk.onUpdate('cascade'))
        .execute();

      const statements = [
        // In-stock uniqueness (a sold or archived car may come back as a new record).
        sql`create unique index vehicles_team_plate_uq on vehicles (team_id, plate_key) where status = 'ativo' and plate_key is not null`,
        sql`create unique index vehicles_team_chassis_uq on vehicles (team_id, chassis_key) where status = 'ativo' and chassis_key is not null`,
        sql`create unique index vehicles_team_renavam_uq on vehicles (team_id, renavam_key) where status = 'ativo' and renavam_key is not null`,
        // The default list (and its offset walk) from the index alone; the other sorts read in order.
        sql`create index vehicles_team_created_idx on vehicles (team_id, created_at, id, status)`,
        sql`create index vehicles_team_updated_idx on vehicles (team_id, updated_at, id)`,
        sql`create index vehicles_team_title_idx on vehicles (team_id, title_key, id)`,
        sql`create index vehicles_team_price_idx on vehicles (team_id, ${priceDesc}, status)`,
        // status last (as in the date index): a range filter's total is counted from the index alone.
        sql`create index vehicles_team_model_year_idx on vehicles (team_id, model_year, id, status)`,
        sql`create index vehicles_team_mileage_idx on vehicles (team_id, mileage, id, status)`,
        // Equality filters, then the default order; status (and model under brand) last, so a filtered
        // page is read in order and its total counted without touching the table.
        sql`create index vehicles_team_brand_idx on vehicles (team_id, brand_key, created_at, id, status, model_key)`,
        sql`create index vehicles_team_model_idx on vehicles (team_id, model_key, created_at, id, status)`,
        sql`create index vehicles_team_phase_idx on vehicles (team_id, phase, created_at, id, status)`,
        sql`create index vehicles_team_store_idx on vehicles (team_id, store_id, created_at, id, status)`,
        sql`create index vehicles_team_condition_idx on vehicles (team_id, condition, created_at, id, status)`,
        sql`create index vehicles_team_fuel_idx on vehicles (team_id, fuel, created_at, id, status)`,
        sql`create index vehicles_team_transmission_idx on vehicles (team_id, transmission, created_at, id, status)`,
      ];
      for (const statement of statements) await statement.execute(db);
      await countRecordsOf(db, dialect, 'vehicles');
      await createSearchIndexes(db, dialect, ['vehicles']);

      // Existing integrations keep full access: a key with every old scope gains the vehicle scopes.
      const holdsAll = OLD_SCOPES.map((scope) => sql`(' ' || scopes || ' ') like ${`% ${scope} %`}`);
      await sql`update api_keys set scopes = scopes || ${` ${VEHICLE_SCOPES.join(' ')}`}
        where ${sql.join(holdsAll, sql` and `)} and (' ' || scopes || ' ') not like ${`% ${VEHICLE_SCOPES[0]} %`}`.execute(db);
    },
  };
}
