import { endOfDay } from '../shared/time-zone.js';
import { DUE_SOON_MS, type Arming } from './schedule.types.js';

const OPEN = new Set(['pending', 'in_progress']);

/**
 * An activity's time-driven events. Open with a due time: `activity.overdue` at `due_at`, and
 * `activity.due_soon` 24 hours before it while `due_at` is still ahead (an activity created or moved
 * to less than 24 hours away gets it at once; one whose due time has passed never gets it).
 * Closed or without a due time: neither.
 */
export function activityArmings(activity: { status: string; due_at: string | null }, now: Date): Arming[] {
  const due = OPEN.has(activity.status) ? activity.due_at : null;
  const dueMs = due === null ? null : new Date(due).getTime();
  const dueIso = dueMs === null ? null : new Date(dueMs).toISOString();
  return [
    {
      kind: 'activity.due_soon',
      want: dueMs !== null && dueIso !== null && dueMs > now.getTime() ? { fireAt: new Date(dueMs - DUE_SOON_MS).toISOString(), dueKey: dueIso } : null,
    },
    { kind: 'activity.overdue', want: dueIso === null ? null : { fireAt: dueIso, dueKey: dueIso } },
  ];
}

/** A financial record's `financial.overdue`: while pending, at the end of its due date in the team's zone. */
export function financialArmings(record: { status: string; due_date: string }, timeZone: string): Arming[] {
  return [
    {
      kind: 'financial.overdue',
      want: record.status === 'pending' ? { fireAt: endOfDay(record.due_date, timeZone).toISOString(), dueKey: record.due_date } : null,
    },
  ];
}
