/** Stored form: ISO 8601 with milliseconds, UTC (fixed width, so it also sorts as text). */
export const nowIso = (): string => new Date().toISOString();

/** Response form required by the contract: `YYYY-MM-DDTHH:MM:SSZ`, no fraction. */
export function toApiTimestamp(value: Date | string): string {
  const iso = typeof value === 'string' ? new Date(value).toISOString() : value.toISOString();
  return `${iso.slice(0, 19)}Z`;
}

export const toApiTimestampOrNull = (value: Date | string | null): string | null => (value === null ? null : toApiTimestamp(value));

/** First instant of a `YYYY-MM-DD` day (UTC) and of the day after it, as stored timestamps. */
export function dayBounds(day: string): { start: string; nextDayStart: string } {
  const start = new Date(`${day}T00:00:00.000Z`);
  const next = new Date(start.getTime() + 86_400_000);
  return { start: start.toISOString(), nextDayStart: next.toISOString() };
}
