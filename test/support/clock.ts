import type { Clock } from '../../src/domain/shared/clock.js';

/** A clock that moves only when told to (or by `step` on every read, so successive writes get distinct times). */
export interface FakeClock extends Clock {
  /** Moves the time forward by `ms`. */
  advance(ms: number): void;
  set(at: Date | string): void;
}

export function fakeClock(start: Date | string = '2026-11-22T12:00:00.000Z', { step = 0 }: { step?: number } = {}): FakeClock {
  let now = new Date(start).getTime();
  return {
    now() {
      const current = new Date(now);
      now += step;
      return current;
    },
    advance(ms) {
      now += ms;
    },
    set(at) {
      now = new Date(at).getTime();
    },
  };
}

/**
 * The real time plus an offset that only `advance` grows: for tests that run real I/O (receivers,
 * signatures checked against the wall clock) yet must not sleep for retries to fall due.
 */
export function shiftedClock(): FakeClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms) {
      offset += ms;
    },
    set(at) {
      offset = new Date(at).getTime() - Date.now();
    },
  };
}
