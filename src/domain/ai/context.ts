import type { DealHistory, Ms, PhaseInfo, StoredModel, TeamContext } from './ai.types.js';
import { closeLogOf, stateAt } from './features.js';

export interface ContextInput {
  histories: readonly DealHistory[];
  phases: readonly PhaseInfo[];
  clients: Map<string, { segment: string | null }>;
  vehicles: Map<string, { price_cents: number | null; created_at: Ms }>;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Who closed a closed deal: its responsible and store just before the close. */
const closer = (h: DealHistory) => stateAt(h, h.closed_at! - 1);

/** The team's context for features, from its deal histories and records. */
export function buildContext({ histories, phases, clients, vehicles }: ContextInput): TeamContext {
  const clientFirstDeal = new Map<string, Ms>();
  const values: number[] = [];
  const team: Array<{ at: Ms; won: boolean }> = [];
  const byResponsible = new Map<string, Array<{ at: Ms; won: boolean }>>();
  const byStore = new Map<string, Array<{ at: Ms; won: boolean }>>();
  const add = (map: Map<string, Array<{ at: Ms; won: boolean }>>, key: string | null, close: { at: Ms; won: boolean }) => {
    if (key === null) return;
    const list = map.get(key) ?? [];
    list.push(close);
    map.set(key, list);
  };
  for (const h of histories) {
    const first = h.states[0]!;
    for (const s of h.states) {
      if (s.client_id === null) continue;
      const known = clientFirstDeal.get(s.client_id);
      if (known === undefined || h.created_at < known) clientFirstDeal.set(s.client_id, h.created_at);
    }
    if (first.value_cents !== null && first.value_cents > 0) values.push(first.value_cents);
    if (h.closed_at !== null && h.won !== null) {
      const close = { at: h.closed_at, won: h.won };
      const who = closer(h);
      team.push(close);
      add(byResponsible, who.responsible_id, close);
      add(byStore, who.store_id, close);
    }
  }
  const logs = (map: Map<string, Array<{ at: Ms; won: boolean }>>) => new Map([...map].map(([k, v]) => [k, closeLogOf(v)]));
  return {
    phases: new Map(phases.map((p) => [p.name, p])),
    clients,
    vehicles,
    clientFirstDeal,
    teamCloses: closeLogOf(team),
    responsibleCloses: logs(byResponsible),
    storeCloses: logs(byStore),
    medianValueCents: median(values),
  };
}

/** Win/close counts over every close so far: what serving reads until the next training. */
export function ratesOf(ctx: TeamContext): StoredModel['rates'] {
  const total = (log: TeamContext['teamCloses']): [number, number] => [log.winsBefore[log.at.length]!, log.at.length];
  return {
    team: total(ctx.teamCloses),
    responsible: Object.fromEntries([...ctx.responsibleCloses].map(([k, log]) => [k, total(log)])),
    store: Object.fromEntries([...ctx.storeCloses].map(([k, log]) => [k, total(log)])),
  };
}
