import { DAY_MS, type CloseLog, type DealHistory, type DealState, type Ms, type RawFeatures, type TeamContext } from './ai.types.js';

/** Ages (days after creation) at which a closed deal is described for training, while it was open. */
export const TRAINING_AGES_DAYS = [0.05, 3, 7, 14, 30, 60, 90, 150, 240, 365];

/** The moments of a closed deal's open life that become training rows. */
export function trainingMoments(history: DealHistory): Ms[] {
  if (history.closed_at === null) return [];
  const closed = history.closed_at;
  return TRAINING_AGES_DAYS.map((d) => history.created_at + d * DAY_MS).filter((t) => t < closed);
}

/** The state in force at `t` (the last one that started at or before it). */
export function stateAt(history: DealHistory, t: Ms): DealState {
  let found = history.states[0]!;
  for (const s of history.states) {
    if (s.at > t) break;
    found = s;
  }
  return found;
}

/** When the deal entered the phase it is in at `t`. */
export function phaseSince(history: DealHistory, t: Ms): Ms {
  const states = history.states;
  let since = history.created_at;
  let phase = states[0]!.phase;
  for (const s of states) {
    if (s.at > t) break;
    if (s.phase !== phase) {
      phase = s.phase;
      since = s.at;
    }
  }
  return since;
}

/** Number of entries of a sorted array strictly below `t`. */
export function countBefore(sorted: readonly number[], t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function closeLogOf(closes: Array<{ at: Ms; won: boolean }>): CloseLog {
  const sorted = [...closes].sort((a, b) => a.at - b.at);
  const winsBefore = [0];
  for (const c of sorted) winsBefore.push(winsBefore[winsBefore.length - 1]! + (c.won ? 1 : 0));
  return { at: sorted.map((c) => c.at), winsBefore };
}

/** Wins and closes before `t`. */
export function closesBefore(log: CloseLog | undefined, t: Ms): [number, number] {
  if (!log) return [0, 0];
  const n = countBefore(log.at, t);
  return [log.winsBefore[n]!, n];
}

/** A win rate shrunk toward `prior` by `strength` pseudo-closes (a seller with 2 closes is not 0% or 100%). */
export const smoothedRate = ([wins, closes]: [number, number], prior: number, strength = 5): number => (wins + prior * strength) / (closes + strength);

const logit = (p: number): number => Math.log(Math.min(0.99, Math.max(0.01, p)) / (1 - Math.min(0.99, Math.max(0.01, p))));
const clip = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
const logDays = (ms: number): number => Math.log1p(Math.max(0, ms) / DAY_MS);

/** The win/close counts a feature reads: as of `t` in training, as of the last training when serving. */
export interface RatesAt {
  team: [number, number];
  responsible: [number, number];
  store: [number, number];
}

export function ratesFromContext(ctx: TeamContext, state: DealState, t: Ms): RatesAt {
  return {
    team: closesBefore(ctx.teamCloses, t),
    responsible: state.responsible_id === null ? [0, 0] : closesBefore(ctx.responsibleCloses.get(state.responsible_id), t),
    store: state.store_id === null ? [0, 0] : closesBefore(ctx.storeCloses.get(state.store_id), t),
  };
}

/**
 * The deal at moment `t`, from what was known then: its state at `t`, its activities as they stood at
 * `t` (created by then; done only if completed by then; overdue if due before `t` and neither done nor
 * cancelled by then), win rates of closes before `t`. Nothing after `t` is read, so nothing known only
 * after the close reaches a closed deal's training rows (test/unit/ai-features.test.ts proves it).
 */
export function featuresAt(history: DealHistory, t: Ms, ctx: TeamContext, rates: RatesAt = ratesFromContext(ctx, stateAt(history, t), t)): RawFeatures {
  const s = stateAt(history, t);
  const f: RawFeatures = {};
  f[`phase=${s.phase}`] = 1;
  f.log_days_in_phase = logDays(t - phaseSince(history, t));
  f.log_age_days = logDays(t - history.created_at);

  if (s.value_cents !== null && s.value_cents > 0 && ctx.medianValueCents) f.value_vs_median = clip(Math.log(s.value_cents / ctx.medianValueCents), -3, 3);
  else f.value_missing = 1;

  const vehicle = s.case_id === null ? undefined : ctx.vehicles.get(s.case_id);
  if (vehicle) {
    f.car_linked = 1;
    f.log_days_in_stock = logDays(t - vehicle.created_at);
    if (vehicle.price_cents && s.value_cents !== null) f.value_vs_car_price = clip((s.value_cents - vehicle.price_cents) / vehicle.price_cents, -1, 1);
  }

  if (s.source) f[`source=${s.source}`] = 1;
  else f.source_missing = 1;

  const client = s.client_id === null ? undefined : ctx.clients.get(s.client_id);
  if (client) {
    if (client.segment) f[`segment=${client.segment}`] = 1;
    const first = ctx.clientFirstDeal.get(s.client_id!);
    if (first !== undefined && first < history.created_at) f.returning_client = 1;
  } else f.client_missing = 1;

  let done = 0;
  let lastDone = -Infinity;
  let overdue = 0;
  let next = 0;
  for (const a of history.activities) {
    if (a.created_at > t) continue;
    const completed = a.completed_at !== null && a.completed_at <= t;
    const cancelled = a.cancelled_at !== null && a.cancelled_at <= t;
    if (completed) {
      done++;
      if (a.completed_at! > lastDone) lastDone = a.completed_at!;
    } else if (!cancelled && a.due_at !== null) {
      if (a.due_at < t) overdue++;
      else next = 1;
    }
  }
  f.log_activities_done = Math.log1p(done);
  f.log_days_without_contact = logDays(t - (done > 0 ? lastDone : history.created_at));
  if (done === 0) f.never_contacted = 1;
  f.log_overdue = Math.log1p(overdue);
  f.next_scheduled = next;

  if (s.priority === 'alta') f.priority_alta = 1;
  if (s.priority === 'baixa') f.priority_baixa = 1;

  const teamRate = smoothedRate(rates.team, 0.3, 2);
  f.responsible_rate = logit(smoothedRate(rates.responsible, teamRate)) - logit(teamRate);
  f.store_rate = logit(smoothedRate(rates.store, teamRate)) - logit(teamRate);

  if (s.expected_close_date) {
    const days = (Date.parse(`${s.expected_close_date}T23:59:59Z`) - t) / DAY_MS;
    if (days < 0) f.close_date_passed = 1;
    f.days_to_expected_close = clip(days, -90, 180) / 30;
  } else f.close_date_missing = 1;
  return f;
}
