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
    for (let a = 1; a < d; a++) {
      grad[a] = grad[a]! - lambda * beta[a]!;
      hess[a * d + a] = hess[a * d + a]! + lambda;
    }
    hess[0] = hess[0]! + 1e-9;
    const h = new Matrix(d, d);
    for (let a = 0; a < d; a++) for (let b = a; b < d; b++) h.set(a, b, hess[a * d + b]!).set(b, a, hess[a * d + b]!);
    const g = Matrix.columnVector(Array.from(grad));
    const chol = new CholeskyDecomposition(h);
    const step = chol.isPositiveDefinite() ? chol.solve(g) : solve(h, g);
    let change = 0;
    for (let a = 0; a < d; a++) {
      const s = step.get(a, 0);
      beta[a] = beta[a]! + s;
      change = Math.max(change, Math.abs(s));
    }
    if (!Number.isFinite(change)) throw new Error('regressão logística não convergiu');
    if (change < tolerance) break;
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
