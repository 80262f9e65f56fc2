import { sql } from 'kysely';
import type { DbExecutor, Trx } from '../../storage/executor.js';
import type { ScheduledEventRow } from '../../storage/database.js';
import { locksRows } from '../../storage/dialect.js';
import { newId } from '../shared/ids.js';
import type { Arming, SubjectType } from './schedule.types.js';

/**
 * Brings a record's time-driven events in line with the record, inside the transaction that changed it.
 *
 * - Nothing wanted: an armed row is disarmed (a fired one stays fired).
 * - A due time wanted: a new row is armed; a row armed, fired or disarmed for another due time is
 *   re-armed for this one; a row disarmed for this same due time (the record was closed and reopened)
 *   is armed again; a row that already fired for this due time is left alone, so it never fires twice.
 *
 * Each is one conditional statement. On PostgreSQL a row the scheduler is firing stays locked until its
 * transaction commits; the statement then re-reads it (READ COMMITTED) and sees `fired`.
 */
export async function syncSchedule(trx: Trx, teamId: string, subjectType: SubjectType, subjectId: string, armings: Arming[], now: string): Promise<void> {
  for (const { kind, want } of armings) {
    if (!want) {
      await trx
        .updateTable('scheduled_events')
        .set({ status: 'disarmed', updated_at: now })
        .where('subject_id', '=', subjectId)
        .where('kind', '=', kind)
        .where('status', '=', 'armed')
        .execute();
      continue;
    }
    await trx
      .insertInto('scheduled_events')
      .values({
        id: newId(),
        team_id: teamId,
        subject_type: subjectType,
        subject_id: subjectId,
        kind,
        due_key: want.dueKey,
        fire_at: want.fireAt,
        status: 'armed',
        fired_at: null,
        event_id: null,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc
          .columns(['subject_id', 'kind'])
          .doUpdateSet({ due_key: want.dueKey, fire_at: want.fireAt, status: 'armed', fired_at: null, event_id: null, updated_at: now })
          .where((eb) =>
            eb.or([
              eb('scheduled_events.due_key', '!=', want.dueKey),
              eb('scheduled_events.status', '=', 'disarmed'),
              // Armed for this due time but (team time zone changed) at another instant.
              eb.and([eb('scheduled_events.status', '=', 'armed'), eb('scheduled_events.fire_at', '!=', want.fireAt)]),
            ]),
          ),
      )
      .execute();
  }
}

/**
 * Claims up to `limit` armed rows whose time has come, oldest first, marking them fired: call first in
 * the transaction that then records their events. PostgreSQL: `FOR UPDATE SKIP LOCKED` lets several
 * schedulers claim disjoint rows at once. SQLite: the UPDATE takes the database's write lock, so
 * schedulers in several processes claim one after the other and never the same row.
 */
export async function claimDue(trx: Trx, now: string, limit: number): Promise<ScheduledEventRow[]> {
  const due = trx
    .selectFrom('scheduled_events')
    .select('id')
    .where('status', '=', 'armed')
    .where('fire_at', '<=', now)
    .orderBy('fire_at')
    .orderBy('id')
    .limit(limit);
  const rows = await trx
    .updateTable('scheduled_events')
    .set({ status: 'fired', fired_at: now, updated_at: now })
    .where('id', 'in', locksRows(trx) ? due.forUpdate().skipLocked() : due)
    // Re-checked on the row version the UPDATE writes: a row another claim fired in between is left alone.
    .where('status', '=', 'armed')
    .returningAll()
    .execute();
  // RETURNING gives no order: fire in due order (a due_soon before the overdue of the same record).
  return rows.sort((a, b) => String(iso(a.fire_at)).localeCompare(String(iso(b.fire_at))) || a.id.localeCompare(b.id));
}

const iso = (v: Date | string) => (typeof v === 'string' ? new Date(v).toISOString() : v.toISOString());

/** After the claim: the event a fired row produced, or `skipped` when its record no longer wants it. */
export async function settleClaimed(trx: Trx, id: string, outcome: { eventId: string } | 'skipped'): Promise<void> {
  await trx
    .updateTable('scheduled_events')
    .set(outcome === 'skipped' ? { status: 'skipped' } : { event_id: outcome.eventId })
    .where('id', '=', id)
    .execute();
}

/** The rows of one record (tests and diagnostics). */
export const scheduleOf = (db: DbExecutor, subjectId: string) =>
  db.selectFrom('scheduled_events').selectAll().where('subject_id', '=', subjectId).orderBy('kind').execute();

/** How many armed rows are due at `now` (metrics, tests). */
export async function countDue(db: DbExecutor, now: string): Promise<number> {
  const row = await db
    .selectFrom('scheduled_events')
    .select(sql<number>`count(*)`.as('n'))
    .where('status', '=', 'armed')
    .where('fire_at', '<=', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
