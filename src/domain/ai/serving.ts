import type { DealStatus, Priority } from '../deals/deals.types.js';
import type { ActivityFact, DealHistory, Ms, PhaseInfo, RawFeatures, StoredModel, TeamContext } from './ai.types.js';
import { featuresAt, type RatesAt } from './features.js';
import { applyPlatt, linearScore } from './logistic.js';
import { encode } from './sparse-rows.js';

/** A deal as it stands now: what serving reads of its row. */
export interface DealFacts {
  id: string;
  title: string;
  status: DealStatus;
  phase: string;
  value_cents: number | null;
  source: string | null;
  priority: Priority;
  client_id: string | null;
  responsible_id: string | null;
  case_id: string | null;
  store_id: string | null;
  expected_close_date: string | null;
  loss_reason: string | null;
  created_at: Ms;
  /** When it entered its phase (its creation when it never moved). */
  phase_changed_at: Ms;
}

/** The stored model as serving reads it: `used` decides between the model and the phase's probability. */
export interface ServingModel {
  version: number;
  used: 'model' | 'phase' | 'none';
  model: StoredModel | null;
}

/** What the features of some deals read besides the deals themselves (only those deals' client and car). */
export interface ServingInputs {
  model: ServingModel | null;
  phases: Map<string, PhaseInfo & { label: string }>;
  clients: Map<string, { segment: string | null; name: string }>;
  vehicles: Map<string, { price_cents: number | null; created_at: Ms; title: string }>;
  /** Per client: its first deal's creation (a deal created later is a returning client's). */
  clientFirstDeal: Map<string, Ms>;
  /** Per deal: its activities. */
  activities: Map<string, ActivityFact[]>;
}

/**
 * The deal's life as the features read it at a moment after its last change: its state now, entered
 * its phase at `phase_changed_at` (a placeholder state before, so "days in phase" counts from then).
 */
export function historyOfOpenDeal(deal: DealFacts, activities: ActivityFact[]): DealHistory {
  const state = {
    at: deal.phase_changed_at,
    phase: deal.phase,
    status: deal.status,
    value_cents: deal.value_cents,
    source: deal.source,
    priority: deal.priority,
    client_id: deal.client_id,
    responsible_id: deal.responsible_id,
    case_id: deal.case_id,
    store_id: deal.store_id,
    expected_close_date: deal.expected_close_date,
  };
  const states =
    deal.phase_changed_at > deal.created_at ? [{ ...state, at: deal.created_at, phase: '\u0000earlier' }, state] : [{ ...state, at: deal.created_at }];
  return { id: deal.id, created_at: deal.created_at, states, activities, closed_at: null, won: null };
}

const EMPTY_LOG = { at: [], winsBefore: [0] };

function contextOf(inputs: ServingInputs, model: StoredModel): TeamContext {
  return {
    phases: inputs.phases,
    clients: inputs.clients,
    vehicles: inputs.vehicles,
    clientFirstDeal: inputs.clientFirstDeal,
    teamCloses: EMPTY_LOG,
    responsibleCloses: new Map(),
    storeCloses: new Map(),
    medianValueCents: model.medianValueCents,
  };
}

/** The win/close counts of the last training: the deal's responsible's and store's. */
function ratesOfModel(model: StoredModel, deal: DealFacts): RatesAt {
  return {
    team: model.rates.team,
    responsible: (deal.responsible_id !== null && model.rates.responsible[deal.responsible_id]) || [0, 0],
    store: (deal.store_id !== null && model.rates.store[deal.store_id]) || [0, 0],
  };
}

/** The deal's raw features now, as the stored model reads them. */
export function servingFeatures(inputs: ServingInputs, model: StoredModel, deal: DealFacts, now: Ms): RawFeatures {
  const history = historyOfOpenDeal(deal, inputs.activities.get(deal.id) ?? []);
  return featuresAt(history, now, contextOf(inputs, model), ratesOfModel(model, deal));
}

/**
 * `ai_win_probability`: an integer 0..100 on an `ativo` deal of a team whose model was trained (40+
 * closed deals); the phase's suggested probability where the model did not beat it; null otherwise.
 */
export function winProbability(inputs: ServingInputs, deal: DealFacts, now: Ms): number | null {
  const m = inputs.model;
  if (deal.status !== 'ativo' || !m || m.used === 'none' || !m.model) return null;
  if (m.used === 'phase') return inputs.phases.get(deal.phase)?.probability ?? null;
  const x = encode(servingFeatures(inputs, m.model, deal, now), m.model.spec);
  return Math.round(100 * applyPlatt(m.model.platt, linearScore(m.model.logistic, x)));
}
