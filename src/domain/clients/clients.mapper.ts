import type { ClientRow } from '../../storage/database.js';
import { fromCents } from '../shared/money.js';
import { toApiTimestamp } from '../shared/time.js';
import type { Address, ClientListView, ClientState, ClientView } from './clients.types.js';

const CONTACT = ['id', 'type', 'name', 'display_name', 'email', 'phone', 'mobile_phone', 'whatsapp'] as const;
const LIST_TAIL = ['segment', 'status', 'store_id', 'created_at'] as const;
const FULL_TAIL = ['segment', 'source', 'status', 'store_id', 'address', 'notes', 'tags', 'credit_limit', 'created_at', 'updated_at'] as const;
const PF_FIELDS = ['cpf', 'rg', 'birth_date', 'gender', 'marital_status', 'nationality'] as const;
const PJ_FIELDS = ['cnpj', 'legal_name', 'trade_name', 'state_registration'] as const;

/** Which attributes each response shape carries; PF and PJ have their own field sets. */
export const CLIENT_SHAPES = {
  PF: { list: [...CONTACT, 'cpf', ...LIST_TAIL], full: [...CONTACT, ...PF_FIELDS, ...FULL_TAIL] },
  PJ: { list: [...CONTACT, 'cnpj', 'legal_name', 'trade_name', ...LIST_TAIL], full: [...CONTACT, ...PJ_FIELDS, ...FULL_TAIL] },
} as const;

/** The columns {@link toClientState} reads: GET /clients/:id reads only these (not search_text, name_key, the normalized tax ids…). */
export const CLIENT_STATE_COLUMNS = [
  'id',
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
  'status',
  'store_id',
  'address',
  'notes',
  'tags',
  'credit_limit_cents',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof ClientRow>;

/** What {@link toClientState} reads. */
export type ClientStateRow = Pick<ClientRow, (typeof CLIENT_STATE_COLUMNS)[number]>;

export function toClientState(row: ClientStateRow): ClientState {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    display_name: row.display_name,
    email: row.email,
    phone: row.phone,
    mobile_phone: row.mobile_phone,
    whatsapp: row.whatsapp,
    cpf: row.cpf,
    rg: row.rg,
    birth_date: row.birth_date,
    gender: row.gender,
    marital_status: row.marital_status,
    nationality: row.nationality,
    cnpj: row.cnpj,
    legal_name: row.legal_name,
    trade_name: row.trade_name,
    state_registration: row.state_registration,
    municipal_registration: row.municipal_registration,
    segment: row.segment,
    source: row.source,
    status: row.status,
    store_id: row.store_id,
    address: row.address === null ? null : (JSON.parse(row.address) as Address),
    notes: row.notes,
    tags: JSON.parse(row.tags) as string[],
    credit_limit: fromCents(row.credit_limit_cents),
    created_at: toApiTimestamp(row.created_at),
    updated_at: toApiTimestamp(row.updated_at),
  };
}

export function pick<T extends object>(state: T, fields: readonly string[]): Partial<T> {
  return Object.fromEntries(fields.map((f) => [f, (state as Record<string, unknown>)[f]])) as Partial<T>;
}

/** The response shapes (PF or PJ): the type's fields picked from the state. */
export const toClientView = (state: ClientState): ClientView => pick(state, CLIENT_SHAPES[state.type].full) as ClientView;
export const toClientListItem = (state: ClientState): ClientListView => pick(state, CLIENT_SHAPES[state.type].list) as ClientListView;
