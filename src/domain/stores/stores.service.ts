import type { Db } from '../../storage/db.js';
import { uniqueViolationIndex } from '../../storage/unique-violation.js';
import { ADDRESS_MEMBERS, type Address } from '../clients/clients.types.js';
import type { ReadPlanner } from '../reads/read-planner.repository.js';
import { teamScope } from '../reads/scope.js';
import { isoNow, type Clock } from '../shared/clock.js';
import { checkAllNow, duplicateEntry, messages, notFound, validationError } from '../shared/errors.js';
import { canonicalId, newId } from '../shared/ids.js';
import { MAX_LIMIT, pageOf, paginationOf, parseSort, sameJson, type Pagination } from '../shared/list-query.js';
import { isValidCnpj, normalizeTaxId } from '../shared/tax-id.js';
import { foldText, searchDocument } from '../shared/text-search.js';
import { toApiTimestamp } from '../shared/time.js';
import type { TeamsService } from '../teams/teams.service.js';
import { toStoreView, type StoreRow } from './stores.mapper.js';
import { checkStoreId } from './store-check.js';
import * as repo from './stores.repository.js';
import { STORES } from './stores.resource.js';
import {
  STORE_SORT_FIELDS,
  STORE_STATUSES,
  STORE_UPDATABLE,
  type StoreCreateInput,
  type StoreListInput,
  type StoreUpdateInput,
  type StoreView,
} from './stores.types.js';

const EMPTY_ADDRESS = Object.fromEntries(ADDRESS_MEMBERS.map((m) => [m, null])) as Address;

const blankToNull = (v: string | null | undefined): string | null => (v === undefined || v === null || v.trim() === '' ? null : v.trim());

function mergeAddress(current: Address | null, sent: Partial<Address> | null): Address | null {
  if (sent === null) return null;
  const known = Object.fromEntries(ADDRESS_MEMBERS.filter((m) => sent[m] !== undefined).map((m) => [m, sent[m]]));
  return { ...(current ?? EMPTY_ADDRESS), ...known };
}

/** The rule checks of a store about to be written, every invalid field at once. */
function checkStore(s: StoreView) {
  checkAllNow(
    () => {
      if (s.name.trim() === '') throw validationError("Campo 'name' é obrigatório", 'name');
    },
    () => {
      if (s.name.length > 200) throw validationError("Campo 'name' deve ter no máximo 200 caracteres", 'name');
    },
    () => {
      if (s.cnpj !== null && !isValidCnpj(s.cnpj)) throw validationError(messages.cnpjInvalid, 'cnpj');
    },
    () => {
      if (!STORE_STATUSES.includes(s.status)) throw validationError(`Status inválido. Use: ${STORE_STATUSES.join(', ')}`, 'status');
    },
  );
}

function columnsOf(s: StoreView) {
  const cnpjNormalized = s.cnpj === null ? null : normalizeTaxId(s.cnpj);
  return {
    name: s.name,
    name_key: foldText(s.name),
    cnpj: s.cnpj,
    cnpj_normalized: cnpjNormalized,
    phone: s.phone,
    whatsapp: s.whatsapp,
    email: s.email,
    address: s.address === null ? null : JSON.stringify(s.address),
    status: s.status,
    search_text: searchDocument([s.name, s.cnpj, cnpjNormalized]),
  };
}

async function guardCnpj<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (uniqueViolationIndex(error)?.includes('cnpj')) throw duplicateEntry(messages.cnpjTaken, 'cnpj');
    throw error;
  }
}

export interface StoresServiceDeps {
  clock: Clock;
  reads: ReadPlanner;
  teams: Pick<TeamsService, 'find'>;
}

/**
 * The team's stores (DECISIONS "Stores"): owners create, edit and deactivate them (CLI, panel); the
 * API reads them. `checkStoreId` is the rule every record with a `store_id` follows on its writes.
 */
export function createStoresService(db: Pick<Db, 'kysely'>, { clock, reads, teams }: StoresServiceDeps) {
  const k = db.kysely;

  async function get(teamId: string, rawId: string): Promise<StoreView> {
    const id = canonicalId(rawId);
    const row = id ? (await reads.byId<StoreRow>(STORES, teamScope(teamId), id)).row : undefined;
    if (!row) throw notFound(messages.storeNotFound);
    return toStoreView(row);
  }

  /** A page of the team's stores: every status unless `status` is given; `search` on name and CNPJ. */
  async function list(teamId: string, q: StoreListInput = {}): Promise<{ data: StoreView[]; pagination: Pagination }> {
    const page = pageOf(q.page, q.limit);
    const sort = parseSort(q.sort, STORE_SORT_FIELDS);
    const { rows, total } = await reads.list<StoreRow>(STORES, teamScope(teamId), { filters: {}, status: q.status, search: q.search, sort, page });
    return { data: rows.map(toStoreView), pagination: paginationOf(page, total) };
  }

  async function update(teamId: string, rawId: string, input: StoreUpdateInput): Promise<StoreView> {
    const sent = STORE_UPDATABLE.filter((f) => input[f] !== undefined);
    if (sent.length === 0) throw validationError(messages.noFieldToUpdate);
    const id = canonicalId(rawId);
    return guardCnpj(() =>
      k.transaction().execute(async (trx) => {
        const row = id ? await repo.findStoreForChange(trx, teamId, id) : undefined;
        if (!row) throw notFound(messages.storeNotFound);
        const current = toStoreView(row);
        const next: StoreView = { ...current };
        if (input.name !== undefined) next.name = (input.name ?? '').trim();
        for (const f of ['cnpj', 'phone', 'whatsapp', 'email'] as const) if (input[f] !== undefined) next[f] = blankToNull(input[f]);
        if (input.address !== undefined) next.address = mergeAddress(current.address, input.address);
        if (input.status !== undefined) next.status = input.status;
        checkStore(next);
        if (sameJson({ ...current, updated_at: '' }, { ...next, updated_at: '' })) return current;
        const stamp = isoNow(clock);
        next.updated_at = toApiTimestamp(stamp);
        await repo.updateStore(trx, teamId, current.id, { ...columnsOf(next), updated_at: stamp });
        return next;
      }),
    );
  }

  return {
    list,

    get,

    /** Every store of the team in name order (a team has a handful): the CLI's list, the panel's pickers. */
    async all(teamId: string): Promise<StoreView[]> {
      const out: StoreView[] = [];
      for (let page = 1; ; page++) {
        const { data, pagination } = await list(teamId, { page, limit: MAX_LIMIT, sort: 'name' });
        out.push(...data);
        if (page >= pagination.pages) return out;
      }
    },

    async create(teamId: string, input: StoreCreateInput): Promise<StoreView> {
      const team = await teams.find(teamId);
      if (!team) throw notFound('Time não encontrado');
      const stamp = isoNow(clock);
      const now = toApiTimestamp(stamp);
      const store: StoreView = {
        id: newId(),
        name: (input.name ?? '').trim(),
        cnpj: blankToNull(input.cnpj),
        phone: blankToNull(input.phone),
        whatsapp: blankToNull(input.whatsapp),
        email: blankToNull(input.email),
        address: input.address ? mergeAddress(null, input.address) : null,
        status: 'active',
        created_at: now,
        updated_at: now,
      };
      checkStore(store);
      await guardCnpj(() => repo.insertStore(k, { ...columnsOf(store), id: store.id, team_id: team.id, created_at: stamp, updated_at: stamp }));
      return store;
    },

    /** Any subset of the fields; `status: 'inactive'` deactivates (its records stay), `'active'` reactivates. */
    update,

    /** Deactivates a store: it keeps its records and takes no new ones. Idempotent. */
    async deactivate(teamId: string, rawId: string): Promise<StoreView> {
      const current = await get(teamId, rawId);
      if (current.status === 'inactive') return current;
      return update(teamId, current.id, { status: 'inactive' });
    },

    /** The check every record's `store_id` passes on its writes (store-check.ts). */
    checkStoreId,
  };
}

export type StoresService = ReturnType<typeof createStoresService>;
