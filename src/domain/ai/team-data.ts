import type { DbExecutor } from '../../storage/executor.js';
import type { DealHistory, TeamContext } from './ai.types.js';
import { loadActivityFacts, loadClientFacts, loadDealEvents, loadDealFacts, loadPhases, loadVehicleFacts } from './ai.repository.js';
import { buildContext } from './context.js';
import { historiesFromEvents } from './histories.js';

export interface TeamData {
  histories: DealHistory[];
  ctx: TeamContext;
}

/**
 * A team's deal histories and context, from six statements (phases, deals, deal events, activities,
 * clients, vehicles) however many deals it has: no statement per deal.
 */
export async function loadTeamData(db: DbExecutor, teamId: string): Promise<TeamData> {
  const [phases, deals, events, activities, clients, vehicles] = await Promise.all([
    loadPhases(db, teamId),
    loadDealFacts(db, teamId),
    loadDealEvents(db, teamId),
    loadActivityFacts(db, teamId),
    loadClientFacts(db, teamId),
    loadVehicleFacts(db, teamId),
  ]);
  const histories = historiesFromEvents(events, deals, activities);
  const ctx = buildContext({
    histories,
    phases,
    clients: new Map(clients.map((c) => [c.id, { segment: c.segment }])),
    vehicles: new Map(vehicles.map((v) => [v.id, { price_cents: v.price_cents, created_at: v.created_at }])),
  });
  return { histories, ctx };
}
