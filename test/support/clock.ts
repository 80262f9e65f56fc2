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
