import { duplicateEntry, messages, notFound, validationError } from '../../errors.js';
import {
  ADDRESS_MEMBERS,
  CLIENT_SORT_FIELDS,
  PF_ONLY,
  PJ_ONLY,
  type ClientCreateInput,
  type ClientListInput,
  type ClientUpdateInput,
} from '../../http/schemas/clients.schema.js';
import type { Db } from '../../storage/db.js';
import type { ClientUpdate, NewClientRow } from '../../storage/database.js';
import { uniqueViolationIndex } from '../../storage/unique-violation.js';
import { canonicalId, newId } from '../shared/ids.js';
import { pageOf, paginationOf, parseSort, sameJson, type Pagination } from '../shared/list-query.js';
import { fromCents, toCents } from '../shared/money.js';
import { isValidCnpj, isValidCpf, normalizeTaxId } from '../shared/tax-id.js';
import { foldText, searchDocument } from '../shared/text-search.js';
import { nowIso, toApiTimestamp } from '../shared/time.js';
import { pick, toClientListItem, toClientState, toClientView, type Address, type ClientListView, type ClientState, type ClientView } from './clients.mapper.js';
import type { Static } from 'typebox';
import type { ClientUpdated } from '../../http/schemas/responses.schema.js';
import { recordEvents } from '../events/events.repository.js';
import * as repo from './clients.repository.js';

type Kdb = Db['kysely'];

/** Fields a PUT may send: every field accepted on create. */
export const CLIENT_UPDATABLE = [
  'type',
  'name',
  'display_name',
  'email',
  'phone',
  'mobile_phone',
  'whatsapp',
  'cpf',
  'rg',
  'birth_date',
  'gender',
  'marital_status',
  'nationality',
  'cnpj',
  'legal_name',
  'trade_name',
  'state_registration',
  'municipal_registration',
  'segment',
  'source',
  'store_id',
  'address',
  'notes',
  'tags',
  'credit_limit',
] as const satisfies ReadonlyArray<keyof ClientUpdateInput & keyof ClientState>;
type Field = (typeof CLIENT_UPDATABLE)[number];

/** Attributes compared to decide whether a PUT changed anything (all but the timestamps). */
const TRACKED = [...CLIENT_UPDATABLE, 'status'] as const;

export interface ClientChange {
  client: ClientView;
  previous: Partial<ClientState>;
}

const EMPTY_ADDRESS = Object.fromEntries(ADDRESS_MEMBERS.map((m) => [m, null])) as Address;

function checkFieldsApply(type: 'PF' | 'PJ', body: Partial<Record<Field, unknown>>) {
  const foreign = type === 'PF' ? PJ_ONLY : PF_ONLY;
  const wrong = foreign.find((f) => body[f] !== undefined && body[f] !== null);
  if (wrong) throw validationError(`Campo '${wrong}' não se aplica a clientes do tipo ${type}`, wrong);
}

function checkTaxIds(state: Pick<ClientState, 'cpf' | 'cnpj'>) {
  if (state.cpf !== null && !isValidCpf(state.cpf)) throw validationError(messages.cpfInvalid, 'cpf');
  if (state.cnpj !== null && !isValidCnpj(state.cnpj)) throw validationError(messages.cnpjInvalid, 'cnpj');
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

export function createClientsService(db: Db) {
  const k = db.kysely;
  const lockRows = db.dialect === 'postgres';

  /** `forUpdate`: writers lock the row (PostgreSQL) so concurrent updates compute from the row they replace; reads never do. */
  async function load(trx: Kdb, teamId: string, rawId: string, forUpdate = lockRows) {
    const id = canonicalId(rawId);
    const row = id ? await repo.findClient(trx, teamId, id, { forUpdate }) : undefined;
    if (!row) throw notFound(messages.clientNotFound);
    return toClientState(row);
  }

  return {
    async list(teamId: string, q: ClientListInput): Promise<{ data: ClientListView[]; pagination: Pagination }> {
      const page = pageOf(q.page, q.limit);
      const sort = parseSort(q.sort, CLIENT_SORT_FIELDS);
      const { rows, total } = await repo.listClients(
        k,
        db.dialect,
        teamId,
        { type: q.type, status: q.status, segment: q.segment, store_id: q.store_id, search: q.search },
        sort,
        page,
      );
      return { data: rows.map((r) => toClientListItem(toClientState(r))), pagination: paginationOf(page, total) };
    },

    async get(teamId: string, rawId: string): Promise<ClientView> {
      return toClientView(await load(k, teamId, rawId, false));
    },

    async create(teamId: string, input: ClientCreateInput): Promise<ClientView> {
      checkFieldsApply(input.type, input);
      const now = toApiTimestamp(nowIso());
      const state: ClientState = {
        ...(Object.fromEntries(CLIENT_UPDATABLE.map((f) => [f, input[f] ?? null])) as Pick<ClientState, Field>),
        id: newId(),
        type: input.type,
        name: input.name,
        tags: input.tags ?? [],
        address: input.address ? mergeAddress(null, input.address) : null,
        status: 'active',
        created_at: now,
        updated_at: now,
      };
      checkTaxIds(state);
      state.credit_limit = fromCents(creditCents(state.credit_limit));
      const stamp = nowIso();
      const client = toClientView({ ...state, created_at: toApiTimestamp(stamp), updated_at: toApiTimestamp(stamp) });
      await guardDuplicates(() =>
        k.transaction().execute(async (trx) => {
          await repo.insertClient(trx, { ...columnsOf(state), id: state.id, team_id: teamId, created_at: stamp, updated_at: stamp });
          await recordEvents(trx, teamId, [{ type: 'client.created', object: client, previous: null }]);
        }),
      );
      return client;
    },

    /** Applies a PUT; an inactive client is reactivated by any valid field. */
    async update(teamId: string, rawId: string, body: ClientUpdateInput): Promise<ClientChange & { response: Static<typeof ClientUpdated> }> {
      const sent = CLIENT_UPDATABLE.filter((f) => body[f] !== undefined);
      if (sent.length === 0) throw validationError(messages.noFieldToUpdate);
      const change = await guardDuplicates(() =>
        k.transaction().execute(async (trx) => {
          const current = await load(trx, teamId, rawId);
          if (body.type !== undefined && body.type !== current.type) throw validationError("Campo 'type' não pode ser alterado", 'type');
          checkFieldsApply(current.type, body);
          const next: ClientState = { ...current, status: 'active' };
          for (const field of sent) (next as unknown as Record<string, unknown>)[field] = body[field];
          if (body.address !== undefined) next.address = mergeAddress(current.address, body.address);
          next.credit_limit = fromCents(creditCents(next.credit_limit));
          checkTaxIds(next);
          const changed = TRACKED.filter((f) => !sameJson(current[f], next[f]));
          if (changed.length === 0) return { state: current, previous: {} };
          const stamp = nowIso();
          next.updated_at = toApiTimestamp(stamp);
          const patch: ClientUpdate = { ...columnsOf(next), updated_at: stamp };
          if (current.status === 'inactive') patch.deactivated_at = null;
          await repo.updateClient(trx, teamId, current.id, patch);
          const previous = Object.fromEntries(changed.filter((f) => f !== 'municipal_registration').map((f) => [f, current[f]]));
          await recordEvents(trx, teamId, [{ type: 'client.updated', object: toClientView(next), previous }]);
          return { state: next, previous };
        }),
      );
      // municipal_registration is write-only: it never appears in a response.
      const fields = ['id', ...sent.filter((f) => f !== 'municipal_registration'), ...('status' in change.previous ? ['status'] : []), 'updated_at'];
      return { client: toClientView(change.state), previous: change.previous, response: pick(change.state, fields) as Static<typeof ClientUpdated> };
    },

    /** DELETE: deactivates; deleting an inactive client again answers with its original deactivated_at. */
    async deactivate(teamId: string, rawId: string): Promise<ClientChange & { deactivatedAt: string }> {
      return k.transaction().execute(async (trx) => {
        const current = await load(trx, teamId, rawId);
        if (current.status === 'inactive') {
          const row = await repo.findClient(trx, teamId, current.id);
          return { client: toClientView(current), previous: {}, deactivatedAt: toApiTimestamp(row?.deactivated_at ?? current.updated_at) };
        }
        const stamp = nowIso();
        await repo.updateClient(trx, teamId, current.id, { status: 'inactive', deactivated_at: stamp, updated_at: stamp });
        const deactivatedAt = toApiTimestamp(stamp);
        const client = toClientView({ ...current, status: 'inactive', updated_at: deactivatedAt });
        const previous = { status: 'active' as const };
        await recordEvents(trx, teamId, [{ type: 'client.deactivated', object: client, previous }]);
        return { client, previous, deactivatedAt };
      });
    },
  };
}

export type ClientsService = ReturnType<typeof createClientsService>;
