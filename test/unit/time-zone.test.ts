import { describe, expect, it } from 'vitest';
import { dayIn, endOfDay, isTimeZone, nextDay, startOfDay } from '../../src/domain/shared/time-zone.js';

describe('time zones (overdue is judged at the end of the due date in the team zone)', () => {
  it('São Paulo: a day ends at 03:00 UTC of the next day', () => {
    expect(endOfDay('2026-11-24', 'America/Sao_Paulo').toISOString()).toBe('2026-11-25T03:00:00.000Z');
    expect(startOfDay('2026-11-24', 'America/Sao_Paulo').toISOString()).toBe('2026-11-24T03:00:00.000Z');
  });

  it('the end of the year and of a month roll over', () => {
    expect(endOfDay('2026-12-31', 'America/Sao_Paulo').toISOString()).toBe('2027-01-01T03:00:00.000Z');
    expect(endOfDay('2028-02-28', 'UTC').toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(nextDay('2026-02-28')).toBe('2026-03-01');
  });

  it('zones east of UTC and with half hours', () => {
    expect(endOfDay('2026-12-31', 'Asia/Kolkata').toISOString()).toBe('2026-12-31T18:30:00.000Z');
  });

  it('days across a daylight-saving change', () => {
    // New York: clocks go forward at 02:00 on 2026-03-08; midnight is still EST (-5).
    expect(startOfDay('2026-03-08', 'America/New_York').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(startOfDay('2026-03-09', 'America/New_York').toISOString()).toBe('2026-03-09T04:00:00.000Z');
    // São Paulo 2018: clocks jumped from 00:00 to 01:00 on 2018-11-04; the day began at 01:00 local (-2).
    expect(startOfDay('2018-11-04', 'America/Sao_Paulo').toISOString()).toBe('2018-11-04T03:00:00.000Z');
  });

  it('the day of an instant', () => {
    expect(dayIn(new Date('2026-11-25T02:59:59Z'), 'America/Sao_Paulo')).toBe('2026-11-24');
    expect(dayIn(new Date('2026-11-25T03:00:00Z'), 'America/Sao_Paulo')).toBe('2026-11-25');
  });

  it('knows IANA names and refuses others', () => {
    expect(isTimeZone('America/Sao_Paulo')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Foo/Bar')).toBe(false);
  });
});
