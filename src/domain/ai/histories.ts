import type { DealStatus, Priority } from '../deals/deals.types.js';
import type { ActivityFact, DealHistory, DealState, Ms } from './ai.types.js';
import type { ActivityFactRow, DealFactRow } from './ai.repository.js';

interface DealObject {
  id: string;
  phase: string;
  status: DealStatus;
  value: number | null;
  source: string | null;
  priority: Priority;
  client_id: string | null;
  responsible_id: string | null;
  case_id: string | null;
  store_id: string | null;
  expected_close_date: string | null;
}

const CLOSED = new Set<DealStatus>(['ganho', 'perdido']);

export function activityFact(a: Pick<ActivityFactRow, 'type' | 'created_at' | 'due_at' | 'completed_at' | 'cancelled_at'>): ActivityFact {
  return { type: a.type, created_at: a.created_at, due_at: a.due_at, completed_at: a.completed_at, cancelled_at: a.cancelled_at };
}

/**
 * Each deal's life from its events (deal.created, then every deal.updated: the deal as GET returned
 * it after each change), in time order. A deal whose creation event is missing has no known history
 * and is left out. A closed deal closed at its last move into `ganho` or `perdido`; its outcome is
 * its status today.
 */
export function historiesFromEvents(
  events: ReadonlyArray<{ at: Ms; object: string }>,
  deals: readonly DealFactRow[],
  activities: readonly ActivityFactRow[],
): DealHistory[] {
  const facts = new Map(deals.map((d) => [d.id, d]));
  const states = new Map<string, DealState[]>();
  for (const e of events) {
    const o = JSON.parse(e.object) as DealObject;
    if (!facts.has(o.id)) continue;
    let list = states.get(o.id);
    if (!list) states.set(o.id, (list = []));
    list.push({
      at: e.at,
      phase: o.phase,
      status: o.status,
      value_cents: o.value === null ? null : Math.round(o.value * 100),
      source: o.source,
      priority: o.priority,
      client_id: o.client_id,
      responsible_id: o.responsible_id,
      case_id: o.case_id,
      store_id: o.store_id,
      expected_close_date: o.expected_close_date,
    });
  }
  const byDeal = new Map<string, ActivityFact[]>();
  for (const a of activities) {
    let list = byDeal.get(a.deal_id);
    if (!list) byDeal.set(a.deal_id, (list = []));
    list.push(activityFact(a));
  }
  const out: DealHistory[] = [];
  for (const [id, list] of states) {
    const fact = facts.get(id)!;
    if (list[0]!.status !== 'ativo') continue;
    const closed = CLOSED.has(fact.status as DealStatus);
    let closedAt: Ms | null = null;
    if (closed) {
      for (let i = 1; i < list.length; i++) if (CLOSED.has(list[i]!.status) && !CLOSED.has(list[i - 1]!.status)) closedAt = list[i]!.at;
    }
    out.push({
      id,
      created_at: list[0]!.at,
      states: list,
      activities: byDeal.get(id) ?? [],
      closed_at: closedAt,
      won: closedAt === null ? null : fact.status === 'ganho',
    });
  }
  return out;
}
