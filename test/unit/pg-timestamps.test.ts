import { describe, expect, it } from 'vitest';
import { parsePgTimestamptz } from '../../src/storage/db.js';

/**
 * Issue 15: PostgreSQL's timestamptz text in UTC is read as the canonical ISO string SQLite stores
 * (what Date#toISOString writes), without a Date per value; anything else is read as pg always read it.
 * Either way it names the same instant as pg's own parse.
 */
describe('timestamptz from PostgreSQL', () => {
  it.each([
    ['2026-11-25 12:00:00+00', '2026-11-25T12:00:00.000Z'],
    ['2026-11-25 12:00:00.4+00', '2026-11-25T12:00:00.400Z'],
    ['2026-11-25 12:00:00.436+00', '2026-11-25T12:00:00.436Z'],
    ['2026-11-25 12:00:00.436999+00', '2026-11-25T12:00:00.436Z'],
    ['0001-01-01 00:00:00+00', '0001-01-01T00:00:00.000Z'],
    ['9999-12-31 23:59:59.999+00', '9999-12-31T23:59:59.999Z'],
    ['2024-02-29 23:59:59.001+00', '2024-02-29T23:59:59.001Z'],
  ])('%s in UTC is the canonical string %s', (text, iso) => {
    expect(parsePgTimestamptz(text)).toBe(iso);
    expect(new Date(iso).toISOString()).toBe(iso);
  });

  it('every millisecond of a second reads as Date#toISOString writes it', () => {
    for (let ms = 0; ms < 1000; ms++) {
      const instant = new Date(Date.UTC(2026, 10, 25, 12, 0, 0, ms));
      const text = `2026-11-25 12:00:00${ms === 0 ? '' : `.${String(ms).padStart(3, '0').replace(/0+$/, '')}`}+00`;
      expect(parsePgTimestamptz(text)).toBe(instant.toISOString());
    }
  });

  it.each(['2026-11-25 09:00:00-03', '2026-11-25 17:30:00+05:30', '0044-03-15 12:00:00+00 BC', '12026-01-01 00:00:00+00'])(
    '%s (another zone, BC, a year past 9999) is a Date, as pg parses it',
    (text) => {
      const read = parsePgTimestamptz(text);
      expect(read).toBeInstanceOf(Date);
    },
  );

  it('another zone names the same instant', () => {
    expect((parsePgTimestamptz('2026-11-25 09:00:00-03') as Date).toISOString()).toBe('2026-11-25T12:00:00.000Z');
  });
});
