/**
 * Where the domain reads the time. Services get one from the composition root (src/app/services.ts):
 * the system clock in production, a fake one in tests and in anything that must replay time.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The current time in stored form: ISO 8601 with milliseconds, UTC (fixed width, so it also sorts as text). */
export const isoNow = (clock: Clock): string => clock.now().toISOString();
