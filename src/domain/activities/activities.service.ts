import type { AiServing } from '../ai/ai-serving.service.js';
import type { Db } from '../../storage/db.js';
import type { Trx } from '../../storage/executor.js';
import type { ActivityRow, ActivityUpdate, NewActivityRow } from '../../storage/database.js';
import { recordEvents } from '../events/events.repository.js';
import { checkLinks, withLinkNames } from '../links/record-links.js';
import { activityArmings } from '../schedule/schedule.rules.js';
import { syncSchedule } from '../schedule/schedule.repository.js';
import { isoNow, type Clock } from '../shared/clock.js';
import { AppError, checkAll, messages, notFound, validationError } from '../shared/errors.js';
import { canonicalId, newId } from '../shared/ids.js';
import { pageOf, paginationOf, parseSort, type Pagination } from '../shared/list-query.js';
import { foldText, searchDocument } from '../shared/text-search.js';
import { dayBounds, toApiTimestamp } from '../shared/time.js';
import type { WriteOptions } from '../shared/write-options.js';
import { toActivityView } from './activities.mapper.js';
import { markLeadAnswered } from '../leads/lead-response.repository.js';
import * as repo from './activities.repository.js';
import { ACTIVITIES } from './activities.resource.js';
import type { ReadPlanner } from '../reads/read-planner.repository.js';
import { teamScope } from '../reads/scope.js';
import {
  ACTIVITY_SORT_FIELDS,
  ACTIVITY_UPDATABLE,
  type ActivityChange,
  type ActivityCreateInput,
  type ActivityListInput,
  type ActivityUpdateInput,
  type ActivityView,
} from './activities.types.js';

const PRIORITY_RANK = { baixa: 1, media: 2, alta: 3 } as const;

export const activityMessages = {
  dueAtRequired: "Campo 'due_at' é obrigatório (exceto para o tipo 'note')",
  dueAtInvalid: "Campo 'due_at' deve ser uma data e hora ISO 8601 com fuso (ex.: 2026-12-01T14:00:00Z)",
  cancelledCannotComplete: 'Atividade cancelada não pode ser concluída',
} as const;

/** A due time as stored (ISO with milliseconds, UTC); the schema already checked its form. */
function dueAtOf(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const at = new Date(raw);
  if (Number.isNaN(at.getTime()) || at.getUTCFullYear() < 1 || at.getUTCFullYear() > 9999) throw validationError(activityMessages.dueAtInvalid, 'due_at');
  return at.toISOString();
}

/** The later / earlier of two optional stored timestamps (same format, so compared as text). */
const latest = (a?: string, b?: string) => (a === undefined ? b : b === undefined ? a : a > b ? a : b);
const earliest = (a?: string, b?: string) => (a === undefined ? b : b === undefined ? a : a < b ? a : b);

export interface ActivitiesServiceDeps {
  clock: Clock;
  reads: ReadPlanner;
  /** Refreshes the linked deals' `ai_win_probability` and `ai_summary` (their contacts changed). */
  ai?: Pick<AiServing, 'refreshDeals'>;
}

export function createActivitiesService(db: Pick<Db, 'kysely'>, { clock, reads, ai }: ActivitiesServiceDeps) {
  const k = db.kysely;

  async function loadForUpdate(trx: Trx, teamId: string, rawId: string): Promise<ActivityRow> {
    const id = canonicalId(rawId);
    const row = id ? await repo.findActivityForChange(trx, teamId, id) : undefined;
    if (!row) throw notFound(messages.activityNotFound);
    return row;
  }

  /** Writes a change of an existing activity, its events and its schedule, in `trx`. */
  async function apply(
    trx: Trx,
    teamId: string,
    current: ActivityView,
    next: ActivityView,
    patch: ActivityUpdate,
    now: string,
    extraEvent?: 'activity.completed',
  ) {
    const changed = ACTIVITY_UPDATABLE.filter((f) => current[f] !== next[f]);
    if (changed.length === 0 && current.completed_at === next.completed_at) return { activity: current, previous: {} };
    next.updated_at = toApiTimestamp(now);
    await repo.updateActivity(trx, teamId, current.id, { ...patch, updated_at: now });
    const previous = Object.fromEntries(changed.map((f) => [f, current[f]])) as Partial<ActivityView>;
    if (current.completed_at !== next.completed_at) previous.completed_at = current.completed_at;
    if (extraEvent) await recordEvents(trx, teamId, [{ type: extraEvent, object: next, previous }], now);
    // A completed activity on a lead's deal answers the lead (response time), once.
    if (extraEvent === 'activity.completed' && next.deal_id !== null) await markLeadAnswered(trx, teamId, next.deal_id, now);
    await ai?.refreshDeals(trx, teamId, [current.deal_id, next.deal_id]);
    await syncSchedule(trx, teamId, 'activity', current.id, activityArmings(next, clock.now()), now);
    return { activity: next, previous };
  }

  async function createIn(trx: Trx, teamId: string, input: ActivityCreateInput): Promise<ActivityView> {
    let dueAt: string | null = null;
    let links: Awaited<ReturnType<typeof checkLinks>> = {};
    await checkAll(
      () => {
        dueAt = dueAtOf(input.due_at);
        if (dueAt === null && input.type !== 'note') throw validationError(activityMessages.dueAtRequired, 'due_at');
      },
      async () => (links = await checkLinks(trx, teamId, input)),
    );
    const now = isoNow(clock);
    const priority = input.priority ?? 'media';
    const row: NewActivityRow = {
      id: newId(),
      team_id: teamId,
      type: input.type,
      title: input.title,
      description: input.description ?? null,
      status: 'pending',
      priority,
      priority_rank: PRIORITY_RANK[priority],
      due_at: dueAt,
      deal_id: links.deal_id ?? null,
      client_id: links.client_id ?? null,
      vehicle_id: links.vehicle_id ?? null,
      responsible_id: input.responsible_id ?? null,
      completed_at: null,
      cancelled_at: null,
      title_key: foldText(input.title),
      search_text: searchDocument([input.title, input.description]),
      created_at: now,
      updated_at: now,
    };
    await repo.insertActivity(trx, row);
    await ai?.refreshDeals(trx, teamId, [row.deal_id]);
    const activity = toActivityView(row as ActivityRow);
    await recordEvents(trx, teamId, [{ type: 'activity.created', object: activity, previous: null }], now);
    await syncSchedule(trx, teamId, 'activity', activity.id, activityArmings(activity, clock.now()), now);
    return activity;
  }

  return {
    /** The activities with their linked deal, client and vehicle by name (the agenda's rows). */
    named: (teamId: string, list: ActivityView[]) => withLinkNames(k, teamId, list),

    /** `dueFrom` / `dueBefore` (instants, e.g. the panel's day in the team's time zone) narrow the due window further. */
    async list(
      teamId: string,
      q: ActivityListInput,
      options: { overdue?: boolean; dueFrom?: string; dueBefore?: string } = {},
    ): Promise<{ data: ActivityView[]; pagination: Pagination }> {
      const page = pageOf(q.page, q.limit);
      const sort = parseSort(q.sort ?? (options.overdue ? 'due_at' : undefined), ACTIVITY_SORT_FIELDS);
      const ids = { deal_id: q.deal_id, client_id: q.client_id, vehicle_id: q.vehicle_id };
      const canon: Record<string, string | undefined> = {};
      for (const [field, raw] of Object.entries(ids)) {
        if (raw === undefined) continue;
        const id = canonicalId(raw);
        // An id that is not a UUID names no record: nothing matches.
        if (id === null) return { data: [], pagination: paginationOf(page, 0) };
        canon[field] = id;
      }
      const { rows, total } = await reads.list<ActivityRow>(ACTIVITIES, teamScope(teamId), {
        filters: {
          overdueAt: options.overdue ? isoNow(clock) : undefined,
          type: q.type,
          priority: q.priority,
          ...canon,
          responsible_id: q.responsible_id,
          dueFrom: latest(q.due_from === undefined ? undefined : dayBounds(q.due_from).start, options.dueFrom),
          dueBefore: earliest(q.due_to === undefined ? undefined : dayBounds(q.due_to).nextDayStart, options.dueBefore),
        },
        status: q.status,
        search: q.search,
        sort,
        page,
      });
      return { data: rows.map(toActivityView), pagination: paginationOf(page, total) };
    },

    async get(teamId: string, rawId: string): Promise<ActivityView> {
      const id = canonicalId(rawId);
      const row = id ? (await reads.byId<ActivityRow>(ACTIVITIES, teamScope(teamId), id)).row : undefined;
      if (!row) throw notFound(messages.activityNotFound);
      return toActivityView(row);
    },

    async create(teamId: string, input: ActivityCreateInput, options: WriteOptions<ActivityView> = {}): Promise<ActivityView> {
      return k.transaction().execute(async (trx) => {
        const activity = await createIn(trx, teamId, input);
        await options.inTransaction?.(trx, activity);
        return activity;
      });
    },

    /** POST /activities inside the caller's transaction (a lead's): the same checks, row, event and schedule. */
    createIn: (trx: Trx, teamId: string, input: ActivityCreateInput): Promise<ActivityView> => createIn(trx, teamId, input),

    /**
     * PUT: any subset of the fields. `status` moves between `pending` and `in_progress`, and reopens a
     * completed or cancelled activity; `completed` completes (as PUT /complete) and `cancelled` cancels
     * (as DELETE). Moving `due_at` re-arms its time-driven events. No event of its own: the contract
     * has no `activity.updated`.
     */
    async update(teamId: string, rawId: string, body: ActivityUpdateInput): Promise<ActivityChange & { sent: string[] }> {
      const sent = ACTIVITY_UPDATABLE.filter((f) => body[f] !== undefined);
      if (sent.length === 0) throw validationError(messages.noFieldToUpdate);
      const dueAt = body.due_at === undefined ? undefined : dueAtOf(body.due_at);
      const change = await k.transaction().execute(async (trx) => {
        const row = await loadForUpdate(trx, teamId, rawId);
        const current = toActivityView(row);
        const next: ActivityView = { ...current };
        const now = isoNow(clock);
        const patch: ActivityUpdate = {};
        if (body.type !== undefined) next.type = patch.type = body.type;
        if (body.title !== undefined) next.title = body.title;
        if (body.description !== undefined) next.description = body.description;
        if (body.title !== undefined || body.description !== undefined) {
          Object.assign(patch, {
            title: next.title,
            description: next.description,
            title_key: foldText(next.title),
            search_text: searchDocument([next.title, next.description]),
          });
        }
        if (body.priority !== undefined) {
          next.priority = patch.priority = body.priority;
          patch.priority_rank = PRIORITY_RANK[body.priority];
        }
        if (dueAt !== undefined) {
          next.due_at = dueAt === null ? null : toApiTimestamp(dueAt);
          patch.due_at = dueAt;
        }
        if (next.due_at === null && next.type !== 'note') throw validationError(activityMessages.dueAtRequired, 'due_at');
        if (body.responsible_id !== undefined) next.responsible_id = patch.responsible_id = body.responsible_id;
        const links = await checkLinks(trx, teamId, body);
        for (const [field, id] of Object.entries(links)) {
          (next as unknown as Record<string, unknown>)[field] = id;
          (patch as Record<string, unknown>)[field] = id;
        }
        let extra: 'activity.completed' | undefined;
        if (body.status !== undefined && body.status !== current.status) {
          if (body.status === 'completed') {
            if (current.status === 'cancelled') throw new AppError(422, 'VALIDATION_ERROR', activityMessages.cancelledCannotComplete, { field: 'status' });
            next.completed_at = toApiTimestamp(now);
            patch.completed_at = now;
            extra = 'activity.completed';
          } else {
            next.completed_at = null;
            patch.completed_at = null;
          }
          patch.cancelled_at = body.status === 'cancelled' ? now : null;
          next.status = patch.status = body.status;
        }
        return apply(trx, teamId, current, next, patch, now, extra);
      });
      return { ...change, sent };
    },

    /** PUT /activities/:id/complete. Completing a completed activity answers it as it is (no second event); a cancelled one cannot (422). */
    async complete(teamId: string, rawId: string): Promise<ActivityChange> {
      return k.transaction().execute(async (trx) => {
        const current = toActivityView(await loadForUpdate(trx, teamId, rawId));
        if (current.status === 'cancelled') throw new AppError(422, 'VALIDATION_ERROR', activityMessages.cancelledCannotComplete);
        if (current.status === 'completed') return { activity: current, previous: {} };
        const now = isoNow(clock);
        const next: ActivityView = { ...current, status: 'completed', completed_at: toApiTimestamp(now) };
        return apply(trx, teamId, current, next, { status: 'completed', completed_at: now, cancelled_at: null }, now, 'activity.completed');
      });
    },

    /** DELETE: cancels (kept, listed only with status=cancelled). Cancelling again changes nothing. */
    async cancel(teamId: string, rawId: string): Promise<ActivityChange> {
      return k.transaction().execute(async (trx) => {
        const current = toActivityView(await loadForUpdate(trx, teamId, rawId));
        if (current.status === 'cancelled') return { activity: current, previous: {} };
        const now = isoNow(clock);
        const next: ActivityView = { ...current, status: 'cancelled', completed_at: null };
        return apply(trx, teamId, current, next, { status: 'cancelled', cancelled_at: now, completed_at: null }, now);
      });
    },
  };
}

export type ActivitiesService = ReturnType<typeof createActivitiesService>;
