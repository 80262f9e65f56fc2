/** Calendar days in a team's time zone (IANA names, through Intl: no dependency). */

export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock fields of an instant in a zone. */
function wallClock(instant: number, timeZone: string) {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** The zone's offset from UTC at an instant, in ms (São Paulo: -3 h). */
function offsetAt(instant: number, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The first instant of a calendar day (`YYYY-MM-DD`) in a zone. Where a change of offset skips local
 * midnight, the day starts at the first instant that exists.
 */
export function startOfDay(day: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d);
  let guess = wall - offsetAt(wall, timeZone);
  // A second pass settles instants near an offset change.
  guess = wall - offsetAt(guess, timeZone);
  const w = wallClock(guess, timeZone);
  const landed = `${String(w.year).padStart(4, '0')}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
  // Midnight did not exist (clocks jumped over it): the day began when the jump landed.
  // `guess` then fell before the jump, at the previous day's offset: that offset reaches the jump itself.
  if (landed < day) guess = wall - offsetAt(guess, timeZone);
  return new Date(guess);
}

/** `YYYY-MM-DD` of the day after `day`. */
export function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/** The end of a calendar day in a zone: the first instant of the next day. */
export const endOfDay = (day: string, timeZone: string): Date => startOfDay(nextDay(day), timeZone);

/** The calendar day (`YYYY-MM-DD`) an instant falls on in a zone. */
export function dayIn(instant: Date, timeZone: string): string {
  const w = wallClock(instant.getTime(), timeZone);
  return `${String(w.year).padStart(4, '0')}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}
