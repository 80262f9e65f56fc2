import type { EventType } from '../events/event-types.js';

/** The events the clock drives (the rest are emitted by the writes themselves). */
export const TIMED_EVENT_KINDS = ['activity.due_soon', 'activity.overdue', 'financial.overdue'] as const satisfies readonly EventType[];
export type TimedEventKind = (typeof TIMED_EVENT_KINDS)[number];

export type SubjectType = 'activity' | 'financial';

/** `activity.due_soon` fires this long before `due_at`. */
export const DUE_SOON_MS = 24 * 3_600_000;

/**
 * What one record wants of one time-driven event: armed to fire at `fireAt` for the due time
 * `dueKey`, or `null` (nothing to fire: the record is closed, has no due time, or it has passed).
 */
export interface Arming {
  kind: TimedEventKind;
  want: { fireAt: string; dueKey: string } | null;
}
