import { describe, expect, it } from 'vitest';
import { isoNow, systemClock } from '../../src/domain/shared/clock.js';
import { dayBounds, isCanonicalIso, toApiTimestamp, toApiTimestampOrNull } from '../../src/domain/shared/time.js';

const API_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

describe('toApiTimestamp', () => {
  it('formats a Date as YYYY-MM-DDTHH:MM:SSZ, dropping milliseconds', () => {
    expect(toApiTimestamp(new Date('2026-11-22T05:33:47.123Z'))).toBe('2026-11-22T05:33:47Z');
    expect(toApiTimestamp(new Date('2026-11-22T05:33:47Z'))).toBe('2026-11-22T05:33:47Z');
  });

  it('truncates (never rounds up) the fraction', () => {
    expect(toApiTimestamp('2026-12-31T23:59:59.999Z')).toBe('2026-12-31T23:59:59Z');
    expect(toApiTimestamp(new Date('2026-12-31T23:59:59.999Z'))).toBe('2026-12-31T23:59:59Z');
  });

  it('formats a stored ISO string the same way', () => {
    expect(toApiTimestamp('2026-11-22T05:33:47.123Z')).toBe('2026-11-22T05:33:47Z');
  });

  it('converts a string with an offset to UTC', () => {
    expect(toApiTimestamp('2026-11-22T02:33:47.500-03:00')).toBe('2026-11-22T05:33:47Z');
  });

  it('matches the contract form for the current time', () => {
    expect(toApiTimestamp(isoNow(systemClock))).toMatch(API_TIMESTAMP);
    expect(isoNow(systemClock)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('a stored string (no parse) gives exactly what the parse would, for every day of every month, leap years and the ends of the range', () => {
    const viaDate = (s: string) => `${new Date(s).toISOString().slice(0, 19)}Z`;
    const samples: string[] = [];
    for (const year of ['0000', '0004', '0100', '1900', '2000', '2023', '2024', '2026', '2100', '2400', '9999'])
      for (let month = 1; month <= 12; month++)
        for (let day = 1; day <= 31; day++) samples.push(`${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T23:59:59.999Z`);
    // Random instants across the whole range, as toISOString writes them.
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const [min, max] = [Date.parse('0000-01-01T00:00:00.000Z'), Date.parse('9999-12-31T23:59:59.999Z')];
    for (let i = 0; i < 5000; i++) samples.push(new Date(min + Math.floor(random() * (max - min))).toISOString());
    for (const s of samples) expect(toApiTimestamp(s), s).toBe(viaDate(s));
    // Not canonical: parsed as before (offsets, no fraction, rolled-over days, out-of-range hours).
    expect(isCanonicalIso('2026-04-31T00:00:00.000Z')).toBe(false);
    expect(toApiTimestamp('2026-04-31T00:00:00.000Z')).toBe('2026-05-01T00:00:00Z');
    expect(isCanonicalIso('2026-02-29T00:00:00.000Z')).toBe(false);
    expect(isCanonicalIso('2024-02-29T00:00:00.000Z')).toBe(true);
    expect(isCanonicalIso('2026-11-22T05:33:47Z')).toBe(false);
    expect(isCanonicalIso('2026-11-22T24:00:00.000Z')).toBe(false);
    expect(isCanonicalIso('2026-11-22T02:33:47.500-03:00')).toBe(false);
    expect(() => toApiTimestamp('não é data')).toThrow(RangeError);
  });

  it('toApiTimestampOrNull keeps null', () => {
    expect(toApiTimestampOrNull(null)).toBeNull();
    expect(toApiTimestampOrNull('2026-11-22T05:33:47.123Z')).toBe('2026-11-22T05:33:47Z');
  });
});

describe('dayBounds', () => {
  it('gives the first instant of the UTC day and of the next day', () => {
    expect(dayBounds('2026-11-22')).toEqual({ start: '2026-11-22T00:00:00.000Z', nextDayStart: '2026-11-23T00:00:00.000Z' });
  });

  it('crosses month and year ends', () => {
    expect(dayBounds('2026-11-30').nextDayStart).toBe('2026-12-01T00:00:00.000Z');
    expect(dayBounds('2026-12-31').nextDayStart).toBe('2027-01-01T00:00:00.000Z');
  });

  it('knows leap years', () => {
    expect(dayBounds('2028-02-28').nextDayStart).toBe('2028-02-29T00:00:00.000Z');
    expect(dayBounds('2027-02-28').nextDayStart).toBe('2027-03-01T00:00:00.000Z');
  });

  it('the bounds compare as text with stored timestamps (an inclusive `to` covers the whole day)', () => {
    const { start, nextDayStart } = dayBounds('2026-11-22');
    expect('2026-11-22T00:00:00.000Z' >= start).toBe(true);
    expect('2026-11-22T23:59:59.999Z' < nextDayStart).toBe(true);
    expect('2026-11-23T00:00:00.000Z' < nextDayStart).toBe(false);
    expect('2026-11-21T23:59:59.999Z' >= start).toBe(false);
  });
});
