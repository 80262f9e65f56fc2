import type { Db } from '../../storage/db.js';
import type { Trx } from '../../storage/executor.js';
import type { ScheduledEventRow } from '../../storage/database.js';
import { toActivityView } from '../activities/activities.mapper.js';
import { findActivityById } from '../activities/activities.repository.js';
import { recordEvents } from '../events/events.repository.js';
import { toFinancialView } from '../financial/financial.mapper.js';
import { findFinancialById } from '../financial/financial.repository.js';
import { isoNow, type Clock } from '../shared/clock.js';
import { toApiTimestamp } from '../shared/time.js';
import { claimDue, settleClaimed } from './schedule.repository.js';
import type { TimedEventKind } from './schedule.types.js';

/** Rows claimed per transaction. */
export const CLAIM_BATCH = 100;

/**
 * The event of one claimed row, or null when its record no longer wants it: the record changed in a
 * way the arming did not see (defensive), or a `due_soon` whose due time has already passed (a
 * scheduler that was stopped past the due time sends the overdue only).
 */
async function eventFor(trx: Trx, row: ScheduledEventRow, now: Date): Promise<object | null> {
  if (row.subject_type === 'activity') {
    const activity = await findActivityById(trx, row.subject_id);
    if (!activity || !['pending', 'in_progress'].includes(activity.status) || activity.due_at === null) return null;
    const view = toActivityView(activity);
    if (view.due_at !== toApiTimestamp(row.due_key)) return null;
    if ((row.kind as TimedEventKind) === 'activity.due_soon' && new Date(row.due_key).getTime() <= now.getTime()) return null;
    return view;
  }
  const record = await findFinancialById(trx, row.subject_id);
  if (!record || record.status !== 'pending' || record.due_date !== row.due_key) return null;
  return toFinancialView(record);
}

/**
 * Fires the time-driven events whose time has come. Each batch is one transaction: claim (armed →
 * fired), then the events through the outbox, so an event is recorded exactly when its row is
 * claimed, whichever process claims it and however many race.
 */
export function createScheduleService(db: Db, { clock }: { clock: Clock }) {
  return {
    /** One batch; resolves with how many rows it claimed (fired or skipped). */
    async fireBatch(limit = CLAIM_BATCH): Promise<number> {
      return db.kysely.transaction().execute(async (trx) => {
        const now = clock.now();
        const stamp = isoNow({ now: () => now });
        const claimed = await claimDue(trx, stamp, limit);
        for (const row of claimed) {
          const object = await eventFor(trx, row, now);
          if (!object) {
            await settleClaimed(trx, row.id, 'skipped');
            continue;
          }
          const [event] = await recordEvents(trx, row.team_id, [{ type: row.kind as TimedEventKind, object, previous: null }], stamp);
          await settleClaimed(trx, row.id, { eventId: event!.id });
        }
        return claimed.length;
      });
    },

    /** Every batch due now; resolves with the number of rows claimed. */
    async fireDue(): Promise<number> {
      let total = 0;
      for (;;) {
        const n = await this.fireBatch();
        total += n;
        if (n < CLAIM_BATCH) return total;
      }
    },
  };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;
