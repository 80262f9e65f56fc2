import type { AiServing } from '../ai/ai-serving.service.js';
import { checkAllNow, duplicateEntry, messages, notFound, validationError } from '../shared/errors.js';
import type { Db } from '../../storage/db.js';
import type { Trx } from '../../storage/executor.js';
import type { ClientUpdate, NewClientRow } from '../../storage/database.js';
import { uniqueViolationIndex } from '../../storage/unique-violation.js';
import { contactKeyColumns } from '../../storage/contact-keys.js';
import { canonicalId, newId } from '../shared/ids.js';
import { pageOf, paginationOf, parseSort, sameJson, type Pagination } from '../shared/list-query.js';
import { fromCents, toCents } from '../shared/money.js';
import { isValidCnpj, isValidCpf, normalizeTaxId } from '../shared/tax-id.js';
import { foldText, searchDocument } from '../shared/text-search.js';
import { isoNow, type Clock } from '../shared/clock.js';
import type { WriteOptions } from '../shared/write-options.js';
import { toApiTimestamp } from '../shared/time.js';
import { toClientListItem, toClientState, toClientView, type ClientStateRow } from './clients.mapper.js';
import { CLIENTS } from './clients.resource.js';
import type { ReadPlanner } from '../reads/read-planner.repository.js';
import { teamScope } from '../reads/scope.js';
import { recordEvents } from '../events/events.repository.js';
import { checkStoreId } from '../stores/store-check.js';
import * as repo from './clients.repository.js';
import {
  ADDRESS_MEMBERS,
  CLIENT_SORT_FIELDS,
  CLIENT_UPDATABLE,
  PF_ONLY,
  PJ_ONLY,
  type Address,
  type ClientCreateInput,
  type ClientDeactivateResult,
  type ClientField,
  type ClientListInput,
  type ClientListView,
  type ClientState,
  type ClientUpdateInput,
  type ClientUpdateResult,
  type ClientView,
} from './clients.types.js';

/** Attributes compared to decide whether a PUT changed anything (all but the timestamps). */
const TRACKED = [...CLIENT_UPDATABLE, 'status'] as const;

const EMPTY_ADDRESS = Object.fromEntries(ADDRESS_MEMBERS.map((m) => [m, null])) as Address;

function checkFieldsApply(type: 'PF' | 'PJ', body: Partial<Record<ClientField, unknown>>) {
  const foreign = type === 'PF' ? PJ_ONLY : PF_ONLY;
  const wrong = foreign.find((f) => body[f] !== undefined && body[f] !== null);
  if (wrong) throw validationError(`Campo '${wrong}' não se aplica a clientes do tipo ${type}`, wrong);
}

/** The rule checks of a client about to be written, every invalid field at once; the credit limit rounded to cents. */
function checkClient(state: ClientState, body: Partial<Record<ClientField, unknown>>) {
  checkAllNow(
    () => checkFieldsApply(state.type, body),
    () => {
      if (state.cpf !== null && !isValidCpf(state.cpf)) throw validationError(messages.cpfInvalid, 'cpf');
    },
    () => {
      if (state.cnpj !== null && !isValidCnpj(state.cnpj)) throw validationError(messages.cnpjInvalid, 'cnpj');
    },
    () => (state.credit_limit = fromCents(creditCents(state.credit_limit))),
  );
}

function creditCents(value: number | null): number | null {
  if (value === null) return null;
  const cents = toCents(value);
  if (cents === null) throw validationError("Campo 'credit_limit' deve ter no máximo duas casas decimais", 'credit_limit');
  return cents;
}

function mergeAddress(current: Address | null, sent: Partial<Record<string, string | null>> | null): Address | null {
  if (sent === null) return null;
  const known = Object.fromEntries(ADDRESS_MEMBERS.filter((m) => sent[m] !== undefined).map((m) => [m, sent[m]]));
  return { ...(current ?? EMPTY_ADDRESS), ...known };
}

/** The columns for a client state; derived columns (normalized tax ids, search text, sort key) come along. */
function columnsOf(s: ClientState): Omit<NewClientRow, 'id' | 'team_id' | 'created_at'> {
  const cpfNormalized = s.cpf === null ? null : normalizeTaxId(s.cpf);
  const cnpjNormalized = s.cnpj === null ? null : normalizeTaxId(s.cnpj);
  return {
    type: s.type,
    name: s.name,
    display_name: s.display_name,
    email: s.email,
    phone: s.phone,
    mobile_phone: s.mobile_phone,
    whatsapp: s.whatsapp,
    cpf: s.cpf,
    cpf_normalized: cpfNormalized,
    rg: s.rg,
    birth_date: s.birth_date,
    gender: s.gender,
    marital_status: s.marital_status,
    nationality: s.nationality,
    cnpj: s.cnpj,
    cnpj_normalized: cnpjNormalized,
    legal_name: s.legal_name,
    trade_name: s.trade_name,
    state_registration: s.state_registration,
    municipal_registration: s.municipal_registration,
    segment: s.segment,
    source: s.source,
    status: s.status,
    store_id: s.store_id,
    address: s.address === null ? null : JSON.stringify(s.address),
    notes: s.notes,
    tags: JSON.stringify(s.tags),
    credit_limit_cents: creditCents(s.credit_limit),
    search_text: searchDocument([s.name, s.email, s.cpf, cpfNormalized, s.cnpj, cnpjNormalized]),
    name_key: foldText(s.name),
    ...contactKeyColumns(s),
    updated_at: s.updated_at,
  };
}

/** Turns the database's unique-index violation into the contract's 422. */
async function guardDuplicates<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const index = uniqueViolationIndex(error);
    if (index?.includes('cpf')) throw duplicateEntry(messages.cpfTaken, 'cpf');
    if (index?.includes('cnpj')) throw duplicateEntry(messages.cnpjTaken, 'cnpj');
    throw error;
  }
}

export interface ClientsServiceDeps {
  clock: Clock;
  reads: ReadPlanner;
  /** Refreshes the `ai_summary` (and probability: the segment is a feature) of the client's deals. */
  ai?: Pick<AiServing, 'refreshClientDeals'>;
}

export function createClientsService(db: Pick<Db, 'kysely'>, { clock, reads, ai }: ClientsServiceDeps) {
  const k = db.kysely;

  /** Writers lock the row (PostgreSQL) so concurrent updates compute from the row they replace. */
  async function loadForUpdate(trx: Trx, teamId: string, rawId: string) {
    const id = canonicalId(rawId);
    const row = id ? await repo.findClientForChange(trx, teamId, id) : undefined;
    if (!row) throw notFound(messages.clientNotFound);
    return toClientState(row);
  }

  /** A new client's state and stamp from a create's input; every rule checked. */
  function newClient(input: ClientCreateInput): { state: ClientState; stamp: string } {
    const stamp = isoNow(clock);
    const now = toApiTimestamp(stamp);
    const state: ClientState = {
      ...(Object.fromEntries(CLIENT_UPDATABLE.map((f) => [f, input[f] ?? null])) as Pick<ClientState, ClientField>),
      id: newId(),
      type: input.type,
      name: input.name,
      tags: input.tags ?? [],
      address: input.address ? mergeAddress(null, input.address) : null,
      status: 'active',
      created_at: now,
      updated_at: now,
    };
    checkClient(state, input);
    return { state, stamp };
  }

  async function insertNew(trx: Trx, teamId: string, state: ClientState, stamp: string): Promise<void> {
    state.store_id = await checkStoreId(trx, teamId, state.store_id);
    await repo.insertClient(trx, { ...columnsOf(state), id: state.id, team_id: teamId, created_at: stamp, updated_at: stamp });
    await recordEvents(trx, teamId, [{ type: 'client.created', object: toClientView(state), previous: null }], stamp);
  }

  async function updateIn(
    trx: Trx,
    teamId: string,
    rawId: string,
    body: ClientUpdateInput,
  ): Promise<{ state: ClientState; previous: Record<string, unknown> }> {
    const sent = CLIENT_UPDATABLE.filter((f) => body[f] !== undefined);
    const current = await loadForUpdate(trx, teamId, rawId);
    if (body.type !== undefined && body.type !== current.type) throw validationError("Campo 'type' não pode ser alterado", 'type');
    const next: ClientState = { ...current, status: 'active' };
    for (const field of sent) (next as unknown as Record<string, unknown>)[field] = body[field];
    if (body.address !== undefined) next.address = mergeAddress(current.address, body.address);
    checkClient(next, body);
    if (body.store_id !== undefined && body.store_id !== current.store_id) next.store_id = await checkStoreId(trx, teamId, body.store_id);
    const changed = TRACKED.filter((f) => !sameJson(current[f], next[f]));
    if (changed.length === 0) return { state: current, previous: {} };
    const stamp = isoNow(clock);
    next.updated_at = toApiTimestamp(stamp);
    const patch: ClientUpdate = { ...columnsOf(next), updated_at: stamp };
    if (current.status === 'inactive') patch.deactivated_at = null;
    await repo.updateClient(trx, teamId, current.id, patch);
    const previous = Object.fromEntries(changed.filter((f) => f !== 'municipal_registration').map((f) => [f, current[f]]));
    await recordEvents(trx, teamId, [{ type: 'client.updated', object: toClientView(next), previous }], stamp);
    if (changed.includes('name') || changed.includes('segment')) await ai?.refreshClientDeals(trx, teamId, current.id);
    return { state: next, previous };
  }

  /** A page of the list. */
  async function listRead(teamId: string, q: ClientListInput) {
    const page = pageOf(q.page, q.limit);
    const sort = parseSort(q.sort, CLIENT_SORT_FIELDS);
    const { rows, total } = await reads.list<ClientStateRow>(CLIENTS, teamScope(teamId), {
      filters: { type: q.type, segment: q.segment, store_id: q.store_id },
      status: q.status,
      search: q.search,
      sort,
      page,
    });
    return { data: rows.map((r) => toClientListItem(toClientState(r))), pagination: paginationOf(page, total) };
  }

  return {
    async list(teamId: string, q: ClientListInput): Promise<{ data: ClientListView[]; pagination: Pagination }> {
      const { data, pagination } = await listRead(teamId, q);
      return { data, pagination };
    },

    async get(teamId: string, rawId: string): Promise<ClientView> {
      const id = canonicalId(rawId);
      const row = id ? (await reads.byId<ClientStateRow>(CLIENTS, teamScope(teamId), id)).row : undefined;
      if (!row) throw notFound(messages.clientNotFound);
      return toClientView(toClientState(row));
    },

    async create(teamId: string, input: ClientCreateInput, options: WriteOptions<ClientView> = {}): Promise<ClientView> {
      const { state, stamp } = newClient(input);
      return guardDuplicates(() =>
        k.transaction().execute(async (trx) => {
          await insertNew(trx, teamId, state, stamp);
          const client = toClientView(state);
          await options.inTransaction?.(trx, client);
          return client;
        }),
      );
    },

    /**
     * POST /clients inside the caller's transaction (a lead's): the same checks, row and event. A
     * CPF/CNPJ taken meanwhile surfaces as the database's unique violation, for the caller to handle.
     */
    async createIn(trx: Trx, teamId: string, input: ClientCreateInput): Promise<ClientView> {
      const { state, stamp } = newClient(input);
      await insertNew(trx, teamId, state, stamp);
      return toClientView(state);
    },

    /** A client read inside the caller's transaction (row-locked when `lock`: PostgreSQL), as GET answers it. */
    async findIn(trx: Trx, teamId: string, id: string, lock = false): Promise<ClientView> {
      const row = await (lock ? repo.findClientForUpdate(trx, teamId, id) : repo.findClient(trx, teamId, id));
      if (!row) throw notFound(messages.clientNotFound);
      return toClientView(toClientState(row));
    },

    /** Applies a PUT; an inactive client is reactivated by any valid field. */
    async update(teamId: string, rawId: string, body: ClientUpdateInput): Promise<ClientUpdateResult> {
      const sent = CLIENT_UPDATABLE.filter((f) => body[f] !== undefined);
      if (sent.length === 0) throw validationError(messages.noFieldToUpdate);
      const change = await guardDuplicates(() => k.transaction().execute((trx) => updateIn(trx, teamId, rawId, body)));
      return { client: toClientView(change.state), previous: change.previous, state: change.state, sent };
    },

    /** A PUT's change inside the caller's transaction (a lead filling in contact fields): the same checks, row and event. */
    async updateIn(trx: Trx, teamId: string, id: string, body: ClientUpdateInput): Promise<ClientView> {
      return toClientView((await updateIn(trx, teamId, id, body)).state);
    },

    /** DELETE: deactivates; deleting an inactive client again answers with its original deactivated_at. */
    async deactivate(teamId: string, rawId: string): Promise<ClientDeactivateResult> {
      return k.transaction().execute(async (trx) => {
        const current = await loadForUpdate(trx, teamId, rawId);
        if (current.status === 'inactive') {
          const row = await repo.findClient(trx, teamId, current.id);
          return { client: toClientView(current), previous: {}, deactivatedAt: toApiTimestamp(row?.deactivated_at ?? current.updated_at) };
        }
        const stamp = isoNow(clock);
        await repo.updateClient(trx, teamId, current.id, { status: 'inactive', deactivated_at: stamp, updated_at: stamp });
        const deactivatedAt = toApiTimestamp(stamp);
        const client = toClientView({ ...current, status: 'inactive', updated_at: deactivatedAt });
        const previous = { status: 'active' as const };
        await recordEvents(trx, teamId, [{ type: 'client.deactivated', object: client, previous }], stamp);
        return { client, previous, deactivatedAt };
      });
    },
  };
}

export type ClientsService = ReturnType<typeof createClientsService>;
