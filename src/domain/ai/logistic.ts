import { CholeskyDecomposition, Matrix, solve } from 'ml-matrix';
import type { LogisticModel, Platt } from './ai.types.js';

/** Rows of equal length, row-major: n × p. */
export interface Design {
  x: Float64Array;
  n: number;
  p: number;
}

export const sigmoid = (z: number): number => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

export function linearScore(model: LogisticModel, x: ArrayLike<number>, offset = 0): number {
  let z = model.intercept;
  for (let j = 0; j < model.weights.length; j++) z += model.weights[j]! * x[offset + j]!;
  return z;
}

export interface FitOptions {
  /** L2 penalty on the weights (never on the intercept). */
  lambda?: number;
  maxIterations?: number;
  tolerance?: number;
}

/**
 * Logistic regression by Newton's method (iteratively reweighted least squares) with an L2 penalty:
 * the gradient and Hessian are summed in one pass over the rows per iteration (p is a few dozen, so
 * the p × p system is small), and ml-matrix solves it (Cholesky; a general solve should the penalty
 * be zero and the Hessian singular). Converges in a handful of iterations on standardized features.
 */
export function fitLogistic(design: Design, y: ArrayLike<number>, options: FitOptions = {}): LogisticModel {
  const { x, n, p } = design;
  const lambda = options.lambda ?? 1;
  const maxIterations = options.maxIterations ?? 30;
  const tolerance = options.tolerance ?? 1e-7;
  const d = p + 1; // the intercept is coefficient 0
  const beta = new Float64Array(d);
  const grad = new Float64Array(d);
  const hess = new Float64Array(d * d);
  const row = new Float64Array(d);
  row[0] = 1;
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    grad.fill(0);
    hess.fill(0);
    for (let i = 0; i < n; i++) {
      const base = i * p;
      let z = beta[0]!;
      for (let j = 0; j < p; j++) {
        const v = x[base + j]!;
        row[j + 1] = v;
        z += beta[j + 1]! * v;
      }
      const mu = sigmoid(z);
      const r = y[i]! - mu;
      const w = Math.max(mu * (1 - mu), 1e-10);
      for (let a = 0; a < d; a++) {
        const ra = row[a]!;
        if (ra === 0) continue;
        grad[a] = grad[a]! + r * ra;
        const wa = w * ra;
        const offset = a * d;
        for (let b = a; b < d; b++) hess[offset + b] = hess[offset + b]! + wa * row[b]!;
      }
    }
    if (newtonStep(beta, grad, hess, lambda) < tolerance) break;
  }
  return { intercept: beta[0]!, weights: Array.from(beta.subarray(1)) };
}

/**
 * One Newton step on `beta` from the log-likelihood's gradient and Hessian (upper triangle, row-major),
 * with the L2 penalty added here; returns the largest coefficient change.
 */
function newtonStep(beta: Float64Array, grad: Float64Array, hess: Float64Array, lambda: number): number {
  const d = beta.length;
  const h = new Matrix(d, d);
  for (let a = 0; a < d; a++) for (let b = a; b < d; b++) h.set(a, b, hess[a * d + b]!).set(b, a, hess[a * d + b]!);
  const g = Matrix.columnVector(Array.from(grad));
  for (let a = 1; a < d; a++) {
    g.set(a, 0, g.get(a, 0) - lambda * beta[a]!);
    h.set(a, a, h.get(a, a) + lambda);
  }
  h.set(0, 0, h.get(0, 0) + 1e-9);
  const chol = new CholeskyDecomposition(h);
  const step = chol.isPositiveDefinite() ? chol.solve(g) : solve(h, g);
  let change = 0;
  for (let a = 0; a < d; a++) {
    const s = step.get(a, 0);
    beta[a] = beta[a]! + s;
    change = Math.max(change, Math.abs(s));
  }
  if (!Number.isFinite(change)) throw new Error('regressão logística não convergiu');
  return change;
}

/** Rows kept sparse: row i's non-zero raw values are vals[starts[i]..starts[i+1]) at columns cols[…] (0..p-1). */
export interface SparseDesign {
  starts: Int32Array;
  cols: Int32Array;
  vals: Float64Array;
  n: number;
  p: number;
  /** The standardization of each column: the model is fitted on (x − mean) / std. */
  means: readonly number[];
  stds: readonly number[];
}

/**
 * The same fit as {@link fitLogistic} on standardized features, from sparse raw rows: a row names a
 * dozen of the few dozen features, so the sums run over its non-zeros only (about 6× fewer operations
 * at 40 features) and the centring and scaling are applied to the summed matrices afterwards:
 * Σw·u·uᵀ = S⁻¹(Σw·x·xᵀ − m(Σw·x)ᵀ − (Σw·x)mᵀ + Σw·m·mᵀ)S⁻¹ for u = S⁻¹(x − m). Training 100,000 closed
 * deals needs this to stay well under a minute.
 */
export function fitLogisticSparse(design: SparseDesign, y: ArrayLike<number>, options: FitOptions = {}): LogisticModel {
  const { starts, cols, vals, n, p, means, stds } = design;
  const lambda = options.lambda ?? 1;
  const maxIterations = options.maxIterations ?? 30;
  const tolerance = options.tolerance ?? 1e-7;
  const d = p + 1;
  const beta = new Float64Array(d);
  const rawHess = new Float64Array(p * p);
  const rawWx = new Float64Array(p);
  const rawRx = new Float64Array(p);
  const grad = new Float64Array(d);
  const hess = new Float64Array(d * d);
  const rawBeta = new Float64Array(p);
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    // The standardized model as a raw one: z = b0 − Σ βj·mj/sj + Σ (βj/sj)·xj.
    let b0 = beta[0]!;
    for (let j = 0; j < p; j++) {
      rawBeta[j] = beta[j + 1]! / stds[j]!;
      b0 -= rawBeta[j]! * means[j]!;
    }
    rawHess.fill(0);
    rawWx.fill(0);
    rawRx.fill(0);
    let sumW = 0;
    let sumR = 0;
    for (let i = 0; i < n; i++) {
      const lo = starts[i]!;
      const hi = starts[i + 1]!;
      let z = b0;
      for (let k = lo; k < hi; k++) z += rawBeta[cols[k]!]! * vals[k]!;
      const mu = sigmoid(z);
      const r = y[i]! - mu;
      const w = Math.max(mu * (1 - mu), 1e-10);
      sumW += w;
      sumR += r;
      for (let k = lo; k < hi; k++) {
        const a = cols[k]!;
        const va = vals[k]!;
        rawWx[a] = rawWx[a]! + w * va;
        rawRx[a] = rawRx[a]! + r * va;
        const wa = w * va;
        // The upper triangle only (a ≤ b), whatever order the row's columns come in.
        for (let l = k; l < hi; l++) {
          const b = cols[l]!;
          const cell = a <= b ? a * p + b : b * p + a;
          rawHess[cell] = rawHess[cell]! + wa * vals[l]!;
        }
      }
    }
    grad[0] = sumR;
    hess[0] = sumW;
    for (let a = 0; a < p; a++) {
      const ma = means[a]!;
      const sa = stds[a]!;
      grad[a + 1] = (rawRx[a]! - ma * sumR) / sa;
      hess[a + 1] = (rawWx[a]! - ma * sumW) / sa;
      for (let b = a; b < p; b++) {
        const mb = means[b]!;
        hess[(a + 1) * d + b + 1] = (rawHess[a * p + b]! - ma * rawWx[b]! - rawWx[a]! * mb + sumW * ma * mb) / (sa * stds[b]!);
      }
    }
    if (newtonStep(beta, grad, hess, lambda) < tolerance) break;
  }
  return { intercept: beta[0]!, weights: Array.from(beta.subarray(1)) };
}

/** Platt scaling: a one-feature logistic regression of the outcome on the linear score. */
export function fitPlatt(scores: ArrayLike<number>, y: ArrayLike<number>): Platt {
  let positives = 0;
  for (let i = 0; i < y.length; i++) positives += y[i]!;
  if (positives === 0 || positives === y.length) return { a: 1, b: 0 };
  const fit = fitLogistic({ x: Float64Array.from(scores), n: scores.length, p: 1 }, y, { lambda: 1e-6 });
  return { a: fit.weights[0]!, b: fit.intercept };
}

export const applyPlatt = (platt: Platt, z: number): number => sigmoid(platt.a * z + platt.b);
