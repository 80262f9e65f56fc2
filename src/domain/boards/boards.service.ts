import { weightedPipeline } from '../ai/serving.repository.js';
import type { Db } from '../../storage/db.js';
import { toApiTimestamp } from '../shared/time.js';
import {
  activeDealsBoard,
  boardColumnCards,
  boardColumnsCards,
  type ActiveDealsBoard,
  boardDealTotals,
  type DealCardRow,
} from '../deals/deals-board.repository.js';
import { dealTotalsChangedBetween, type DealFilters } from '../deals/deals.repository.js';
import { teamScope } from '../reads/scope.js';
import { countOverdueActivities } from '../activities/activities.repository.js';
import { overdueReceivables } from '../financial/financial.repository.js';
import { eventsAfter, findTeamEvent, newestEvent } from '../events/events.repository.js';
import { listDealPhases, listDealPhasesWithTotals, listVehiclePhases, listVehiclePhasesWithTotals } from '../phases/phases.repository.js';
import { foldText } from '../shared/text-search.js';
import {
  boardColumnCards as boardColumnVehicleCards,
  activeVehiclesBoard,
  boardColumnsCards as boardColumnsVehicleCards,
  type ActiveVehiclesBoard,
  boardVehicleCounts,
  type VehicleCardRow,
} from '../vehicles/vehicles-board.repository.js';
import { stockAge, type VehicleFilters } from '../vehicles/vehicles.repository.js';
import { isoNow, type Clock } from '../shared/clock.js';
import { MAX_LIMIT } from '../shared/list-query.js';
import { onlyActiveFilter } from '../shared/list-sql.js';
import { fromCents } from '../shared/money.js';
import { listUsers } from '../users/users.repository.js';
import { findTeam } from '../teams/teams.repository.js';
import { DEFAULT_TIME_ZONE, dayIn, startOfDay } from '../shared/time-zone.js';
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
  /** The deal's win probability (issue 28), null without a model. */
  ai_win_probability: number | null;
  updated_at: string;
}

export interface DealColumn {
  phase: string;
  label: string;
  probability: number;
  count: number;
  total_value: number;
  items: DealCard[];
  has_more: boolean;
}

export interface VehicleBoardFilters {
  /** `ativo` (in stock) unless told: `vendido` or `arquivado` show the sold or archived vehicles by phase. */
  status?: 'ativo' | 'vendido' | 'arquivado';
  search?: string;
  brand?: string;
  store_id?: string;
}

export interface VehicleCard {
  id: string;
  title: string;
  brand: string;
  model: string;
  price: number | null;
  plate: string | null;
  model_year: number | null;
  mileage: number | null;
  phase: string;
  status: string;
  days_in_stock: number;
  created_at: string;
}

export interface VehicleColumn {
  phase: string;
  label: string;
  count: number;
  items: VehicleCard[];
  has_more: boolean;
}

const DAY_MS = 86_400_000;

/** Whole days since the vehicle entered the stock (its creation), as of `now`. */
export const daysInStock = (createdAt: string, now: Date): number => Math.max(0, Math.floor((now.getTime() - new Date(createdAt).getTime()) / DAY_MS));

export interface Dashboard {
  pipeline: Array<{ phase: string; count: number; total_value: number }>;
  won_this_month: { count: number; value: number };
  lost_this_month: { count: number; value: number };
  /** Percent of the deals closed this month (won + lost) that were won, one decimal; null when none closed. */
  conversion_rate: number | null;
  stock: Array<{ phase: string; count: number }>;
  average_days_in_stock: number | null;
  overdue_activities: number;
  overdue_receivables: { count: number; amount: number };
  /** `ativo` deals per month of expected close (YYYY-MM; null: none set), oldest first: value and value × win probability. */
  weighted_pipeline: Array<{ month: string | null; count: number; total_value: number; weighted_value: number }>;
}

/** The first day of the month of `day` and of the month after it (YYYY-MM-DD). */
function monthOf(day: string): { first: string; next: string } {
  const [year, month] = day.split('-').map(Number) as [number, number];
  const next = month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
  return { first: `${day.slice(0, 7)}-01`, next };
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
export function createBoardsService(db: Pick<Db, 'kysely' | 'reads'>, { clock }: { clock: Clock }) {
  const k = db.kysely;
  /** The boards' card reads can be long on a large team: on SQLite they run on a read worker (storage/read-workers.ts). */
  const longReads = db.reads;
  const dealFilters = (f: DealBoardFilters): DealFilters => ({ ...f, status: 'ativo' });

  /** A deals board card from its row (boardCardQuery: client, responsible's name and overdue mark in the same row), as toDealView maps the same columns. */
  const toCard = (row: DealCardRow): DealCard => ({
    id: row.id,
    title: row.title,
    value: fromCents(row.value_cents),
    currency: 'BRL',
    priority: row.priority,
    phase: row.phase,
    status: row.status,
    client: row.client_id && row.client_name !== null ? { id: row.client_id, name: row.client_name } : null,
    // An integrator may name a responsible that is not one of the team's people: shown by its id.
    responsible: row.responsible_id === null ? null : { id: row.responsible_id, name: row.responsible_name ?? row.responsible_id },
    has_overdue_activity: Boolean(row.has_overdue_activity),
    ai_win_probability: row.ai_win_probability,
    updated_at: toApiTimestamp(row.updated_at),
  });

  /** A page read with one row more than shown: its cards and whether more follow. */
  const cardPage = (rows: DealCardRow[], limit: number) => ({ has_more: rows.length > limit, items: rows.slice(0, limit).map(toCard) });

  const vehicleFilters = (f: VehicleBoardFilters): VehicleFilters => ({
    status: f.status ?? 'ativo',
    search: f.search,
    store_id: f.store_id,
    brandKey: f.brand === undefined ? undefined : foldText(f.brand),
  });

  /** A vehicle board card from its row, as toVehicleView maps the same columns. */
  const toVehicleCard = (row: VehicleCardRow, now: Date): VehicleCard => {
    const createdAt = toApiTimestamp(row.created_at);
    return {
      id: row.id,
      title: row.title,
      brand: row.brand,
      model: row.model,
      price: fromCents(row.price_cents === null ? null : Number(row.price_cents)),
      plate: row.plate,
      model_year: row.model_year,
      mileage: row.mileage,
      phase: row.phase,
      status: row.status,
      days_in_stock: daysInStock(createdAt, now),
      created_at: createdAt,
    };
  };

  /** A page read with one row more than shown: its cards and whether more follow. */
  const vehiclePage = (rows: VehicleCardRow[], limit: number, now: Date) => ({
    items: rows.slice(0, limit).map((row) => toVehicleCard(row, now)),
    has_more: rows.length > limit,
  });

  /** A board with filters beyond its own: the phases, the filtered totals, then every column with cards in one statement. */
  const filteredDealsBoard = async (teamId: string, filters: DealBoardFilters, limit: number): Promise<ActiveDealsBoard> => {
    const [phases, totals] = await Promise.all([listDealPhases(k, teamId), boardDealTotals(longReads, teamScope(teamId), dealFilters(filters))]);
    const byPhase = new Map(totals.map((t) => [t.phase, t]));
    const withTotals = phases.map((p) => ({ ...p, count: byPhase.get(p.name)?.count ?? 0, total: byPhase.get(p.name)?.value_cents ?? 0 }));
    const read = withTotals.filter((p) => p.count !== 0).map((p) => p.name);
    return { phases: withTotals, cards: await boardColumnsCards(longReads, teamScope(teamId), read, dealFilters(filters), limit, isoNow(clock)) };
  };

  /** A vehicle board with filters beyond its own: the phases, the filtered counts, then every column with cards in one statement. */
  const filteredVehiclesBoard = async (teamId: string, filters: VehicleBoardFilters, limit: number): Promise<ActiveVehiclesBoard> => {
    const [phases, counts] = await Promise.all([listVehiclePhases(k, teamId), boardVehicleCounts(longReads, teamScope(teamId), vehicleFilters(filters))]);
    const byPhase = new Map(counts.map((c) => [c.phase, c.count]));
    const withCounts = phases.map((p) => ({ ...p, count: byPhase.get(p.name) ?? 0, total: 0 }));
    const read = withCounts.filter((p) => p.count !== 0).map((p) => p.name);
    return { phases: withCounts, cards: await boardColumnsVehicleCards(longReads, teamScope(teamId), read, vehicleFilters(filters), limit) };
  };

  return {
    /** The service clock's now (the panel's today, overdue and due-soon marks). */
    now: (): Date => clock.now(),

    /** The team's time zone (its days: today's agenda, overdue records). */
    async timeZone(teamId: string): Promise<string> {
      return (await findTeam(k, teamId))?.time_zone ?? DEFAULT_TIME_ZONE;
    },

    async vehiclesBoard(teamId: string, filters: VehicleBoardFilters, perColumn: number): Promise<{ columns: VehicleColumn[] }> {
      const limit = Math.min(perColumn, MAX_LIMIT);
      const { phases, cards } = onlyActiveFilter(vehicleFilters(filters))
        ? await activeVehiclesBoard(longReads, teamScope(teamId), limit + 1)
        : await filteredVehiclesBoard(teamId, filters, limit + 1);
      // Each card's phase is its column's (every column is read with phase = its name).
      const rowsOf = new Map<string, VehicleCardRow[]>(phases.map((phase) => [phase.name, []]));
      for (const row of cards) rowsOf.get(row.phase)!.push(row);
      const now = clock.now();
      const columns = phases.map((phase) => ({
        phase: phase.name,
        label: phase.label,
        count: phase.count,
        ...vehiclePage(rowsOf.get(phase.name)!, limit, now),
      }));
      return { columns };
    },

    async vehiclesColumn(teamId: string, phase: string, filters: VehicleBoardFilters, offset: number, limit: number) {
      const shown = Math.min(limit, MAX_LIMIT);
      return vehiclePage(await boardColumnVehicleCards(longReads, teamScope(teamId), phase, vehicleFilters(filters), offset, shown + 1), shown, clock.now());
    },

    async dealsBoard(teamId: string, filters: DealBoardFilters, perColumn: number): Promise<{ columns: DealColumn[] }> {
      const limit = Math.min(perColumn, MAX_LIMIT);
      const { phases, cards } = onlyActiveFilter(dealFilters(filters))
        ? await activeDealsBoard(longReads, teamScope(teamId), limit + 1, isoNow(clock))
        : await filteredDealsBoard(teamId, filters, limit + 1);
      // Each card's phase is its column's (every column is read with phase = its name).
      const rowsOf = new Map<string, DealCardRow[]>(phases.map((phase) => [phase.name, []]));
      for (const row of cards) rowsOf.get(row.phase)!.push(row);
      const columns = phases.map((phase) => ({
        phase: phase.name,
        label: phase.label,
        probability: phase.probability ?? 0,
        count: phase.count,
        total_value: fromCents(phase.total) ?? 0,
        ...cardPage(rowsOf.get(phase.name)!, limit),
      }));
      return { columns };
    },

    async dealsColumn(teamId: string, phase: string, filters: DealBoardFilters, offset: number, limit: number) {
      const shown = Math.min(limit, MAX_LIMIT);
      return cardPage(await boardColumnCards(longReads, teamScope(teamId), phase, dealFilters(filters), offset, shown + 1, isoNow(clock)), shown);
    },

    /**
     * The home page's figures, each one indexed read: the pipeline (ativo deals per phase), deals won
     * and lost this month (in the team's time zone; a deal counts in the month of its last change,
     * as no closing date is stored), the conversion rate, the stock per phase and its mean age,
     * overdue activities and receivables.
     */
    async dashboard(teamId: string): Promise<Dashboard> {
      const now = clock.now();
      const zone = (await findTeam(k, teamId))?.time_zone ?? DEFAULT_TIME_ZONE;
      const month = monthOf(dayIn(now, zone));
      const nowIso = now.toISOString();
      const [phases, closed, vehiclePhases, age, overdueActivities, receivables, weighted] = await Promise.all([
        listDealPhasesWithTotals(k, teamId),
        dealTotalsChangedBetween(k, teamId, ['ganho', 'perdido'], startOfDay(month.first, zone).toISOString(), startOfDay(month.next, zone).toISOString()),
        listVehiclePhasesWithTotals(k, teamId),
        stockAge(k, teamId),
        countOverdueActivities(k, teamId, nowIso),
        overdueReceivables(k, teamId, nowIso),
        weightedPipeline(k, teamId),
      ]);
      const closedOf = (status: string) => {
        const row = closed.find((c) => c.status === status);
        return { count: row?.count ?? 0, value: fromCents(row?.value_cents ?? 0) ?? 0 };
      };
      const won = closedOf('ganho');
      const lost = closedOf('perdido');
      return {
        pipeline: phases.map((p) => ({ phase: p.name, count: p.count, total_value: fromCents(p.total) ?? 0 })),
        won_this_month: won,
        lost_this_month: lost,
        conversion_rate: won.count + lost.count === 0 ? null : Math.round((1000 * won.count) / (won.count + lost.count)) / 10,
        stock: vehiclePhases.map((p) => ({ phase: p.name, count: p.count })),
        average_days_in_stock: age.meanCreatedMs === null ? null : Math.round((10 * Math.max(0, now.getTime() - age.meanCreatedMs)) / DAY_MS) / 10,
        overdue_activities: overdueActivities,
        overdue_receivables: { count: receivables.count, amount: fromCents(receivables.amount_cents) ?? 0 },
        weighted_pipeline: weighted.map((w) => ({
          month: w.month,
          count: w.count,
          total_value: fromCents(w.value_cents) ?? 0,
          weighted_value: fromCents(w.weighted_cents) ?? 0,
        })),
      };
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
