import type { DealStatus, Priority } from '../deals/deals.types.js';

/** Milliseconds since the epoch: every time the model reads is one of these. */
export type Ms = number;
export const DAY_MS = 86_400_000;

/** What a deal looked like from `at` on (until its next state): the attributes a feature may read. */
export interface DealState {
  at: Ms;
  phase: string;
  status: DealStatus;
  value_cents: number | null;
  source: string | null;
  priority: Priority;
  client_id: string | null;
  responsible_id: string | null;
  case_id: string | null;
  store_id: string | null;
  expected_close_date: string | null;
}

/** An activity of a deal, with the times that say what was known of it when. */
export interface ActivityFact {
  type: string;
  created_at: Ms;
  due_at: Ms | null;
  completed_at: Ms | null;
  cancelled_at: Ms | null;
}

/**
 * A deal's life as the model sees it: its states in time order (the first at its creation), its
 * activities, and for a closed deal when it closed and how.
 */
export interface DealHistory {
  id: string;
  created_at: Ms;
  states: DealState[];
  activities: ActivityFact[];
  closed_at: Ms | null;
  won: boolean | null;
}

export interface PhaseInfo {
  name: string;
  position: number;
  /** The phase's suggested probability, 0..100. */
  probability: number;
}

/** Per responsible or store: closes in time order, for win rates known at a moment. */
export interface CloseLog {
  /** Close times, ascending. */
  at: Ms[];
  /** Wins among the first i closes, i = 0..at.length. */
  winsBefore: number[];
}

/** What the features read besides the deal itself: the team's records, each as known today. */
export interface TeamContext {
  phases: Map<string, PhaseInfo>;
  clients: Map<string, { segment: string | null }>;
  vehicles: Map<string, { price_cents: number | null; created_at: Ms }>;
  /** Per client: the creation time of its first deal (a deal created later is a returning client's). */
  clientFirstDeal: Map<string, Ms>;
  /** The team's closes, and per responsible and per store, for win rates as of a moment. */
  teamCloses: CloseLog;
  responsibleCloses: Map<string, CloseLog>;
  storeCloses: Map<string, CloseLog>;
  medianValueCents: number | null;
}

/** Named raw features of a deal at a moment (absent = 0). */
export type RawFeatures = Record<string, number>;

/** The encoding fixed at training: which names, and how each is standardized. */
export interface FeatureSpec {
  names: string[];
  means: number[];
  stds: number[];
}

export interface LogisticModel {
  intercept: number;
  weights: number[];
}

/** Platt scaling of the linear score: p = σ(a·z + b). */
export interface Platt {
  a: number;
  b: number;
}

/** Everything serving needs, stored as JSON in ai_models.model. */
export interface StoredModel {
  spec: FeatureSpec;
  logistic: LogisticModel;
  platt: Platt;
  medianValueCents: number | null;
  /** Win/close counts at training time: the rates serving reads (retrained after every 20 closes). */
  rates: { team: [number, number]; responsible: Record<string, [number, number]>; store: Record<string, [number, number]> };
}

export interface CalibrationBin {
  /** Decile of the predicted probability, 0..9. */
  decile: number;
  count: number;
  predicted: number;
  observed: number;
}

export interface ScoreMetrics {
  auc: number;
  auc_low: number;
  auc_high: number;
  brier: number;
  calibration: CalibrationBin[];
}

export interface ModelMetrics {
  /** 'holdout': the latest 20% of closed deals by close date; 'cross_validation': 5 folds over the history. */
  method: 'holdout' | 'cross_validation';
  evaluated_deals: number;
  model: ScoreMetrics;
  baseline: ScoreMetrics;
  /** AUC(model) − AUC(phase) and its 95% DeLong interval: the model is used when the low end is above 0. */
  auc_difference: number;
  auc_difference_low: number;
  auc_difference_high: number;
}

export type ModelUse = 'model' | 'phase';

/** A training's outcome as `autosales ai train` and the panel show it. */
export interface TrainingReport {
  team_id: string;
  version: number;
  trained_at: string;
  closed_deals: number;
  training_rows: number;
  training_ms: number;
  used: ModelUse | 'none';
  auc: number | null;
  baseline_auc: number | null;
  brier: number | null;
  baseline_brier: number | null;
  metrics: ModelMetrics | null;
  /** Why there is no model (fewer than 40 closed deals), in Portuguese. */
  reason: string | null;
}

export const MIN_CLOSED_DEALS = 40;
export const RETRAIN_EVERY_CLOSES = 20;
