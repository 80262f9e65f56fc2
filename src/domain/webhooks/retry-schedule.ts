/** The contract's schedule: attempt 1 at once, then 5 min, 30 min, 2 h, 12 h and 24 h after each failure. */
export const DEFAULT_RETRY_SCHEDULE = '0,5m,30m,2h,12h,24h';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses `0,5m,30m,2h,12h,24h` into delays in milliseconds. Units: ms, s, m, h, d (a bare number
 * is seconds). The first delay must be 0: the first attempt is made as soon as the event exists.
 */
export function parseRetrySchedule(raw: string): number[] {
  const delays = raw.split(',').map((part) => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(part);
    if (!match) throw new Error(`'${part.trim()}' is not a delay (use e.g. 0, 500ms, 30s, 5m, 2h, 1d)`);
    return Math.round(Number(match[1]) * UNITS[match[2] ?? 's']!);
  });
  if (delays[0] !== 0) throw new Error('the first delay must be 0 (the first attempt is immediate)');
  if (delays.length > 20) throw new Error('at most 20 attempts');
  return delays;
}
