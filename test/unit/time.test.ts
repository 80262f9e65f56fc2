import { describe, expect, it } from 'vitest';
import { isoNow, systemClock } from '../../src/domain/shared/clock.js';
import { dayBounds, toApiTimestamp, toApiTimestampOrNull } from '../../src/domain/shared/time.js';

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
