import { sql, type Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect.js';

/**
 * Activities and financial records (issue 12), the team's time zone, the per-team preview of the
 * announced API areas, and the time-driven events' tracking (one row per record and kind: armed for
 * one due time, fired once, disarmed when the record closes).
 */
export function activitiesFinancial(dialect: DialectName) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // Overdue of a financial record is judged at the end of its due date in this zone (IANA name).
      await db.schema
        .alterTable('teams')
        .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('America/Sao_Paulo'))
        .execute();

      // An area (financial, activities, webhooks) of the announced API served to this team's keys.
      await db.schema
        .createTable('team_previews')
        .addColumn('team_id', t.uuid, (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('area', 'text', (c) => c.notNull())
        .addColumn('enabled_at', t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('team_previews_pk', ['team_id', 'area'])
        .execute();

      await db.schema
        .createTable('activities')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('team_id', t.uuid, (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('priority', 'text', (c) => c.notNull())
        .addColumn('priority_rank', 'integer', (c) => c.notNull())
        .addColumn('due_at', t.timestamp)
        // The link columns carry no foreign key: the service checks that they name a record of the same team.
        .addColumn('deal_id', t.uuid)
        .addColumn('client_id', t.uuid)
        .addColumn('vehicle_id', t.uuid)
        .addColumn('responsible_id', 'text')
        .addColumn('completed_at', t.timestamp)
        .addColumn('cancelled_at', t.timestamp)
        .addColumn('title_key', t.sortKey as 'text', (c) => c.notNull())
        .addColumn('search_text', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .execute();
      for (const [name, columns] of [
        ['activities_team_status_due_idx', ['team_id', 'status', 'due_at', 'id']],
        ['activities_team_status_created_idx', ['team_id', 'status', 'created_at', 'id']],
        ['activities_team_due_idx', ['team_id', 'due_at', 'id']],
        ['activities_team_type_idx', ['team_id', 'type', 'status', 'due_at']],
        ['activities_team_deal_idx', ['team_id', 'deal_id', 'due_at']],
        ['activities_team_client_idx', ['team_id', 'client_id', 'due_at']],
        ['activities_team_vehicle_idx', ['team_id', 'vehicle_id', 'due_at']],
        ['activities_team_responsible_idx', ['team_id', 'responsible_id', 'due_at']],
      ] as const) {
        await db.schema
          .createIndex(name)
          .on('activities')
          .columns([...columns])
          .execute();
      }

      await db.schema
        .createTable('financial_records')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('team_id', t.uuid, (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('category', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('amount_cents', 'bigint', (c) => c.notNull())
        .addColumn('due_date', 'text', (c) => c.notNull())
        // The end of due_date in the team's time zone: from this instant a pending record is overdue.
        .addColumn('overdue_at', t.timestamp, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('paid_at', t.timestamp)
        .addColumn('payment_method', 'text')
        .addColumn('deal_id', t.uuid)
        .addColumn('client_id', t.uuid)
        .addColumn('vehicle_id', t.uuid)
        .addColumn('notes', 'text')
        .addColumn('cancelled_at', t.timestamp)
        .addColumn('search_text', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .execute();
      for (const [name, columns] of [
        ['financial_team_status_due_idx', ['team_id', 'status', 'due_date', 'id']],
        ['financial_team_status_created_idx', ['team_id', 'status', 'created_at', 'id']],
        ['financial_team_due_idx', ['team_id', 'due_date', 'id']],
        ['financial_team_type_idx', ['team_id', 'type', 'category', 'due_date']],
        ['financial_team_status_overdue_idx', ['team_id', 'status', 'overdue_at']],
        ['financial_team_deal_idx', ['team_id', 'deal_id', 'due_date']],
        ['financial_team_client_idx', ['team_id', 'client_id', 'due_date']],
        ['financial_team_vehicle_idx', ['team_id', 'vehicle_id', 'due_date']],
      ] as const) {
        await db.schema
          .createIndex(name)
          .on('financial_records')
          .columns([...columns])
          .execute();
      }

      // Time-driven events: one row per (record, kind). `due_key` is the due time it is armed for;
      // the scheduler moves an armed row whose fire_at has come to `fired` in the transaction that
      // records the event, so each (record, kind, due time) fires once whatever the number of processes.
      await db.schema
        .createTable('scheduled_events')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('team_id', t.uuid, (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('subject_type', 'text', (c) => c.notNull())
        .addColumn('subject_id', t.uuid, (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('due_key', 'text', (c) => c.notNull())
        .addColumn('fire_at', t.timestamp, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('fired_at', t.timestamp)
        .addColumn('event_id', 'text')
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .addUniqueConstraint('scheduled_events_subject_kind_uq', ['subject_id', 'kind'])
        .execute();
      // The scheduler's claim: armed rows by fire time (partial where the database allows it).
      await db.schema
        .createIndex('scheduled_events_due_idx')
        .on('scheduled_events')
        .columns(['fire_at', 'id'])
        .where(sql.ref('status'), '=', 'armed')
        .execute();
    },
  };
}
