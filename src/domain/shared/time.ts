/** Response form required by the contract: `YYYY-MM-DDTHH:MM:SSZ`, no fraction. */
export function toApiTimestamp(value: Date | string): string {
  const iso = typeof value === 'string' ? new Date(value).toISOString() : value.toISOString();
  return `${iso.slice(0, 19)}Z`;
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
