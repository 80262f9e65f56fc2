import type { Db } from '../../storage/db.js';
import type { NewVehicleRow, VehicleUpdate } from '../../storage/database.js';
import type { DbExecutor, Trx } from '../../storage/executor.js';
import { uniqueViolationIndex } from '../../storage/unique-violation.js';
import type { EventType } from '../events/event-types.js';
import { recordEvents } from '../events/events.repository.js';
import { findVehiclePhase, firstVehiclePhase, listVehiclePhases } from '../phases/phases.repository.js';
import { isoNow, type Clock } from '../shared/clock.js';
import { checkStoreId } from '../stores/store-check.js';
import { checkAll, duplicateEntry, messages, notFound, validationError } from '../shared/errors.js';
import { canonicalId, newId } from '../shared/ids.js';
import { pageOf, paginationOf, parseSort, sameJson, type Pagination } from '../shared/list-query.js';
import { fromCents, lowerBoundCents, toCents, upperBoundCents } from '../shared/money.js';
import { foldText, searchDocument } from '../shared/text-search.js';
import { toApiTimestamp } from '../shared/time.js';
import type { WriteOptions } from '../shared/write-options.js';
import { canonicalChassis, canonicalPlate, canonicalRenavam, isFipeCode, plateSearchForms } from './vehicle-identifiers.js';
import { toVehicleEventObject, toVehicleView, type VehicleViewRow } from './vehicles.mapper.js';
import { VEHICLES } from './vehicles.resource.js';
import type { ReadPlanner } from '../reads/read-planner.repository.js';
import { teamScope } from '../reads/scope.js';
import * as repo from './vehicles.repository.js';
import {
  VEHICLE_SORT_FIELDS,
  VEHICLE_UPDATABLE,
  type VehicleArchiveResult,
  type VehicleCreateInput,
  type VehicleListInput,
  type VehicleUpdateInput,
  type VehicleUpdateResult,
  type VehicleView,
} from './vehicles.types.js';

function centsOf(value: number | null | undefined, field: 'price' | 'purchase_price'): number | null {
  if (value === null || value === undefined) return null;
  const cents = toCents(value);
  if (cents === null) throw validationError(`Campo '${field}' deve ter no máximo duas casas decimais`, field);
  return cents;
}

/** Plate, RENAVAM and chassis of a body, in canonical form for the unique indexes (each checked). */
function identifierKeys(v: Pick<VehicleView, 'plate' | 'renavam' | 'chassis'>) {
  return { plate_key: plateKey(v), renavam_key: renavamKey(v), chassis_key: chassisKey(v) };
}

function plateKey(v: Pick<VehicleView, 'plate'>): string | null {
  const plate = v.plate === null ? null : canonicalPlate(v.plate);
  if (v.plate !== null && !plate) throw validationError(messages.plateInvalid, 'plate');
  return plate;
}

function renavamKey(v: Pick<VehicleView, 'renavam'>): string | null {
  const renavam = v.renavam === null ? null : canonicalRenavam(v.renavam);
  if (v.renavam !== null && !renavam) throw validationError(messages.renavamInvalid, 'renavam');
  return renavam;
}

function chassisKey(v: Pick<VehicleView, 'chassis'>): string | null {
  const chassis = v.chassis === null ? null : canonicalChassis(v.chassis);
  if (v.chassis !== null && !chassis) throw validationError(messages.chassisInvalid, 'chassis');
  return chassis;
}

/** `manufacture_year` 1900..next year (DECISIONS.md). */
function checkManufactureYear(v: Pick<VehicleView, 'manufacture_year'>, clock: Clock): void {
  const nextYear = clock.now().getUTCFullYear() + 1;
  if (v.manufacture_year !== null && (v.manufacture_year < 1900 || v.manufacture_year > nextYear)) {
    throw validationError(`Ano de fabricação deve ser entre 1900 e ${nextYear}`, 'manufacture_year');
  }
}

/** `model_year` the same year as manufacture or the one after; without one, 1900..the year after next. */
function checkModelYear(v: Pick<VehicleView, 'manufacture_year' | 'model_year'>, clock: Clock): void {
  const nextYear = clock.now().getUTCFullYear() + 1;
  if (v.model_year === null) return;
  if (v.manufacture_year !== null) {
    if (v.model_year !== v.manufacture_year && v.model_year !== v.manufacture_year + 1) {
      throw validationError('Ano do modelo deve ser igual ao ano de fabricação ou o seguinte', 'model_year');
    }
  } else if (v.model_year < 1900 || v.model_year > nextYear + 1) {
    throw validationError(`Ano do modelo deve ser entre 1900 e ${nextYear + 1}`, 'model_year');
  }
}

function checkFipe(v: Pick<VehicleView, 'fipe_code'>): void {
  if (v.fipe_code !== null && !isFipeCode(v.fipe_code)) throw validationError('Código FIPE inválido: use o formato NNNNNN-N', 'fipe_code');
}

/**
 * The rule checks of a vehicle about to be written, every invalid field reported at once (in the
 * order: years, FIPE code, plate, RENAVAM, chassis, prices, then `more`, e.g. the phase); prices are
 * rounded to cents. `sent`: the fields a PUT sent (years and FIPE code are checked when sent).
 */
async function checkVehicle(v: VehicleView, clock: Clock, sent: readonly string[] | 'all', ...more: Array<() => Promise<unknown>>): Promise<void> {
  const has = (field: string) => sent === 'all' || sent.includes(field);
  const years = has('manufacture_year') || has('model_year');
  await checkAll(
    () => years && checkManufactureYear(v, clock),
    () => years && checkModelYear(v, clock),
    () => has('fipe_code') && checkFipe(v),
    () => plateKey(v),
    () => renavamKey(v),
    () => chassisKey(v),
    () => (v.price = fromCents(centsOf(v.price, 'price'))),
    () => (v.purchase_price = fromCents(centsOf(v.purchase_price, 'purchase_price'))),
    ...more,
  );
}

/** Every stored column that derives from the view (what a PUT may change). */
function columnsOf(v: VehicleView): VehicleUpdate {
  return {
    title: v.title,
    brand: v.brand,
    model: v.model,
    version: v.version,
    plate: v.plate,
    renavam: v.renavam,
    chassis: v.chassis,
    ...identifierKeys(v),
    manufacture_year: v.manufacture_year,
    model_year: v.model_year,
    mileage: v.mileage,
    color: v.color,
    fuel: v.fuel,
    transmission: v.transmission,
    body_type: v.body_type,
    doors: v.doors,
    condition: v.condition,
    fipe_code: v.fipe_code,
    price_cents: centsOf(v.price, 'price'),
    purchase_price_cents: centsOf(v.purchase_price, 'purchase_price'),
    phase: v.phase,
    status: v.status,
    sold_at: v.sold_at === null ? null : new Date(v.sold_at).toISOString(),
    description: v.description,
    features: JSON.stringify(v.features),
    tags: JSON.stringify(v.tags),
    store_id: v.store_id,
    search_text: searchDocument([v.title, v.brand, v.model, v.version, ...(v.plate === null ? [] : plateSearchForms(v.plate)), v.chassis]),
    title_key: foldText(v.title),
    brand_key: foldText(v.brand),
    model_key: foldText(v.model),
  };
}

/** A write refused by an in-stock unique index: the contract's 422. */
function rethrowDuplicate(error: unknown): never {
  const index = uniqueViolationIndex(error);
  if (index?.includes('plate')) throw duplicateEntry(messages.plateTaken, 'plate');
  if (index?.includes('chassis')) throw duplicateEntry(messages.chassisTaken, 'chassis');
  if (index?.includes('renavam')) throw duplicateEntry(messages.renavamTaken, 'renavam');
  // The phase was removed from the board while this write ran (the foreign key refused it).
  const code = (error as { code?: string } | null)?.code;
  if (code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw validationError(messages.invalidPhase, 'phase');
  throw error;
}

async function phaseOrThrow(db: DbExecutor, teamId: string, name: string): Promise<string> {
  const phase = await findVehiclePhase(db, teamId, name);
  // The team's board goes in a documented detail, as for deals.
  if (!phase) throw validationError(messages.invalidPhase, 'phase', { allowed: (await listVehiclePhases(db, teamId)).map((p) => p.name) });
  return phase.name;
}

/** The generic event first, then the specific ones, in DECISIONS.md's order. */
function updateEvents(changed: readonly string[], next: VehicleView): EventType[] {
  const types: EventType[] = ['vehicle.updated'];
  if (changed.includes('phase')) types.push('vehicle.phase_changed');
  if (changed.includes('price')) types.push('vehicle.price_changed');
  if (changed.includes('status') && next.status === 'vendido') types.push('vehicle.sold');
  return types;
}

const eventsOf = (types: EventType[], next: VehicleView, previous: Partial<VehicleView>) =>
  types.map((type) => ({ type, object: toVehicleEventObject(next), previous }));

/**
 * Marks the team's in-stock vehicle `caseId` sold, inside the caller's transaction (a deal PUT that
 * makes the deal `ganho`): `vehicle.updated` then `vehicle.sold`. Nothing happens when `caseId` names
 * no vehicle of the team, or one that is not `ativo`.
 */
export async function sellVehicleOfDeal(trx: Trx, teamId: string, caseId: string, now: string): Promise<VehicleView | null> {
  const id = canonicalId(caseId);
  const row = id ? await repo.findVehicleForChange(trx, teamId, id) : undefined;
  if (!row || row.status !== 'ativo') return null;
  const current = toVehicleView(row);
  await repo.updateVehicle(trx, teamId, row.id, { status: 'vendido', sold_at: now, updated_at: now });
  const next: VehicleView = { ...current, status: 'vendido', sold_at: toApiTimestamp(now), updated_at: toApiTimestamp(now) };
  const previous = { status: current.status, sold_at: current.sold_at };
  await recordEvents(trx, teamId, eventsOf(['vehicle.updated', 'vehicle.sold'], next, previous), now);
  return next;
}

/** A vehicle's status, undefined when the team has no such vehicle (why a sale found nothing to sell). */
export async function vehicleStatusOf(trx: Trx, teamId: string, id: string): Promise<VehicleView['status'] | undefined> {
  return (await repo.findVehicle(trx, teamId, id))?.status;
}

export function createVehiclesService(db: Pick<Db, 'kysely'>, { clock, reads }: { clock: Clock; reads: ReadPlanner }) {
  const k = db.kysely;

  async function loadForUpdate(trx: Trx, teamId: string, rawId: string) {
    const id = canonicalId(rawId);
    const row = id ? await repo.findVehicleForChange(trx, teamId, id) : undefined;
    if (!row) throw notFound(messages.vehicleNotFound);
    return row;
  }

  /** A page of the list. */
  async function listRead(teamId: string, q: VehicleListInput) {
    const page = pageOf(q.page, q.limit);
    const sort = parseSort(q.sort, VEHICLE_SORT_FIELDS);
    const { rows, total } = await reads.list<VehicleViewRow>(VEHICLES, teamScope(teamId), {
      filters: {
        phase: q.phase,
        brandKey: q.brand === undefined ? undefined : foldText(q.brand),
        modelKey: q.model === undefined ? undefined : foldText(q.model),
        condition: q.condition,
        fuel: q.fuel,
        transmission: q.transmission,
        store_id: q.store_id,
        minCents: q.min_price === undefined ? undefined : lowerBoundCents(q.min_price),
        maxCents: q.max_price === undefined ? undefined : upperBoundCents(q.max_price),
        minYear: q.min_year,
        maxYear: q.max_year,
        maxMileage: q.max_mileage,
      },
      status: q.status,
      search: q.search,
      sort,
      page,
    });
    return { data: rows.map(toVehicleView), pagination: paginationOf(page, total) };
  }

  const service = {
    async list(teamId: string, q: VehicleListInput): Promise<{ data: VehicleView[]; pagination: Pagination }> {
      const { data, pagination } = await listRead(teamId, q);
      return { data, pagination };
    },

    async get(teamId: string, rawId: string): Promise<VehicleView> {
      const id = canonicalId(rawId);
      const row = id ? (await reads.byId<VehicleViewRow>(VEHICLES, teamScope(teamId), id)).row : undefined;
      if (!row) throw notFound(messages.vehicleNotFound);
      return toVehicleView(row);
    },

    async create(teamId: string, input: VehicleCreateInput, options: WriteOptions<VehicleView> = {}): Promise<VehicleView> {
      const now = isoNow(clock);
      const vehicle: VehicleView = {
        id: newId(),
        title: input.title,
        brand: input.brand,
        model: input.model,
        version: input.version ?? null,
        plate: input.plate ?? null,
        renavam: input.renavam ?? null,
        chassis: input.chassis ?? null,
        manufacture_year: input.manufacture_year ?? null,
        model_year: input.model_year ?? null,
        mileage: input.mileage ?? null,
        color: input.color ?? null,
        fuel: input.fuel ?? null,
        transmission: input.transmission ?? null,
        body_type: input.body_type ?? null,
        doors: input.doors ?? null,
        condition: input.condition ?? 'usado',
        fipe_code: input.fipe_code ?? null,
        price: input.price ?? null,
        purchase_price: input.purchase_price ?? null,
        phase: '',
        status: 'ativo',
        sold_at: null,
        description: input.description ?? null,
        features: input.features ?? [],
        tags: input.tags ?? [],
        store_id: input.store_id ?? null,
        created_at: toApiTimestamp(now),
        updated_at: toApiTimestamp(now),
      };
      return k.transaction().execute(async (trx) => {
        // New vehicles start in the first phase of the team's board (`entrada` by default).
        await checkVehicle(
          vehicle,
          clock,
          'all',
          async () => {
            vehicle.phase = input.phase !== undefined ? await phaseOrThrow(trx, teamId, input.phase) : (await firstVehiclePhase(trx, teamId))!.name;
          },
          async () => (vehicle.store_id = await checkStoreId(trx, teamId, vehicle.store_id)),
        );
        const row = { ...columnsOf(vehicle), id: vehicle.id, team_id: teamId, archived_at: null, created_at: now, updated_at: now } as NewVehicleRow;
        await repo.insertVehicle(trx, row).catch(rethrowDuplicate);
        await recordEvents(
          trx,
          teamId,
          eventsOf(['vehicle.created'], vehicle, {}).map((e) => ({ ...e, previous: null })),
          now,
        );
        await options.inTransaction?.(trx, vehicle);
        return vehicle;
      });
    },

    /** Applies a PUT; returns the vehicle after it, the earlier values of what changed, and which fields changed. */
    async update(teamId: string, rawId: string, body: VehicleUpdateInput): Promise<VehicleUpdateResult> {
      const sent = VEHICLE_UPDATABLE.filter((f) => body[f] !== undefined);
      if (sent.length === 0) throw validationError(messages.noFieldToUpdate);
      return k.transaction().execute(async (trx) => {
        const current = toVehicleView(await loadForUpdate(trx, teamId, rawId));
        const now = isoNow(clock);
        const next: VehicleView = { ...current };
        for (const field of sent) (next as unknown as Record<string, unknown>)[field] = body[field];
        await checkVehicle(
          next,
          clock,
          sent,
          async () => {
            if (body.phase !== undefined && body.phase !== current.phase) next.phase = await phaseOrThrow(trx, teamId, body.phase);
          },
          async () => {
            if (body.store_id !== undefined && body.store_id !== current.store_id) next.store_id = await checkStoreId(trx, teamId, body.store_id);
          },
        );
        // Becoming `vendido` sets sold_at (now unless sent); leaving it clears it.
        if (next.status === 'vendido') {
          if (typeof body.sold_at === 'string') next.sold_at = toApiTimestamp(body.sold_at);
          else next.sold_at = current.status === 'vendido' && current.sold_at !== null ? current.sold_at : toApiTimestamp(now);
        } else {
          if (typeof body.sold_at === 'string') throw validationError("Campo 'sold_at' só pode ser informado para um veículo vendido", 'sold_at');
          next.sold_at = null;
        }
        const changed = VEHICLE_UPDATABLE.filter((f) => !sameJson(current[f], next[f]));
        if (changed.length === 0) return { vehicle: current, previous: {}, changed };

        const before = columnsOf(current);
        const after = columnsOf(next);
        const patch: VehicleUpdate = { updated_at: now };
        for (const [column, value] of Object.entries(after)) {
          if (!sameJson(before[column as keyof VehicleUpdate], value)) Object.assign(patch, { [column]: value });
        }
        if (changed.includes('status')) patch.archived_at = next.status === 'arquivado' ? now : null;
        await repo.updateVehicle(trx, teamId, current.id, patch).catch(rethrowDuplicate);
        next.updated_at = toApiTimestamp(now);
        const previous = Object.fromEntries(changed.map((f) => [f, current[f]])) as Partial<VehicleView>;
        await recordEvents(trx, teamId, eventsOf(updateEvents(changed, next), next, previous), now);
        return { vehicle: next, previous, changed };
      });
    },

    /**
     * Brings an archived vehicle back into stock (status `ativo`, in the phase it kept): the same change
     * as a PUT of `{status: 'ativo'}`, with its `vehicle.updated`. Any other vehicle is answered as it is.
     */
    async restore(teamId: string, rawId: string): Promise<VehicleUpdateResult> {
      const current = await service.get(teamId, rawId);
      if (current.status !== 'arquivado') return { vehicle: current, previous: {}, changed: [] };
      return service.update(teamId, current.id, { status: 'ativo' });
    },

    /** DELETE: archives (`vehicle.removed`); archiving an archived vehicle again answers with its original archived_at. */
    async archive(teamId: string, rawId: string): Promise<VehicleArchiveResult> {
      return k.transaction().execute(async (trx) => {
        const row = await loadForUpdate(trx, teamId, rawId);
        const current = toVehicleView(row);
        if (row.status === 'arquivado') {
          return { vehicle: current, previous: {}, archivedAt: toApiTimestamp(row.archived_at ?? row.updated_at) };
        }
        const now = isoNow(clock);
        await repo.updateVehicle(trx, teamId, row.id, { status: 'arquivado', sold_at: null, archived_at: now, updated_at: now });
        const vehicle: VehicleView = { ...current, status: 'arquivado', sold_at: null, updated_at: toApiTimestamp(now) };
        const previous: Partial<VehicleView> = { status: current.status, ...(current.sold_at === null ? {} : { sold_at: current.sold_at }) };
        await recordEvents(trx, teamId, eventsOf(['vehicle.removed'], vehicle, previous), now);
        return { vehicle, previous, archivedAt: toApiTimestamp(now) };
      });
    },
  };
  return service;
}

export type VehiclesService = ReturnType<typeof createVehiclesService>;
