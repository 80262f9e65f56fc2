import { randomUUID } from 'node:crypto';
import type { DbExecutor } from '../../storage/executor.js';
import type { NewActivityRow, NewClientRow, NewDealRow, NewVehicleRow } from '../../storage/database.js';
import { newEventId } from '../events/events.repository.js';
import type { DealState } from './ai.types.js';
import type { SyntheticHistory } from './synthetic-histories.js';

const iso = (ms: number) => new Date(ms).toISOString();
const RANK = { baixa: 1, media: 2, alta: 3 } as const;
const CHUNK = 500;

async function insertChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
}

/**
 * Writes a generated history as a team's records (clients, vehicles, deals as they stand at the end,
 * the deal events of every state, activities), with fresh ids, so the training reads it exactly as it
 * reads a store's: the tests' and the bench's way to a database of known truth. Returns the map from
 * the generator's deal ids to the stored ones.
 */
export async function insertSyntheticHistory(db: DbExecutor, teamId: string, g: SyntheticHistory): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const idOf = (id: string) => {
    let mapped = ids.get(id);
    if (!mapped) ids.set(id, (mapped = randomUUID()));
    return mapped;
  };
  const clients: NewClientRow[] = [...g.clients].map(([id, c]) => ({
    id: idOf(id),
    team_id: teamId,
    type: 'PF',
    name: c.name,
    segment: c.segment,
    status: 'active',
    tags: '[]',
    search_text: c.name.toLowerCase(),
    name_key: c.name.toLowerCase(),
    created_at: iso(g.now - 800 * 86_400_000),
    updated_at: iso(g.now - 800 * 86_400_000),
  }));
  const vehicles: NewVehicleRow[] = [...g.vehicles].map(([id, v]) => ({
    id: idOf(id),
    team_id: teamId,
    title: v.title,
    brand: 'Marca',
    model: 'Modelo',
    condition: 'seminovo',
    price_cents: v.price_cents,
    phase: 'disponivel',
    status: 'ativo',
    features: '[]',
    tags: '[]',
    search_text: v.title.toLowerCase(),
    title_key: v.title.toLowerCase(),
    brand_key: 'marca',
    model_key: 'modelo',
    created_at: iso(v.created_at),
    updated_at: iso(v.created_at),
  }));
  const object = (id: string, s: DealState, created: number) => ({
    id,
    title: `Negócio ${id.slice(0, 8)}`,
    description: null,
    value: s.value_cents === null ? null : s.value_cents / 100,
    currency: 'BRL',
    phase: s.phase,
    priority: s.priority,
    probability: 0,
    status: s.status,
    expected_close_date: s.expected_close_date,
    source: s.source,
    loss_reason: null,
    tags: [],
    is_starred: false,
    store_id: s.store_id,
    client_id: s.client_id && idOf(s.client_id),
    client: null,
    responsible_id: s.responsible_id,
    case_id: s.case_id && idOf(s.case_id),
    ai_summary: null,
    ai_win_probability: null,
    created_at: iso(created),
    updated_at: iso(s.at),
  });
  const deals: NewDealRow[] = [];
  const events: Array<{ id: string; team_id: string; type: string; object: string; previous_attributes: string | null; created_at: string }> = [];
  const activities: NewActivityRow[] = [];
  for (const h of g.histories) {
    const id = idOf(h.id);
    const last = h.states[h.states.length - 1]!;
    let phaseSince = h.created_at;
    h.states.forEach((s, i) => {
      if (i > 0 && s.phase !== h.states[i - 1]!.phase) phaseSince = s.at;
      events.push({
        id: newEventId(),
        team_id: teamId,
        type: i === 0 ? 'deal.created' : 'deal.updated',
        object: JSON.stringify(object(id, s, h.created_at)),
        previous_attributes: i === 0 ? null : '{}',
        created_at: iso(s.at),
      });
    });
    deals.push({
      id,
      team_id: teamId,
      title: `Negócio ${id.slice(0, 8)}`,
      description: null,
      value_cents: last.value_cents,
      currency: 'BRL',
      phase: last.phase,
      priority: last.priority,
      priority_rank: RANK[last.priority],
      probability: 0,
      status: last.status,
      expected_close_date: last.expected_close_date,
      source: last.source,
      loss_reason: null,
      tags: '[]',
      is_starred: 0,
      store_id: last.store_id,
      client_id: last.client_id && idOf(last.client_id),
      responsible_id: last.responsible_id,
      case_id: last.case_id && idOf(last.case_id),
      search_text: 'negocio',
      title_key: 'negocio',
      archived_at: null,
      created_at: iso(h.created_at),
      updated_at: iso(last.at),
      phase_changed_at: iso(phaseSince),
    });
    h.activities.forEach((a, i) => {
      const status = a.completed_at !== null ? 'completed' : a.cancelled_at !== null && a.cancelled_at <= g.now ? 'cancelled' : 'pending';
      activities.push({
        id: randomUUID(),
        team_id: teamId,
        type: a.type as NewActivityRow['type'],
        title: a.type === 'call' ? 'Ligar para o cliente' : 'Reunião com o cliente',
        description: null,
        status,
        priority: 'media',
        priority_rank: 2,
        due_at: a.due_at === null ? null : iso(a.due_at),
        deal_id: id,
        client_id: null,
        vehicle_id: null,
        responsible_id: null,
        completed_at: a.completed_at === null ? null : iso(a.completed_at),
        cancelled_at: status === 'cancelled' ? iso(a.cancelled_at!) : null,
        title_key: `atividade ${i}`,
        search_text: 'atividade',
        created_at: iso(a.created_at),
        updated_at: iso(a.completed_at ?? a.created_at),
      });
    });
  }
  await insertChunks(clients, (c) => db.insertInto('clients').values(c).execute());
  await insertChunks(vehicles, (c) => db.insertInto('vehicles').values(c).execute());
  await insertChunks(deals, (c) => db.insertInto('deals').values(c).execute());
  await insertChunks(events, (c) => db.insertInto('events').values(c).execute());
  await insertChunks(activities, (c) => db.insertInto('activities').values(c).execute());
  return ids;
}
