/** Response form required by the contract: `YYYY-MM-DDTHH:MM:SSZ`, no fraction. */
export function toApiTimestamp(value: Date | string): string {
  // What we store is what toISOString wrote: already UTC, so it needs no parse (issue 15: the parse was ~1% of a GET by id on SQLite).
  if (typeof value === 'string' && isCanonicalIso(value)) return `${value.slice(0, 19)}Z`;
  const iso = typeof value === 'string' ? new Date(value).toISOString() : value.toISOString();
  return `${iso.slice(0, 19)}Z`;
}

/** Exactly the form Date#toISOString writes for years 0000–9999 (a valid day of its month included). */
const CANONICAL_ISO = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether `new Date(value).toISOString()` would give `value` back unchanged (Date rolls 31 April over to 1 May: not such a value). */
export function isCanonicalIso(value: string): boolean {
  if (!CANONICAL_ISO.test(value)) return false;
  const day = Number(value.slice(8, 10));
  if (day <= 28) return true;
  const month = Number(value.slice(5, 7));
  if (month !== 2) return day <= DAYS_IN_MONTH[month - 1]!;
  const year = Number(value.slice(0, 4));
  return day === 29 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

export const toApiTimestampOrNull = (value: Date | string | null): string | null => (value === null ? null : toApiTimestamp(value));

/** Both databases accept timestamps from year 1 to 9999; filter bounds outside that are clamped. */
const EARLIEST = '0001-01-01T00:00:00.000Z';
const LATEST = '9999-12-31T23:59:59.999Z';
const clampIso = (d: Date): string => {
  const year = d.getUTCFullYear();
  return year < 1 ? EARLIEST : year > 9999 ? LATEST : d.toISOString();
};

/** First instant of a `YYYY-MM-DD` day (UTC) and of the day after it, as stored timestamps. */
export function dayBounds(day: string): { start: string; nextDayStart: string } {
  const start = new Date(`${day}T00:00:00.000Z`);
  const next = new Date(start.getTime() + 86_400_000);
  return { start: clampIso(start), nextDayStart: clampIso(next) };
}
