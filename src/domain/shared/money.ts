/** Money travels as JSON numbers in BRL and is stored as integer cents, never summed as floats. */
export const MAX_MONEY = 999_999_999_999.99;

/** Cents for a value with at most two decimals, or null when it has more. */
export function toCents(value: number): number | null {
  const cents = Math.round(value * 100);
  // Values like 0.1 + 0.2 are not exact in binary: accept anything within rounding error of a whole
  // cent. The error grows with the magnitude (about 1e-5 cents near a billion reais), hence relative.
  return Math.abs(value * 100 - cents) <= Math.max(1e-6, Math.abs(cents) * 1e-15) ? cents : null;
}

export const fromCents = (cents: number | null): number | null => (cents === null ? null : cents / 100);

/** Inclusive cent bounds for a list filter given in BRL (a bound between two cents rounds inward). */
const LIMIT_CENTS = 1e15;
const clampCents = (c: number) => Math.max(-LIMIT_CENTS, Math.min(LIMIT_CENTS, c));
export function lowerBoundCents(value: number): number {
  return clampCents(toCents(value) ?? Math.ceil(value * 100));
}
export function upperBoundCents(value: number): number {
  return clampCents(toCents(value) ?? Math.floor(value * 100));
}
