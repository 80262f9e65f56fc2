import type { Db } from '../../storage/db.js';
import type { Trx } from '../../storage/executor.js';
import type { FinancialRow, FinancialUpdate, NewFinancialRow } from '../../storage/database.js';
import type { EventType } from '../events/event-types.js';
import { recordEvents } from '../events/events.repository.js';
import { checkLinks } from '../links/record-links.js';
import { financialArmings } from '../schedule/schedule.rules.js';
import { syncSchedule } from '../schedule/schedule.repository.js';
import { isoNow, type Clock } from '../shared/clock.js';
import { AppError, checkAll, messages, notFound, validationError } from '../shared/errors.js';
import { canonicalId, newId } from '../shared/ids.js';
import { pageOf, paginationOf, parseSort, type Pagination } from '../shared/list-query.js';
import { fromCents, toCents } from '../shared/money.js';
import { searchDocument } from '../shared/text-search.js';
import { toApiTimestamp } from '../shared/time.js';
import { dayIn, endOfDay, isTimeZone } from '../shared/time-zone.js';
import { updateTeamTimeZone } from '../teams/teams.repository.js';
import type { WriteOptions } from '../shared/write-options.js';
import { toFinancialView } from './financial.mapper.js';
import * as repo from './financial.repository.js';
import { FINANCIAL_RECORDS } from './financial.resource.js';
import type { ReadPlanner } from '../reads/read-planner.repository.js';
import { teamScope } from '../reads/scope.js';
import {
  FINANCIAL_CATEGORIES,
  FINANCIAL_SORT_FIELDS,
  FINANCIAL_UPDATABLE,
  VEHICLE_SALE_CATEGORY,
  type FinancialChange,
  type FinancialCreateInput,
  type FinancialListInput,
  type FinancialPayInput,
  type DirectionTotals,
  type FinancialSummary,
  type FinancialCategory,
  type FinancialType,
  type FinancialUpdateInput,
  type FinancialView,
} from './financial.types.js';

export const financialMessages = {
  amountPositive: "Campo 'amount' deve ser maior que zero",
  amountCents: "Campo 'amount' deve ter no máximo duas casas decimais",
  categoryOfType: (type: FinancialType) => `Categoria inválida para o tipo '${type}'. Use: ${FINANCIAL_CATEGORIES[type].join(', ')}`,
  paymentMethodRequired: "Campo 'payment_method' é obrigatório para marcar como pago",
  paidAtInvalid: "Campo 'paid_at' deve ser uma data e hora ISO 8601 com fuso (ex.: 2026-12-01T14:00:00Z)",
  createCancelled: "Um registro novo não pode nascer cancelado: 'status' aceita pending ou paid",
  paidAtOnlyPaid: "Campo 'paid_at' só pode ser enviado para marcar como pago (status 'paid')",
  cancelledCannotPay: 'Registro financeiro cancelado não pode ser pago',
  timeZoneInvalid: (zone: string) => `Fuso horário desconhecido: '${zone}' (use um nome IANA, ex.: America/Sao_Paulo)`,
  periodOrder: "Parâmetro 'from' deve ser anterior ou igual a 'to'",
} as const;

function centsOf(amount: number): number {
  if (!(amount > 0)) throw validationError(financialMessages.amountPositive, 'amount');
  const cents = toCents(amount);
  if (cents === null) throw validationError(financialMessages.amountCents, 'amount');
  return cents;
}

function checkCategory(type: FinancialType, category: string): void {
  if (!(FINANCIAL_CATEGORIES[type] as readonly string[]).includes(category)) {
    throw validationError(financialMessages.categoryOfType(type), 'category', { allowed: [...FINANCIAL_CATEGORIES[type]] });
  }
}

function paidAtOf(raw: string | null | undefined, now: string): string {
  if (raw === null || raw === undefined) return now;
  const at = new Date(raw);
  if (Number.isNaN(at.getTime()) || at.getUTCFullYear() < 1 || at.getUTCFullYear() > 9999) throw validationError(financialMessages.paidAtInvalid, 'paid_at');
  return at.toISOString();
}

/** `{ paid: [n, cents] }` → `{ paid: { count, amount } }`. */
function counted(buckets: Record<string, [number, number]>, money: (cents: number) => number): Record<string, { count: number; amount: number }> {
  return Object.fromEntries(Object.entries(buckets).map(([s, [n, cents]]) => [s, { count: n, amount: money(cents) }]));
}

export function createFinancialService(db: Pick<Db, 'kysely'>, { clock, reads }: { clock: Clock; reads: ReadPlanner }) {
  const k = db.kysely;

  async function loadForUpdate(trx: Trx, teamId: string, rawId: string): Promise<FinancialRow> {
    const id = canonicalId(rawId);
    const row = id ? await repo.findFinancialForChange(trx, teamId, id) : undefined;
    if (!row) throw notFound(messages.financialNotFound);
    return row;
  }

  /** Writes a change of an existing record, `financial.paid` when it became paid, and its schedule. */
  async function apply(trx: Trx, teamId: string, current: FinancialView, next: FinancialView, patch: FinancialUpdate, now: string): Promise<FinancialChange> {
    const changed = FINANCIAL_UPDATABLE.filter((f) => current[f] !== next[f]);
    if (changed.length === 0) return { record: current, previous: {} };
    const timeZone = await repo.teamTimeZone(trx, teamId);
    if (changed.includes('due_date')) patch.overdue_at = endOfDay(next.due_date, timeZone).toISOString();
    next.updated_at = toApiTimestamp(now);
    await repo.updateFinancial(trx, teamId, current.id, { ...patch, updated_at: now });
    const previous = Object.fromEntries(changed.map((f) => [f, current[f]])) as Partial<FinancialView>;
    const events: EventType[] = changed.includes('status') && next.status === 'paid' ? ['financial.paid'] : [];
    await recordEvents(
      trx,
      teamId,
      events.map((type) => ({ type, object: next, previous })),
      now,
    );
    await syncSchedule(trx, teamId, 'financial', current.id, financialArmings(next, timeZone), now);
    return { record: next, previous };
  }

  /** The status part of a change: paying needs a method (sent or already on the record); leaving `paid` clears `paid_at`. */
  function moveStatus(
    current: FinancialView,
    next: FinancialView,
    patch: FinancialUpdate,
    to: FinancialView['status'],
    paidAt: string | null | undefined,
    now: string,
  ) {
    if (to === current.status) {
      if (to === 'paid' && paidAt != null) next.paid_at = toApiTimestamp((patch.paid_at = paidAtOf(paidAt, now)));
      return;
    }
    if (to === 'paid') {
      if (current.status === 'cancelled') throw new AppError(422, 'VALIDATION_ERROR', financialMessages.cancelledCannotPay, { field: 'status' });
      if (!next.payment_method) throw validationError(financialMessages.paymentMethodRequired, 'payment_method');
      patch.paid_at = paidAtOf(paidAt, now);
      next.paid_at = toApiTimestamp(patch.paid_at);
    } else {
      patch.paid_at = null;
      next.paid_at = null;
    }
    patch.cancelled_at = to === 'cancelled' ? now : null;
    next.status = patch.status = to;
  }

  return {
    async list(teamId: string, q: FinancialListInput, options: { overdue?: boolean } = {}): Promise<{ data: FinancialView[]; pagination: Pagination }> {
      const page = pageOf(q.page, q.limit);
      const sort = parseSort(q.sort ?? (options.overdue ? 'due_date' : undefined), FINANCIAL_SORT_FIELDS);
      const canon: Record<string, string> = {};
      for (const field of ['deal_id', 'client_id', 'vehicle_id'] as const) {
        const raw = q[field];
        if (raw === undefined) continue;
        const id = canonicalId(raw);
        if (id === null) return { data: [], pagination: paginationOf(page, 0) };
        canon[field] = id;
      }
      const { rows, total } = await reads.list<FinancialRow>(FINANCIAL_RECORDS, teamScope(teamId), {
        filters: {
          type: q.type,
          category: q.category,
          overdueAt: options.overdue ? isoNow(clock) : undefined,
          payment_method: q.payment_method,
          ...canon,
          dueFrom: q.due_from,
          dueTo: q.due_to,
        },
        status: q.status,
        search: q.search,
        sort,
        page,
      });
      return { data: rows.map(toFinancialView), pagination: paginationOf(page, total) };
    },

    async get(teamId: string, rawId: string): Promise<FinancialView> {
      const id = canonicalId(rawId);
      const row = id ? (await reads.byId<FinancialRow>(FINANCIAL_RECORDS, teamScope(teamId), id)).row : undefined;
      if (!row) throw notFound(messages.financialNotFound);
      return toFinancialView(row);
    },

    /** POST: `pending` unless sent `paid` (then with its method; `paid_at` defaults to now, and `financial.paid` follows `financial.created`). */
    async create(teamId: string, input: FinancialCreateInput, options: WriteOptions<FinancialView> = {}): Promise<FinancialView> {
      const status = input.status ?? 'pending';
      return k.transaction().execute(async (trx) => {
        let cents = 0;
        let links: Awaited<ReturnType<typeof checkLinks>> = {};
        // Every invalid field at once.
        await checkAll(
          () => checkCategory(input.type, input.category),
          () => (cents = centsOf(input.amount)),
          () => {
            if (status === 'cancelled') throw validationError(financialMessages.createCancelled, 'status');
            if (status === 'paid' && !input.payment_method) throw validationError(financialMessages.paymentMethodRequired, 'payment_method');
          },
          async () => (links = await checkLinks(trx, teamId, input)),
        );
        const timeZone = await repo.teamTimeZone(trx, teamId);
        const now = isoNow(clock);
        const row: NewFinancialRow = {
          id: newId(),
          team_id: teamId,
          type: input.type,
          category: input.category,
          description: input.description,
          amount_cents: cents,
          due_date: input.due_date,
          overdue_at: endOfDay(input.due_date, timeZone).toISOString(),
          status,
          paid_at: status === 'paid' ? paidAtOf(input.paid_at, now) : null,
          payment_method: input.payment_method ?? null,
          deal_id: links.deal_id ?? null,
          client_id: links.client_id ?? null,
          vehicle_id: links.vehicle_id ?? null,
          notes: input.notes ?? null,
          cancelled_at: null,
          search_text: searchDocument([input.description, input.notes]),
          created_at: now,
          updated_at: now,
        };
        await repo.insertFinancial(trx, row);
        const record = toFinancialView(row as FinancialRow);
        const events: EventType[] = status === 'paid' ? ['financial.created', 'financial.paid'] : ['financial.created'];
        await recordEvents(
          trx,
          teamId,
          events.map((type) => ({ type, object: record, previous: null })),
          now,
        );
        await syncSchedule(trx, teamId, 'financial', record.id, financialArmings(record, timeZone), now);
        await options.inTransaction?.(trx, record);
        return record;
      });
    },

    /**
     * PUT: any subset. `status: paid` pays (as `pay`), `cancelled` cancels (as DELETE), `pending` reopens
     * (clearing `paid_at`). Moving `due_date` re-arms `financial.overdue`. The only event is `financial.paid`.
     */
    async update(teamId: string, rawId: string, body: FinancialUpdateInput): Promise<FinancialChange & { sent: string[] }> {
      const sent = FINANCIAL_UPDATABLE.filter((f) => body[f] !== undefined);
      if (sent.length === 0) throw validationError(messages.noFieldToUpdate);
      const cents = body.amount === undefined ? undefined : centsOf(body.amount);
      const change = await k.transaction().execute(async (trx) => {
        const current = toFinancialView(await loadForUpdate(trx, teamId, rawId));
        const next: FinancialView = { ...current };
        const patch: FinancialUpdate = {};
        const now = isoNow(clock);
        if (body.type !== undefined) next.type = patch.type = body.type;
        if (body.category !== undefined) next.category = patch.category = body.category as FinancialCategory;
        if (body.type !== undefined || body.category !== undefined) checkCategory(next.type, next.category);
        if (cents !== undefined) {
          next.amount = fromCents(cents)!;
          patch.amount_cents = cents;
        }
        if (body.description !== undefined) next.description = body.description;
        if (body.notes !== undefined) next.notes = body.notes;
        if (body.description !== undefined || body.notes !== undefined) {
          Object.assign(patch, { description: next.description, notes: next.notes, search_text: searchDocument([next.description, next.notes]) });
        }
        if (body.due_date !== undefined) next.due_date = patch.due_date = body.due_date;
        if (body.payment_method !== undefined) next.payment_method = patch.payment_method = body.payment_method;
        const links = await checkLinks(trx, teamId, body);
        for (const [field, id] of Object.entries(links)) {
          (next as unknown as Record<string, unknown>)[field] = id;
          (patch as Record<string, unknown>)[field] = id;
        }
        const to = body.status ?? (body.paid_at != null && current.status === 'pending' ? 'paid' : current.status);
        if (body.paid_at != null && to !== 'paid') throw validationError(financialMessages.paidAtOnlyPaid, 'paid_at');
        moveStatus(current, next, patch, to, body.paid_at, now);
        // A paid record keeps a payment method.
        if (next.status === 'paid' && !next.payment_method) throw validationError(financialMessages.paymentMethodRequired, 'payment_method');
        return apply(trx, teamId, current, next, patch, now);
      });
      return { ...change, sent };
    },

    /** Confirms the payment: `financial.paid`, `paid_at` (now unless given) and the method, which is required. Paying a paid record again changes nothing. */
    async pay(teamId: string, rawId: string, input: FinancialPayInput): Promise<FinancialChange> {
      return k.transaction().execute(async (trx) => {
        const current = toFinancialView(await loadForUpdate(trx, teamId, rawId));
        if (current.status === 'paid') return { record: current, previous: {} };
        const next: FinancialView = { ...current, payment_method: input.payment_method };
        const patch: FinancialUpdate = { payment_method: input.payment_method };
        const now = isoNow(clock);
        moveStatus(current, next, patch, 'paid', input.paid_at, now);
        return apply(trx, teamId, current, next, patch, now);
      });
    },

    /** DELETE: cancels (kept, listed only with status=cancelled; out of the summary's totals). Cancelling again changes nothing. */
    async cancel(teamId: string, rawId: string): Promise<FinancialChange> {
      return k.transaction().execute(async (trx) => {
        const current = toFinancialView(await loadForUpdate(trx, teamId, rawId));
        if (current.status === 'cancelled') return { record: current, previous: {} };
        const next: FinancialView = { ...current };
        const patch: FinancialUpdate = {};
        const now = isoNow(clock);
        moveStatus(current, next, patch, 'cancelled', undefined, now);
        return apply(trx, teamId, current, next, patch, now);
      });
    },

    /**
     * The summary of a period of due dates (inclusive; by default the current month in the team's time
     * zone). Every figure is summed in integer cents and converted once at the end.
     */
    /** `vehicleNames`: each vehicle's row also carries its title and plate (the panel's table). */
    async summary(teamId: string, period: { from?: string; to?: string } = {}, { vehicleNames = false } = {}): Promise<FinancialSummary> {
      const now = clock.now();
      const timeZone = await repo.teamTimeZone(k, teamId);
      const today = dayIn(now, timeZone);
      const from = period.from ?? `${today.slice(0, 7)}-01`;
      const to = period.to ?? lastDayOfMonth(from.slice(0, 7));
      if (from > to) throw validationError(financialMessages.periodOrder, 'from');
      const groups = await repo.summaryGroups(k, teamId, from, to, now.toISOString());
      const totals = { revenue: 0, expense: 0, cost: 0 };
      const status = { pending: [0, 0], overdue: [0, 0], paid: [0, 0], cancelled: [0, 0] } as Record<string, [number, number]>;
      const direction = { in: { paid: [0, 0], pending: [0, 0], overdue: [0, 0] }, out: { paid: [0, 0], pending: [0, 0], overdue: [0, 0] } } as Record<
        'in' | 'out',
        Record<string, [number, number]>
      >;
      const categories = new Map<string, { type: FinancialType; category: FinancialCategory; n: number; cents: number }>();
      const months = new Map<string, { revenue: number; expense: number; cost: number }>();
      for (const g of groups) {
        const bucket = status[g.status === 'pending' && g.overdue ? 'overdue' : g.status]!;
        bucket[0] += g.n;
        bucket[1] += g.cents;
        if (g.status === 'cancelled') continue;
        const side = direction[g.type === 'revenue' ? 'in' : 'out'][g.status === 'pending' && g.overdue ? 'overdue' : g.status]!;
        side[0] += g.n;
        side[1] += g.cents;
        totals[g.type] += g.cents;
        const key = `${g.type}/${g.category}`;
        const cat = categories.get(key) ?? { type: g.type, category: g.category as FinancialCategory, n: 0, cents: 0 };
        cat.n += g.n;
        cat.cents += g.cents;
        categories.set(key, cat);
        const month = months.get(g.month) ?? { revenue: 0, expense: 0, cost: 0 };
        month[g.type] += g.cents;
        months.set(g.month, month);
      }
      const money = (cents: number) => fromCents(cents)!;
      const vehicles = await repo.vehicleSums(k, teamId, from, to, VEHICLE_SALE_CATEGORY);
      const known = await repo.vehiclesOfSummary(
        k,
        teamId,
        vehicles.map((v) => v.vehicle_id),
      );
      return {
        period: { from, to },
        totals: {
          revenue: money(totals.revenue),
          expense: money(totals.expense),
          cost: money(totals.cost),
          net: money(totals.revenue - totals.expense - totals.cost),
        },
        by_status: Object.fromEntries(
          Object.entries(status).map(([s, [n, cents]]) => [s, { count: n, amount: money(cents) }]),
        ) as FinancialSummary['by_status'],
        by_direction: {
          in: counted(direction.in, money) as unknown as DirectionTotals,
          out: counted(direction.out, money) as unknown as DirectionTotals,
        },
        by_category: [...categories.values()]
          .sort((a, b) => a.type.localeCompare(b.type) || a.category.localeCompare(b.category))
          .map((c) => ({ type: c.type, category: c.category, count: c.n, amount: money(c.cents) })),
        by_month: [...months.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([month, m]) => ({
            month,
            revenue: money(m.revenue),
            expense: money(m.expense),
            cost: money(m.cost),
            net: money(m.revenue - m.expense - m.cost),
          })),
        by_vehicle: vehicles.map((v) => {
          const vehicle = known.get(v.vehicle_id);
          const purchase = vehicle?.purchase_cents ?? null;
          return {
            vehicle_id: v.vehicle_id,
            ...(vehicleNames && { title: vehicle?.title ?? null, plate: vehicle?.plate ?? null }),
            sale_revenue: money(v.sale_cents),
            purchase_price: purchase === null ? null : money(purchase),
            costs: money(v.cost_cents),
            margin: purchase === null ? null : money(v.sale_cents - purchase - v.cost_cents),
          };
        }),
      };
    },

    /**
     * Sets the team's time zone and moves the overdue instant of its pending records with it, in one
     * transaction (a record whose `financial.overdue` already fired for its due date does not fire again).
     */
    async setTeamTimeZone(teamId: string, timeZone: string): Promise<void> {
      if (!isTimeZone(timeZone)) throw validationError(financialMessages.timeZoneInvalid(timeZone), 'time_zone');
      await k.transaction().execute(async (trx) => {
        await updateTeamTimeZone(trx, teamId, timeZone);
        const now = isoNow(clock);
        for (const r of await repo.pendingOfTeam(trx, teamId)) {
          await repo.updateFinancial(trx, teamId, r.id, { overdue_at: endOfDay(r.due_date, timeZone).toISOString() });
          await syncSchedule(trx, teamId, 'financial', r.id, financialArmings(r, timeZone), now);
        }
      });
    },
  };
}

function lastDayOfMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

export type FinancialService = ReturnType<typeof createFinancialService>;
