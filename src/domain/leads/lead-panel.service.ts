import type { Db } from '../../storage/db.js';
import type { DealFilters } from '../deals/deals.repository.js';
import { teamScope } from '../reads/scope.js';
import { isoNow, type Clock } from '../shared/clock.js';
import { notFound, validationError } from '../shared/errors.js';
import { canonicalId } from '../shared/ids.js';
import { fromCents } from '../shared/money.js';
import { toApiTimestamp } from '../shared/time.js';
import { DEFAULT_TIME_ZONE, dayIn, nextDay, startOfDay } from '../shared/time-zone.js';
import { findTeam } from '../teams/teams.repository.js';
import { readLeadSettings } from './lead-distribution.js';
import * as reads from './lead-reads.repository.js';
import type { LeadNotices, LeadPeriod, LeadResponseStats, SellerLeadStats, WaitingLeads } from './leads.types.js';

export const leadPanelMessages = {
  noticeNotFound: 'Lead não encontrado',
  periodInvalid: 'Período inválido: a data inicial deve ser anterior ou igual à final',
} as const;

/** The board shows at most this many waiting leads above its columns (the oldest first). */
export const MAX_WAITING_LEADS = 50;
export const MAX_NOTICES = 20;
const MINUTE_MS = 60_000;

const minutesBetween = (from: Date | string, to: Date | string): number => (new Date(to).getTime() - new Date(from).getTime()) / MINUTE_MS;
const oneDecimal = (n: number): number => Math.round(n * 10) / 10;

/** The median of a non-empty list. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The board's filters as the panel sends them ('' for none). */
export interface WaitingLeadFilters {
  responsible_id?: string;
  source?: string;
  search?: string;
  store_id?: string;
}

/**
 * What the panel shows of leads (DECISIONS.md, Leads; response time): the untouched leads on top of
 * the board with their waiting time by the server's clock, a person's unseen lead notices, and each
 * seller's response times for a period. Reads only; the response time is stamped by the writes
 * (deals and activities services).
 */
export function createLeadPanelService(db: Pick<Db, 'kysely'>, { clock }: { clock: Clock }) {
  const k = db.kysely;

  return {
    /** The `ativo` lead deals nobody answered yet, oldest first, with minutes waiting and whether past the team's target. */
    async waiting(teamId: string, f: WaitingLeadFilters = {}): Promise<WaitingLeads> {
      const settings = await readLeadSettings(k, teamId);
      const filters: DealFilters = {};
      for (const name of ['responsible_id', 'source', 'search', 'store_id'] as const) {
        const value = f[name]?.trim();
        if (value) filters[name] = value;
      }
      const rows = await reads.waitingLeadDeals(k, teamScope(teamId), filters, MAX_WAITING_LEADS);
      const now = clock.now();
      return {
        response_minutes: settings.response_minutes,
        items: rows.map((r) => {
          const waiting = Math.max(0, Math.floor(minutesBetween(r.lead_received_at, now)));
          return {
            deal_id: r.id,
            title: r.title,
            value: fromCents(r.value_cents === null ? null : Number(r.value_cents)),
            phase: r.phase,
            client: r.client_id && r.client_name !== null ? { id: r.client_id, name: r.client_name } : null,
            responsible: r.responsible_id === null ? null : { id: r.responsible_id, name: r.responsible_name ?? r.responsible_id },
            received_at: toApiTimestamp(r.lead_received_at),
            waiting_minutes: waiting,
            late: waiting >= settings.response_minutes,
          };
        }),
      };
    },

    /** The leads assigned to this person that they have not opened yet: how many, and the newest. */
    async notices(teamId: string, userId: string): Promise<LeadNotices> {
      const [count, rows] = await Promise.all([reads.countUnseenLeads(k, teamId, userId), reads.unseenLeads(k, teamId, userId, MAX_NOTICES)]);
      const now = clock.now();
      return {
        count,
        items: rows.map((r) => ({
          id: r.id,
          deal_id: r.deal_id,
          title: r.deal_title,
          client_name: r.client_name,
          source: r.source === '' ? null : r.source,
          received_at: toApiTimestamp(r.received_at),
          waiting_minutes: Math.max(0, Math.floor(minutesBetween(r.received_at, now))),
        })),
      };
    },

    /** Opening a lead notice marks it seen (the first time stays). Another person's lead is not found. */
    async markSeen(teamId: string, userId: string, rawLeadId: string): Promise<void> {
      const id = canonicalId(rawLeadId);
      if (!id || !(await reads.markLeadSeen(k, teamId, userId, id, isoNow(clock)))) throw notFound(leadPanelMessages.noticeNotFound);
    },

    /**
     * Per responsible, the leads received in the period (days in the team's time zone, both included;
     * this month by default), how many were answered, the median response time and the share answered
     * within the target. The share counts the leads whose outcome is known: answered, or still waiting
     * past the target (one waiting within it may still make it).
     */
    async responseStats(teamId: string, period: Partial<LeadPeriod> = {}): Promise<LeadResponseStats> {
      const team = await findTeam(k, teamId);
      const zone = team?.time_zone ?? DEFAULT_TIME_ZONE;
      const now = clock.now();
      const today = dayIn(now, zone);
      const from = period.from ?? `${today.slice(0, 7)}-01`;
      const to = period.to ?? today;
      if (from > to) throw validationError(leadPanelMessages.periodInvalid, 'from');
      const target = (await readLeadSettings(k, teamId)).response_minutes;
      const rows = await reads.leadResponses(k, teamScope(teamId), startOfDay(from, zone).toISOString(), startOfDay(nextDay(to), zone).toISOString());
      const bySeller = new Map<string, { name: string | null; id: string | null; received: number; answered: number[]; late: number }>();
      for (const r of rows) {
        const key = r.responsible_id ?? '';
        const s = bySeller.get(key) ?? {
          id: r.responsible_id,
          name: r.responsible_id === null ? null : (r.responsible_name ?? r.responsible_id),
          received: 0,
          answered: [],
          late: 0,
        };
        s.received++;
        if (r.lead_responded_at !== null) s.answered.push(Math.max(0, minutesBetween(r.lead_received_at, r.lead_responded_at)));
        else if (minutesBetween(r.lead_received_at, now) >= target) s.late++;
        bySeller.set(key, s);
      }
      const sellers: SellerLeadStats[] = [...bySeller.values()].map((s) => {
        const within = s.answered.filter((m) => m <= target).length;
        const known = s.answered.length + s.late;
        return {
          responsible: s.id === null ? null : { id: s.id, name: s.name ?? s.id },
          received: s.received,
          answered: s.answered.length,
          answered_within_target: within,
          median_response_minutes: s.answered.length ? oneDecimal(median(s.answered)) : null,
          within_target_rate: known ? oneDecimal((100 * within) / known) : null,
        };
      });
      sellers.sort((a, b) => b.received - a.received || (a.responsible?.name ?? '\uffff').localeCompare(b.responsible?.name ?? '\uffff', 'pt-BR'));
      return { from, to, response_minutes: target, sellers };
    },
  };
}

export type LeadPanelService = ReturnType<typeof createLeadPanelService>;
