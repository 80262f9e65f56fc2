import { MIN_CLOSED_DEALS, type DealHistory, type ModelMetrics, type ModelUse, type StoredModel, type TeamContext } from './ai.types.js';
import { featuresAt, stateAt, trainingMoments } from './features.js';
import { applyPlatt, fitLogisticSparse, fitPlatt, linearScore, type Design } from './logistic.js';
import { aucDifference, round4, scoreMetrics } from './metrics.js';
import { SparseRows } from './sparse-rows.js';

/** Closed deals from which the judgement is a time holdout (the latest 20%); below, 5-fold cross-validation. */
export const HOLDOUT_MIN_DEALS = 500;
const FOLDS = 5;

export interface TrainingOutcome {
  model: StoredModel | null;
  metrics: ModelMetrics | null;
  used: ModelUse | 'none';
  closedDeals: number;
  trainingRows: number;
}

interface Rows {
  data: SparseRows;
  label: Float64Array;
  baseline: Float64Array;
  /** Per closed deal (in close order): its first row and its row count. */
  first: Int32Array;
  count: Int32Array;
}

/** A stable choice among a deal's moments: each evaluated deal counts once (DeLong needs independent rows). */
function evaluationRow(id: string, first: number, count: number): number {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return first + ((h >>> 0) % count);
}

function buildRows(closed: DealHistory[], ctx: TeamContext): Rows {
  const data = new SparseRows();
  const labels: number[] = [];
  const baselines: number[] = [];
  const first = new Int32Array(closed.length);
  const count = new Int32Array(closed.length);
  closed.forEach((h, d) => {
    first[d] = data.length;
    for (const t of trainingMoments(h)) {
      data.push(featuresAt(h, t, ctx));
      labels.push(h.won ? 1 : 0);
      baselines.push((ctx.phases.get(stateAt(h, t).phase)?.probability ?? 0) / 100);
    }
    count[d] = data.length - first[d];
  });
  return { data, label: Float64Array.from(labels), baseline: Float64Array.from(baselines), first, count };
}

const rowsOf = (rows: Rows, deals: readonly number[]): number[] => deals.flatMap((d) => Array.from({ length: rows.count[d]! }, (_, k) => rows.first[d]! + k));

interface Fitted {
  predict(design: Design, i: number): number;
  stored: Pick<StoredModel, 'spec' | 'logistic' | 'platt'>;
}

/**
 * The model of some deals (in close order): a logistic regression on the earlier 80% of them, then
 * Platt scaling fitted on the later 20% (scores the regression never saw), so the probability it
 * answers is calibrated on deals later than those it learnt from, as serving will be.
 */
function fitCalibrated(rows: Rows, deals: readonly number[]): Fitted {
  const cut = Math.max(1, Math.floor(deals.length * 0.8));
  const fitRows = rowsOf(rows, deals.slice(0, cut));
  const calibRows = rowsOf(rows, deals.slice(cut));
  const spec = rows.data.specOf(fitRows);
  const logistic = fitLogisticSparse(
    rows.data.sparseDesign(fitRows, spec),
    fitRows.map((r) => rows.label[r]!),
  );
  const calib = rows.data.design(calibRows, spec);
  const scores = calibRows.map((_, i) => linearScore(logistic, calib.x, i * calib.p));
  const platt = fitPlatt(
    scores,
    calibRows.map((r) => rows.label[r]!),
  );
  return {
    predict: (design, i) => applyPlatt(platt, linearScore(logistic, design.x, i * design.p)),
    stored: { spec, logistic, platt },
  };
}

/** Predicted probabilities of `evalDeals`' evaluation rows by a model fitted on `trainDeals`. */
function predictOn(rows: Rows, closed: DealHistory[], trainDeals: number[], evalDeals: number[], out: { p: number[]; y: number[]; base: number[] }): void {
  const fitted = fitCalibrated(rows, trainDeals);
  const evalRows = evalDeals.map((d) => evaluationRow(closed[d]!.id, rows.first[d]!, rows.count[d]!));
  const design = rows.data.design(evalRows, fitted.stored.spec);
  evalRows.forEach((r, i) => {
    out.p.push(fitted.predict(design, i));
    out.y.push(rows.label[r]!);
    out.base.push(rows.baseline[r]!);
  });
}

/**
 * Trains a team's model on its closed deals (at least 40) and judges it against the phase's suggested
 * probability on deals it did not learn from: the latest 20% by close date, or 5-fold cross-validation
 * when fewer than 500 deals closed. The model is used only when the low end of the 95% DeLong interval
 * of AUC(model) − AUC(phase) is above zero; the served model is then refitted the same way on every
 * closed deal (the judged one left out the newest 20%, the most like the open deals of today).
 */
export function trainModel(histories: DealHistory[], ctx: TeamContext, rates: StoredModel['rates']): TrainingOutcome {
  const closed = histories
    .filter((h) => h.closed_at !== null && h.won !== null && trainingMoments(h).length > 0)
    .sort((a, b) => a.closed_at! - b.closed_at! || (a.id < b.id ? -1 : 1));
  if (closed.length < MIN_CLOSED_DEALS) return { model: null, metrics: null, used: 'none', closedDeals: closed.length, trainingRows: 0 };
  const rows = buildRows(closed, ctx);
  const all = closed.map((_, d) => d);
  const out = { p: [] as number[], y: [] as number[], base: [] as number[] };
  let method: ModelMetrics['method'];
  if (closed.length >= HOLDOUT_MIN_DEALS) {
    method = 'holdout';
    const cut = Math.floor(closed.length * 0.8);
    predictOn(rows, closed, all.slice(0, cut), all.slice(cut), out);
  } else {
    method = 'cross_validation';
    for (let k = 0; k < FOLDS; k++) {
      const lo = Math.floor((k * closed.length) / FOLDS);
      const hi = Math.floor(((k + 1) * closed.length) / FOLDS);
      predictOn(rows, closed, [...all.slice(0, lo), ...all.slice(hi)], all.slice(lo, hi), out);
    }
  }
  const diff = aucDifference(out.p, out.base, out.y);
  const metrics: ModelMetrics = {
    method,
    evaluated_deals: out.y.length,
    model: scoreMetrics(out.p, out.y),
    baseline: scoreMetrics(out.base, out.y),
    auc_difference: round4(diff.difference),
    auc_difference_low: round4(diff.low),
    auc_difference_high: round4(diff.high),
  };
  const used: ModelUse = diff.low > 0 ? 'model' : 'phase';
  const final = fitCalibrated(rows, all);
  return {
    model: { ...final.stored, medianValueCents: ctx.medianValueCents, rates },
    metrics,
    used,
    closedDeals: closed.length,
    trainingRows: rows.data.length,
  };
}
