import type { CalibrationBin, ScoreMetrics } from './ai.types.js';

/** 1-based ranks with ties given their average rank (midranks). */
export function midranks(values: ArrayLike<number>): Float64Array {
  const n = values.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const ranks = new Float64Array(n);
  let i = 0;
  while (i < n) {
    let j = i;
    while (j + 1 < n && values[order[j + 1]!] === values[order[i]!]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k]!] = rank;
    i = j + 1;
  }
  return ranks;
}

/** DeLong's structural components of one score: per positive (V10) and per negative (V01). */
function components(scores: ArrayLike<number>, labels: ArrayLike<number>) {
  const pos: number[] = [];
  const neg: number[] = [];
  for (let i = 0; i < labels.length; i++) (labels[i] === 1 ? pos : neg).push(scores[i]!);
  const m = pos.length;
  const n = neg.length;
  const all = midranks([...pos, ...neg]);
  const rPos = midranks(pos);
  const rNeg = midranks(neg);
  const v10 = new Float64Array(m);
  const v01 = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < m; i++) {
    v10[i] = (all[i]! - rPos[i]!) / n;
    sum += all[i]!;
  }
  for (let j = 0; j < n; j++) v01[j] = 1 - (all[m + j]! - rNeg[j]!) / m;
  const auc = (sum - (m * (m + 1)) / 2) / (m * n);
  return { auc, v10, v01 };
}

function covariance(a: Float64Array, b: Float64Array): number {
  const n = a.length;
  if (n < 2) return 0;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= n;
  mb /= n;
  let s = 0;
  for (let i = 0; i < n; i++) s += (a[i]! - ma) * (b[i]! - mb);
  return s / (n - 1);
}

const Z95 = 1.959963984540054;

export interface AucInterval {
  auc: number;
  low: number;
  high: number;
}

/** AUC with its 95% DeLong interval; NaN when one class is missing. */
export function aucWithInterval(scores: ArrayLike<number>, labels: ArrayLike<number>): AucInterval {
  const c = components(scores, labels);
  if (c.v10.length === 0 || c.v01.length === 0) return { auc: NaN, low: NaN, high: NaN };
  const se = Math.sqrt(covariance(c.v10, c.v10) / c.v10.length + covariance(c.v01, c.v01) / c.v01.length);
  return { auc: c.auc, low: Math.max(0, c.auc - Z95 * se), high: Math.min(1, c.auc + Z95 * se) };
}

/** AUC(a) − AUC(b) on the same rows, with the 95% interval of DeLong's paired test. */
export function aucDifference(a: ArrayLike<number>, b: ArrayLike<number>, labels: ArrayLike<number>): { difference: number; low: number; high: number } {
  const ca = components(a, labels);
  const cb = components(b, labels);
  const m = ca.v10.length;
  const n = ca.v01.length;
  if (m === 0 || n === 0) return { difference: NaN, low: NaN, high: NaN };
  const var10 = covariance(ca.v10, ca.v10) + covariance(cb.v10, cb.v10) - 2 * covariance(ca.v10, cb.v10);
  const var01 = covariance(ca.v01, ca.v01) + covariance(cb.v01, cb.v01) - 2 * covariance(ca.v01, cb.v01);
  const se = Math.sqrt(Math.max(0, var10 / m + var01 / n));
  const difference = ca.auc - cb.auc;
  return { difference, low: difference - Z95 * se, high: difference + Z95 * se };
}

export function brier(p: ArrayLike<number>, labels: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < p.length; i++) s += (p[i]! - labels[i]!) ** 2;
  return p.length ? s / p.length : NaN;
}

/** Mean predicted and observed rate per decile of the predicted probability (empty deciles left out). */
export function calibrationByDecile(p: ArrayLike<number>, labels: ArrayLike<number>): CalibrationBin[] {
  const sums = Array.from({ length: 10 }, () => ({ count: 0, predicted: 0, observed: 0 }));
  for (let i = 0; i < p.length; i++) {
    const bin = sums[Math.min(9, Math.max(0, Math.floor(p[i]! * 10)))]!;
    bin.count++;
    bin.predicted += p[i]!;
    bin.observed += labels[i]!;
  }
  return sums.flatMap((s, decile) =>
    s.count === 0 ? [] : [{ decile, count: s.count, predicted: round4(s.predicted / s.count), observed: round4(s.observed / s.count) }],
  );
}

export const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

export function scoreMetrics(p: ArrayLike<number>, labels: ArrayLike<number>): ScoreMetrics {
  const auc = aucWithInterval(p, labels);
  return {
    auc: round4(auc.auc),
    auc_low: round4(auc.low),
    auc_high: round4(auc.high),
    brier: round4(brier(p, labels)),
    calibration: calibrationByDecile(p, labels),
  };
}
