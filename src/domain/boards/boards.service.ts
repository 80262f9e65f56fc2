import type { Db } from '../../storage/db.js';
import { dealsWithOverdueActivity } from '../activities/activities.repository.js';
import { toDealView } from '../deals/deals.mapper.js';
import { boardColumnDeals, boardDealTotals, type DealFilters } from '../deals/deals.repository.js';
import { eventsAfter, findTeamEvent, newestEvent } from '../events/events.repository.js';
import { listDealPhases } from '../phases/phases.repository.js';
import { isoNow, type Clock } from '../shared/clock.js';
import { MAX_LIMIT } from '../shared/list-query.js';
import { fromCents } from '../shared/money.js';
import { listUsers } from '../users/users.repository.js';
import type { Role } from '../users/users.types.js';

/** The board's filters (PANEL2.md): the deals list's, without status (a board shows `ativo` deals). */
export interface DealBoardFilters {
  responsible_id?: string;
  store_id?: string;
  source?: string;
  search?: string;
}

export interface DealCard {
  id: string;
  title: string;
  value: number | null;
  currency: 'BRL';
  priority: string;
  phase: string;
  status: string;
  client: { id: string; name: string } | null;
  responsible: { id: string; name: string } | null;
  has_overdue_activity: boolean;
  updated_at: string;
}

export interface DealColumn {
  phase: string;
  probability: number;
  count: number;
  total_value: number;
  items: DealCard[];
  has_more: boolean;
}

export interface Person {
  id: string;
  name: string;
  role: Role;
  active: boolean;
}

/** How many events one poll of the changes route reads at most. */
export const CHANGES_LIMIT = 200;

/**
 * What the panel's boards read: columns of the team's pipeline, each one page of an indexed query
 * (never the whole table), and the change cursor the app polls. Writes go through the records'
 * own services (deals, vehicles, ...), never here.
 */
export function createBoardsService(db: Db, { clock }: { clock: Clock }) {
  const k = db.kysely;
  const dealFilters = (f: DealBoardFilters): DealFilters => ({ ...f, status: 'ativo' });

  /** The team's people by id (a small table), for the cards' responsible. */
  async function peopleById(teamId: string): Promise<Map<string, string>> {
    return new Map((await listUsers(k, teamId)).map((u) => [u.id, u.name]));
  }

  async function cards(teamId: string, phase: string, filters: DealBoardFilters, offset: number, limit: number, people: Map<string, string>) {
    const rows = await boardColumnDeals(k, db.dialect, teamId, phase, dealFilters(filters), offset, limit + 1);
    const page = rows.slice(0, limit);
    const overdue = await dealsWithOverdueActivity(
      k,
      teamId,
      page.map((r) => r.id),
      isoNow(clock),
    );
    const items: DealCard[] = page.map((row) => {
      const deal = toDealView(row);
      return {
        id: deal.id,
        title: deal.title,
        value: deal.value,
        currency: deal.currency,
        priority: deal.priority,
        phase: deal.phase,
        status: deal.status,
        client: deal.client,
        // An integrator may name a responsible that is not one of the team's people: shown by its id.
        responsible: deal.responsible_id === null ? null : { id: deal.responsible_id, name: people.get(deal.responsible_id) ?? deal.responsible_id },
        has_overdue_activity: overdue.has(deal.id),
        updated_at: deal.updated_at,
      };
    });
    return { items, has_more: rows.length > limit };
  }

  return {
    async dealsBoard(teamId: string, filters: DealBoardFilters, perColumn: number): Promise<{ columns: DealColumn[] }> {
      const limit = Math.min(perColumn, MAX_LIMIT);
      const [phases, totals, people] = await Promise.all([
        listDealPhases(k, teamId),
        boardDealTotals(k, db.dialect, teamId, dealFilters(filters)),
        peopleById(teamId),
      ]);
      const byPhase = new Map(totals.map((t) => [t.phase, t]));
      const columns = await Promise.all(
        phases.map(async (phase) => ({
          phase: phase.name,
          probability: phase.probability ?? 0,
          count: byPhase.get(phase.name)?.count ?? 0,
          total_value: fromCents(byPhase.get(phase.name)?.value_cents ?? 0) ?? 0,
          ...(byPhase.has(phase.name) ? await cards(teamId, phase.name, filters, 0, limit, people) : { items: [], has_more: false }),
        })),
      );
      return { columns };
    },

    async dealsColumn(teamId: string, phase: string, filters: DealBoardFilters, offset: number, limit: number) {
      return cards(teamId, phase, filters, offset, Math.min(limit, MAX_LIMIT), await peopleById(teamId));
    },

    async people(teamId: string): Promise<Person[]> {
      return (await listUsers(k, teamId)).map((u) => ({ id: u.id, name: u.name, role: u.role, active: u.deactivated_at === null }));
    },

    /**
     * The event types recorded for the team after the event `after` (oldest first, at most
     * CHANGES_LIMIT) and the cursor to send next time. Without `after`, or with an id the team does
     * not have, the cursor is the newest event and no types are answered.
     */
    async changes(teamId: string, after?: string): Promise<{ cursor: string | null; types: string[] }> {
      const from = after === undefined ? undefined : await findTeamEvent(k, teamId, after);
      if (!from) {
        const newest = await newestEvent(k, teamId);
        return { cursor: newest?.id ?? null, types: [] };
      }
      const events = await eventsAfter(k, teamId, from, CHANGES_LIMIT);
      return { cursor: events.at(-1)?.id ?? from.id, types: [...new Set(events.map((e) => e.type))] };
    },
  };
}

export type BoardsService = ReturnType<typeof createBoardsService>;
