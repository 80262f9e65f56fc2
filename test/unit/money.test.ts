import { describe, expect, it } from 'vitest';
import { fromCents, lowerBoundCents, MAX_MONEY, toCents, upperBoundCents } from '../../src/domain/shared/money.js';

describe('toCents', () => {
  it.each([
    [0, 0],
    [1, 100],
    [10.1, 1010],
    [19.99, 1999],
    [0.07, 7],
    [0.29, 29],
    [1.15, 115],
    [4.35, 435],
    [152990.9, 15299090],
    [-5.5, -550],
  ])('%s BRL is %s cents', (value, cents) => {
    expect(toCents(value)).toBe(cents);
  });

  it('accepts sums that are not exact in binary floating point (0.1 + 0.2)', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(toCents(0.1 + 0.2)).toBe(30);
  });

  it.each([1.234, 1.005, 0.001, 19.999, 8.675309, 1e-7])('refuses %s (more than two decimals): null', (value) => {
    expect(toCents(value)).toBeNull();
  });

  it('accepts the largest allowed value, 999,999,999,999.99', () => {
    expect(MAX_MONEY).toBe(999_999_999_999.99);
    expect(toCents(MAX_MONEY)).toBe(99_999_999_999_999);
  });

  it.each([134217987.86, 536870912.07, 606377242.69, 306718863228.1, 673796614928.57, 999999999999.98])(
    'accepts the two-decimal value %s of the allowed range (large magnitudes included)',
    (value) => {
      expect(toCents(value)).toBe(Math.round(value * 100));
    },
  );

  it('every two-decimal value up to the maximum converts exactly (deterministic sample)', () => {
    const refused: number[] = [];
    // A fixed pseudo-random walk over the whole range: 5,000 values with two decimals.
    let seed = 12345;
    for (let i = 0; i < 5_000; i++) {
      seed = (seed * 48271) % 2147483647; // Park–Miller: exact in doubles
      const cents = Math.floor((seed / 2147483647) * 99_999_999_999_999);
      const value = Number((cents / 100).toFixed(2));
      if (toCents(value) !== cents) refused.push(value);
    }
    expect(refused.slice(0, 5), `${refused.length} of 5000 valid values refused`).toEqual([]);
  });
});

describe('fromCents', () => {
  it('turns cents back into BRL numbers', () => {
    expect(fromCents(1999)).toBe(19.99);
    expect(fromCents(1010)).toBe(10.1);
    expect(fromCents(0)).toBe(0);
    expect(fromCents(99_999_999_999_999)).toBe(999_999_999_999.99);
  });

  it('keeps null', () => {
    expect(fromCents(null)).toBeNull();
  });

  it.each([0.3, 10.1, 19.99, 152990.9, 1234567.89])('round-trips %s', (value) => {
    expect(fromCents(toCents(value))).toBe(value);
  });
});

describe('lowerBoundCents / upperBoundCents (inclusive list filters)', () => {
  it('use the exact cents of a two-decimal bound', () => {
    expect(lowerBoundCents(10.1)).toBe(1010);
    expect(upperBoundCents(10.1)).toBe(1010);
    expect(lowerBoundCents(19.99)).toBe(1999);
    expect(upperBoundCents(19.99)).toBe(1999);
    expect(lowerBoundCents(0.1 + 0.2)).toBe(30);
    expect(upperBoundCents(0.1 + 0.2)).toBe(30);
    expect(lowerBoundCents(0)).toBe(0);
  });

  it('round a bound between two cents inward', () => {
    expect(lowerBoundCents(10.005)).toBe(1001);
    expect(upperBoundCents(10.005)).toBe(1000);
    expect(lowerBoundCents(1.234)).toBe(124);
    expect(upperBoundCents(1.234)).toBe(123);
  });

  it('clamp infinite and huge bounds to a finite number of cents', () => {
    for (const v of [lowerBoundCents(Infinity), upperBoundCents(Infinity), lowerBoundCents(1e300), upperBoundCents(1e300)]) {
      expect(Number.isFinite(v)).toBe(true);
      expect(v).toBeGreaterThan(99_999_999_999_999);
    }
    for (const v of [lowerBoundCents(-Infinity), upperBoundCents(-Infinity), lowerBoundCents(-1e300)]) {
      expect(Number.isFinite(v)).toBe(true);
      expect(v).toBeLessThan(0);
    }
  });

  it('a bound equal to a stored large value includes it (inclusive at any magnitude)', () => {
    expect(lowerBoundCents(536870912.07)).toBe(53687091207);
    expect(upperBoundCents(536870912.07)).toBe(53687091207);
  });
});
