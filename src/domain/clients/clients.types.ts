import type { ListInput } from '../shared/list.types.js';

export const CLIENT_TYPES = ['PF', 'PJ'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

export const CLIENT_STATUSES = ['active', 'inactive'] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];

export const SEGMENTS = ['vip', 'premium', 'regular', 'occasional'] as const;
export type Segment = (typeof SEGMENTS)[number];

export const GENDERS = ['masculino', 'feminino', 'outro'] as const;
export type Gender = (typeof GENDERS)[number];

export const CLIENT_SORT_FIELDS = ['created_at', 'updated_at', 'name', 'segment', 'status', 'type'] as const;
export type ClientSortField = (typeof CLIENT_SORT_FIELDS)[number];

export const ADDRESS_MEMBERS = ['street', 'number', 'complement', 'neighborhood', 'city', 'state', 'zip_code', 'country'] as const;
export type Address = Record<(typeof ADDRESS_MEMBERS)[number], string | null>;

/** Fields that only make sense for one client type; sending them for the other type is a 400. */
export const PF_ONLY = ['cpf', 'rg', 'birth_date', 'gender', 'marital_status', 'nationality'] as const;
export const PJ_ONLY = ['cnpj', 'legal_name', 'trade_name', 'state_registration', 'municipal_registration'] as const;

/** What POST /clients and PUT /clients/:id may send (PUT: any subset; `address` may be partial). */
export interface ClientFields {
  type: ClientType;
  name: string;
  display_name?: string | null;
  email?: string | null;
  phone?: string | null;
  mobile_phone?: string | null;
  whatsapp?: string | null;
  cpf?: string | null;
  rg?: string | null;
  birth_date?: string | null;
  gender?: Gender | null;
  marital_status?: string | null;
  nationality?: string | null;
  cnpj?: string | null;
  legal_name?: string | null;
  trade_name?: string | null;
  state_registration?: string | null;
  municipal_registration?: string | null;
  segment?: Segment | null;
  source?: string | null;
  store_id?: string | null;
  address?: Partial<Record<(typeof ADDRESS_MEMBERS)[number], string | null>> | null;
  notes?: string | null;
  tags?: string[];
  credit_limit?: number | null;
}

export type ClientCreateInput = ClientFields;
export type ClientUpdateInput = Partial<ClientFields>;

export interface ClientListInput extends ListInput {
  type?: ClientType;
  status?: ClientStatus;
  segment?: Segment;
}

/** Every attribute of a client, including the write-only municipal_registration. */
export interface ClientState {
  id: string;
  type: ClientType;
  name: string;
  display_name: string | null;
  email: string | null;
  phone: string | null;
  mobile_phone: string | null;
  whatsapp: string | null;
  cpf: string | null;
  rg: string | null;
  birth_date: string | null;
  gender: string | null;
  marital_status: string | null;
  nationality: string | null;
  cnpj: string | null;
  legal_name: string | null;
  trade_name: string | null;
  state_registration: string | null;
  municipal_registration: string | null;
  segment: string | null;
  source: string | null;
  status: ClientStatus;
  store_id: string | null;
  address: Address | null;
  notes: string | null;
  tags: string[];
  credit_limit: number | null;
  created_at: string;
  updated_at: string;
}

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
export type ClientField = (typeof CLIENT_UPDATABLE)[number];

interface Contact {
  id: string;
  name: string;
  display_name: string | null;
  email: string | null;
  phone: string | null;
  mobile_phone: string | null;
  whatsapp: string | null;
}
interface Classification {
  segment: Segment | null;
  status: ClientStatus;
  store_id: string | null;
}
interface Details {
  source: string | null;
  address: Address | null;
  notes: string | null;
  tags: string[];
  credit_limit: number | null;
}
interface PfOnly {
  cpf: string | null;
  rg: string | null;
  birth_date: string | null;
  gender: Gender | null;
  marital_status: string | null;
  nationality: string | null;
}
interface PjOnly {
  cnpj: string | null;
  legal_name: string | null;
  trade_name: string | null;
  state_registration: string | null;
}
interface Stamps {
  created_at: string;
  updated_at: string;
}

/** A client as GET /clients/:id returns it: PF and PJ have their own field sets (never municipal_registration). */
export type ClientView =
  (Contact & { type: 'PF' } & PfOnly & Classification & Details & Stamps) | (Contact & { type: 'PJ' } & PjOnly & Classification & Details & Stamps);

/** A client as GET /clients lists it. */
export type ClientListView =
  | (Contact & { type: 'PF'; cpf: string | null } & Classification & { created_at: string })
  | (Contact & { type: 'PJ'; cnpj: string | null; legal_name: string | null; trade_name: string | null } & Classification & { created_at: string });

export interface ClientChange {
  client: ClientView;
  /** Earlier values of the attributes that changed (empty when nothing did). */
  previous: Partial<ClientState>;
}

/** A PUT's outcome: also the state after it (every field, for the answer) and the fields the body sent. */
export interface ClientUpdateResult extends ClientChange {
  state: ClientState;
  sent: readonly ClientField[];
}

/** A DELETE's outcome: the deactivated client and when it was deactivated (the first time). */
export interface ClientDeactivateResult extends ClientChange {
  deactivatedAt: string;
}
