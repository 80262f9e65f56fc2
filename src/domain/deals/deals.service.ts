import type { AiServing } from '../ai/ai-serving.service.js';
import type { DealFacts } from '../ai/serving.js';
import { AppError, checkAll, messages, notFound, validationError } from '../shared/errors.js';
import type { Db } from '../../storage/db.js';
import type { DbExecutor, Trx } from '../../storage/executor.js';
import type { DealUpdate } from '../../storage/database.js';
import { findClientRef } from '../clients/clients.repository.js';
import type { EventType } from '../events/event-types.js';
import { recordEvents } from '../events/events.repository.js';
import { canonicalId, newId } from '../shared/ids.js';
import { pageOf, paginationOf, parseSort, sameJson, type Pagination } from '../shared/list-query.js';
import { fromCents, lowerBoundCents, toCents, upperBoundCents } from '../shared/money.js';
import { foldText, searchDocument } from '../shared/text-search.js';
import { isoNow, type Clock } from '../shared/clock.js';
import type { WriteOptions } from '../shared/write-options.js';
import { dayBounds, toApiTimestamp } from '../shared/time.js';
import { findPhase, listPhases } from '../teams/teams.repository.js';
import { checkStoreId } from '../stores/store-check.js';
import { sellVehicleOfDeal, vehicleStatusOf } from '../vehicles/vehicles.service.js';
import { toDealView, type DealViewRow } from './deals.mapper.js';
import { DEALS } from './deals.resource.js';
import type { ReadPlanner } from '../reads/read-planner.repository.js';
import { teamScope } from '../reads/scope.js';
import * as createRepo from './deal-create.repository.js';
import * as repo from './deals.repository.js';
import {
  DEAL_SORT_FIELDS,
  DEAL_UPDATABLE,
  type DealArchiveResult,
  type DealCreateInput,
  type DealField,
  type DealListInput,
  type DealUpdateInput,
  type DealUpdateResult,
  type DealView,
  type DealWinInput,
  type DealWinResult,
  winMessages,
} from './deals.types.js';

const PRIORITY_RANK = { baixa: 1, media: 2, alta: 3 } as const;

function centsOf(value: number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const cents = toCents(value);
  if (cents === null) throw validationError("Campo 'value' deve ter no máximo duas casas decimais", 'value');
  return cents;
}

async function phaseOrThrow(db: DbExecutor, teamId: string, name: string) {
  const phase = await findPhase(db, teamId, name);
  // The message is the contract's; the team's phases go in a documented detail.
  if (!phase) throw validationError(messages.invalidPhase, 'phase', { allowed: (await listPhases(db, teamId)).map((p) => p.name) });
  return phase;
}

/** The client a deal names, of the same team; an id that is not a UUID names no client. */
async function clientOrThrow(db: DbExecutor, teamId: string, rawId: string) {
  const id = canonicalId(rawId);
  const client = id ? await findClientRef(db, teamId, id) : undefined;
  if (!client) throw validationError(messages.clientNotFound, 'client_id');
  return client;
}

/** The columns that hold each API attribute of a deal. */
function columnsFor(field: DealField, next: DealView): DealUpdate {
  switch (field) {
    case 'title':
    case 'description':
      return { title: next.title, title_key: foldText(next.title), description: next.description, search_text: searchDocument([next.title, next.description]) };
    case 'value':
      return { value_cents: centsOf(next.value) };
    case 'priority':
      return { priority: next.priority, priority_rank: PRIORITY_RANK[next.priority] };
    case 'tags':
      return { tags: JSON.stringify(next.tags) };
    case 'is_starred':
      return { is_starred: next.is_starred ? 1 : 0 };
    default:
      return { [field]: next[field] };
  }
}

/** The generic event first, then the specific ones (DECISIONS.md). */
function updateEvents(changed: readonly string[], next: DealView): EventType[] {
  const types: EventType[] = ['deal.updated'];
  if (changed.includes('phase')) types.push('deal.phase_changed');
  if (changed.includes('status') && next.status === 'ganho') types.push('deal.won');
  if (changed.includes('status') && next.status === 'perdido') types.push('deal.lost');
  return types;
}

/** A deal as the AI refresh reads it: its answer, when it was created and when it entered its phase. */
function factsOf(d: DealView, createdAt: string | Date, phaseChangedAt: string | Date): DealFacts {
  return {
    id: d.id,
    title: d.title,
    status: d.status,
    phase: d.phase,
    value_cents: centsOf(d.value),
    source: d.source,
    priority: d.priority,
    client_id: d.client_id,
    responsible_id: d.responsible_id,
    case_id: d.case_id,
    store_id: d.store_id,
    expected_close_date: d.expected_close_date,
    loss_reason: d.loss_reason,
    created_at: new Date(createdAt).getTime(),
    phase_changed_at: new Date(phaseChangedAt).getTime(),
  };
}

export interface DealsServiceDeps {
  clock: Clock;
  reads: ReadPlanner;
  /** Computes `ai_win_probability` and `ai_summary` with each write (absent: both stay null). */
  ai?: Pick<AiServing, 'fieldsFor'>;
}

export function createDealsService(db: Pick<Db, 'kysely'>, { clock, reads, ai }: DealsServiceDeps) {
  const k = db.kysely;

  /** Writers lock the row (PostgreSQL) so concurrent updates compute from the row they replace. */
  async function loadForUpdate(trx: Trx, teamId: string, rawId: string) {
    const id = canonicalId(rawId);
    const row = id ? await repo.findDealForChange(trx, teamId, id) : undefined;
    if (!row) throw notFound(messages.dealNotFound);
    return row;
  }

  /** A page of the list. */
  async function listRead(teamId: string, q: DealListInput) {
    const page = pageOf(q.page, q.limit);
    const sort = parseSort(q.sort, DEAL_SORT_FIELDS);
    const clientId = q.client_id === undefined ? undefined : canonicalId(q.client_id);
    // A client_id that is not a UUID names no client: nothing matches.
    if (clientId === null) return { data: [], pagination: paginationOf(page, 0) };
    const { rows, total } = await reads.list<DealViewRow>(DEALS, teamScope(teamId), {
      filters: {
        phase: q.phase,
        client_id: clientId,
        responsible_id: q.responsible_id,
        source: q.source,
        store_id: q.store_id,
        minCents: q.min_value === undefined ? undefined : lowerBoundCents(q.min_value),
        maxCents: q.max_value === undefined ? undefined : upperBoundCents(q.max_value),
        createdFrom: q.from === undefined ? undefined : dayBounds(q.from).start,
        createdBefore: q.to === undefined ? undefined : dayBounds(q.to).nextDayStart,
      },
      status: q.status,
      search: q.search,
      sort,
      page,
    });
    return { data: rows.map(toDealView), pagination: paginationOf(page, total) };
  }

  /** A create's checks, row and event, from one read of the phase, the client and the webhooks. */
  async function prepareCreate(executor: DbExecutor, teamId: string, input: DealCreateInput) {
    const phaseName = input.phase ?? 'lead';
    // A client_id that is not a UUID names no client (checked after the phase, as ever).
    const clientId = input.client_id != null ? canonicalId(input.client_id) : null;
    const caseId = input.case_id != null ? canonicalId(input.case_id) : null;
    const found = await createRepo.createLookup(executor, teamId, phaseName, clientId, caseId);
    let storeId: string | null = null;
    const checkStore = async () => void (storeId = await checkStoreId(executor, teamId, input.store_id ?? null));
    if (!found.phase || (input.client_id != null && !found.client)) {
      // Every invalid field at once; the message is the contract's, the team's phases go in a documented detail.
      await checkAll(
        async () => {
          if (!found.phase) throw validationError(messages.invalidPhase, 'phase', { allowed: (await listPhases(executor, teamId)).map((p) => p.name) });
        },
        () => {
          if (input.client_id != null && !found.client) throw validationError(messages.clientNotFound, 'client_id');
        },
        () => centsOf(input.value),
        checkStore,
      );
    } else await checkStore();
    const { client } = found;
    const phase = found.phase!;
    const now = isoNow(clock);
    const priority = input.priority ?? 'media';
    const row: createRepo.CreatedDealRow = {
      id: newId(),
      team_id: teamId,
      title: input.title,
      description: input.description ?? null,
      value_cents: centsOf(input.value),
      currency: 'BRL',
      phase: phase.name,
      priority,
      priority_rank: PRIORITY_RANK[priority],
      probability: input.probability ?? phase.probability,
      status: 'ativo',
      expected_close_date: input.expected_close_date ?? null,
      source: input.source ?? null,
      loss_reason: null,
      tags: JSON.stringify(input.tags ?? []),
      is_starred: 0,
      store_id: storeId,
      client_id: client?.id ?? null,
      responsible_id: input.responsible_id ?? null,
      case_id: input.case_id ?? null,
      search_text: searchDocument([input.title, input.description]),
      title_key: foldText(input.title),
      archived_at: null,
      created_at: now,
      updated_at: now,
      ai_win_probability: null,
      ai_summary: null,
      phase_changed_at: now,
    };
    if (ai && found.ai) {
      const fields = await ai.fieldsFor(executor, teamId, factsOf(toDealView({ ...row, client_name: null }), now, now), { context: found.ai, activities: [] });
      row.ai_win_probability = fields.ai_win_probability;
      row.ai_summary = fields.ai_summary;
    }
    const deal = toDealView({ ...row, client_name: client?.name ?? null });
    return { row, deal, now, hooks: found.hooks, events: [{ type: 'deal.created' as const, object: deal, previous: null }] };
  }

  /** A PUT's change inside the caller's transaction; `sold` is the car a win sold (its case_id, in stock). */
  async function applyUpdate(trx: Trx, teamId: string, rawId: string, body: DealUpdateInput, sent: readonly DealField[]) {
    const row = await loadForUpdate(trx, teamId, rawId);
    const current = toDealView(row);
    const next: DealView = { ...current };
    for (const field of sent) (next as unknown as Record<string, unknown>)[field] = body[field];
    await checkAll(
      // Compare and echo the value as it will be stored (whole cents).
      () => (next.value = fromCents(centsOf(next.value))),
      async () => {
        if (body.phase === undefined) return;
        const phase = await phaseOrThrow(trx, teamId, body.phase);
        // A phase move without an explicit probability takes the new phase's suggestion.
        if (body.probability === undefined && phase.name !== current.phase) next.probability = phase.probability;
      },
      async () => {
        if (body.client_id === undefined || body.client_id === current.client_id) return;
        next.client = body.client_id === null ? null : await clientOrThrow(trx, teamId, body.client_id);
        next.client_id = next.client?.id ?? null;
      },
      async () => {
        if (body.store_id === undefined || body.store_id === current.store_id) return;
        next.store_id = await checkStoreId(trx, teamId, body.store_id);
      },
    );
    const changed = DEAL_UPDATABLE.filter((f) => !sameJson(current[f], next[f]));
    if (changed.length === 0) return { deal: current, previous: {}, sold: null };

    const now = isoNow(clock);
    const patch: DealUpdate = { updated_at: now };
    for (const field of changed) Object.assign(patch, columnsFor(field, next));
    if (changed.includes('status')) patch.archived_at = next.status === 'arquivado' ? now : null;
    // A lead's first phase change answers it (response time), unless something answered it before.
    if (changed.includes('phase') && row.lead_received_at !== null && row.lead_responded_at === null) patch.lead_responded_at = now;
    if (changed.includes('phase')) patch.phase_changed_at = now;
    if (ai) {
      const since = patch.phase_changed_at ?? row.phase_changed_at ?? row.created_at;
      const fields = await ai.fieldsFor(trx, teamId, factsOf(next, row.created_at, since));
      Object.assign(patch, fields);
      Object.assign(next, fields);
    }
    await repo.updateDeal(trx, teamId, current.id, patch);
    next.updated_at = toApiTimestamp(now);
    const previous = Object.fromEntries(changed.map((f) => [f, current[f]])) as Partial<DealView>;
    if (changed.includes('client_id')) previous.client = current.client;
    await recordEvents(
      trx,
      teamId,
      updateEvents(changed, next).map((type) => ({ type, object: next, previous })),
      now,
    );
    // A won deal sells the in-stock vehicle its case_id names, in this transaction (after the deal's events).
    const sold =
      changed.includes('status') && next.status === 'ganho' && next.case_id !== null ? await sellVehicleOfDeal(trx, teamId, next.case_id, now) : null;
    return { deal: next, previous, sold };
  }

  return {
    async list(teamId: string, q: DealListInput): Promise<{ data: DealView[]; pagination: Pagination }> {
      const { data, pagination } = await listRead(teamId, q);
      return { data, pagination };
    },

    async get(teamId: string, rawId: string): Promise<DealView> {
      const id = canonicalId(rawId);
      const row = id ? (await reads.byId<DealViewRow>(DEALS, teamScope(teamId), id)).row : undefined;
      if (!row) throw notFound(messages.dealNotFound);
      return toDealView(row);
    },

    async create(teamId: string, input: DealCreateInput, options: WriteOptions<DealView> = {}): Promise<DealView> {
      const prepare = (executor: DbExecutor) => prepareCreate(executor, teamId, input);

      return createRepo.insertDealWithEvents(k, teamId, prepare, options.inTransaction);
    },

    /**
     * POST /deals inside the caller's transaction (a lead's): the same checks, row and `deal.created`.
     * `leadReceivedAt` marks the deal as a lead's, whose response time starts then.
     */
    async createIn(trx: Trx, teamId: string, input: DealCreateInput, { leadReceivedAt }: { leadReceivedAt?: string } = {}): Promise<DealView> {
      const { row, deal, now, hooks, events } = await prepareCreate(trx, teamId, input);
      await repo.insertDeal(trx, { ...row, lead_received_at: leadReceivedAt ?? null });
      await recordEvents(trx, teamId, events, now, hooks);
      return deal;
    },

    /** A deal read inside the caller's transaction, as GET answers it. */
    async findIn(trx: Trx, teamId: string, id: string): Promise<DealView> {
      const row = await repo.findDeal(trx, teamId, id);
      if (!row) throw notFound(messages.dealNotFound);
      return toDealView(row);
    },

    /** Applies a PUT; returns the deal after it, the earlier values of what changed, and the fields the body sent. */
    async update(teamId: string, rawId: string, body: DealUpdateInput): Promise<DealUpdateResult> {
      const sent = DEAL_UPDATABLE.filter((f) => body[f] !== undefined);
      if (sent.length === 0) throw validationError(messages.noFieldToUpdate);
      const { deal, previous } = await k.transaction().execute((trx) => applyUpdate(trx, teamId, rawId, body, sent));
      return { deal, previous, sent };
    },

    /**
     * The panel's win (DECISIONS: "Closing a deal in the panel"): an active deal becomes `ganho` at its
     * final value, its `case_id` set to the car sold, and that car (in stock) becomes `vendido` in the
     * same transaction, as a PUT that wins the deal would. Without a car, the deal is won alone.
     */
    async win(teamId: string, rawId: string, input: DealWinInput): Promise<DealWinResult> {
      return k.transaction().execute(async (trx) => {
        const current = await loadForUpdate(trx, teamId, rawId);
        if (current.status !== 'ativo') throw new AppError(422, 'VALIDATION_ERROR', winMessages.notActive, { field: 'status' });
        const vehicleId = input.vehicle_id === null ? null : canonicalId(input.vehicle_id);
        if (input.vehicle_id !== null && vehicleId === null) throw validationError(winMessages.vehicleNotFound, 'vehicle_id');
        const body: DealUpdateInput = { status: 'ganho', value: input.value, ...(vehicleId !== null && { case_id: vehicleId }) };
        const sent = DEAL_UPDATABLE.filter((f) => body[f] !== undefined);
        const { deal, sold } = await applyUpdate(trx, teamId, current.id, body, sent);
        if (vehicleId !== null && sold === null) {
          const found = await vehicleStatusOf(trx, teamId, vehicleId);
          if (found === undefined) throw validationError(winMessages.vehicleNotFound, 'vehicle_id');
          throw new AppError(422, 'VALIDATION_ERROR', winMessages.vehicleNotInStock, { field: 'vehicle_id' });
        }
        return { deal, vehicle: sold };
      });
    },

    /** DELETE: archives; deleting an archived deal again answers with its original archived_at. */
    async archive(teamId: string, rawId: string): Promise<DealArchiveResult> {
      return k.transaction().execute(async (trx) => {
        const row = await loadForUpdate(trx, teamId, rawId);
        const current = toDealView(row);
        if (row.status === 'arquivado') {
          return { deal: current, previous: {}, archivedAt: toApiTimestamp(row.archived_at ?? row.updated_at) };
        }
        const now = isoNow(clock);
        // An archived deal answers neither field (DECISIONS).
        await repo.updateDeal(trx, teamId, row.id, { status: 'arquivado', archived_at: now, updated_at: now, ai_win_probability: null, ai_summary: null });
        const deal: DealView = { ...current, status: 'arquivado', updated_at: toApiTimestamp(now), ai_win_probability: null, ai_summary: null };
        const previous = { status: current.status };
        await recordEvents(trx, teamId, [{ type: 'deal.updated', object: deal, previous }], now);
        return { deal, previous, archivedAt: toApiTimestamp(now) };
      });
    },
  };
}

export type DealsService = ReturnType<typeof createDealsService>;
