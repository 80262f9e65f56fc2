import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Timestamps are written as ISO strings; PostgreSQL hands back Date, SQLite the string. */
export type Timestamp = ColumnType<Date | string, string, string>;

export interface TeamTable {
  id: string;
  name: string;
  plan: 'starter' | 'professional' | 'autoshopping';
  alert_email: string | null;
  created_at: Timestamp;
  /** IANA time zone (migration 0006; default America/Sao_Paulo). */
  time_zone: ColumnType<string, string | undefined, string>;
  /** Leads (migration 0016): how they are distributed, to whom when `fixed`, and the response target. */
  lead_distribution: ColumnType<'round_robin' | 'fixed' | 'none', 'round_robin' | 'fixed' | 'none' | undefined, 'round_robin' | 'fixed' | 'none'>;
  lead_user_id: ColumnType<string | null, string | null | undefined, string | null>;
  lead_response_minutes: ColumnType<number, number | undefined, number>;
  /** The loss reasons the panel offers, a JSON array of labels; null: the defaults (migration 0017). */
  loss_reasons: ColumnType<string | null, string | null | undefined, string | null>;
  /** Stores (migration 0018): one client book for the team or one per store, and whether sellers see only their own deals. */
  client_book: ColumnType<'shared' | 'per_store', 'shared' | 'per_store' | undefined, 'shared' | 'per_store'>;
  seller_visibility: ColumnType<'all' | 'own', 'all' | 'own' | undefined, 'all' | 'own'>;
}

/** A store of the team (migration 0018). */
export interface StoreTable {
  id: string;
  team_id: string;
  name: string;
  name_key: string;
  cnpj: string | null;
  cnpj_normalized: string | null;
  phone: string | null;
  whatsapp: string | null;
  email: string | null;
  /** JSON: the Address object, as clients store it. */
  address: string | null;
  status: 'active' | 'inactive';
  search_text: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** What a migration left for the operator (migration 0018). */
export interface MigrationNoteTable {
  migration: string;
  note: string;
  created_at: Timestamp;
}

export interface TeamPhaseTable {
  team_id: string;
  name: string;
  position: number;
  probability: number;
  /** What the panel shows (migration 0013); `name` is what the API reads and writes. */
  label: Generated<string>;
}

export interface ApiKeyTable {
  id: string;
  team_id: string;
  name: string | null;
  /** First characters of the key, safe to show in listings. */
  prefix: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  key_hash: string;
  scopes: string;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  /** Last authenticated request (recorded at most once a minute per key); migration 0007. */
  last_used_at: Timestamp | null;
  /** The store the key is bound to; null: the whole team (migration 0018). */
  store_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface DealTable {
  id: string;
  team_id: string;
  title: string;
  description: string | null;
  value_cents: number | null;
  currency: string;
  phase: string;
  priority: 'alta' | 'media' | 'baixa';
  priority_rank: number;
  probability: number;
  status: 'ativo' | 'ganho' | 'perdido' | 'arquivado';
  expected_close_date: string | null;
  source: string | null;
  loss_reason: string | null;
  tags: string;
  is_starred: ColumnType<boolean | number, number, number>;
  store_id: string | null;
  client_id: string | null;
  responsible_id: string | null;
  case_id: string | null;
  /** Lower-cased, accent-stripped title + description: accent-insensitive search on both databases. */
  search_text: string;
  /** Lower-cased, accent-stripped title: a collation-independent sort key. */
  title_key: string;
  archived_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Issue 28 (migration 0014): written only by the AI refresh, never by a deal's own write. */
  ai_win_probability: ColumnType<number | null, number | null | undefined, number | null>;
  ai_summary: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the deal entered its phase (null before migration 0014 until a refresh derives it). */
  phase_changed_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
  /** Migration 0016: when the lead that opened the deal arrived, and when the deal was first answered. */
  lead_received_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
  lead_responded_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
}

/** Per team: its win-probability model and the lease of its training (migration 0014). */
export interface AiModelTable {
  team_id: string;
  version: number;
  trained_at: Timestamp | null;
  closed_deals: number;
  training_rows: number;
  training_ms: number;
  /** 'model', 'phase' (the model did not beat the phase's probability) or 'none' (under 40 closed deals). */
  used: 'model' | 'phase' | 'none';
  /** JSON StoredModel (domain/ai/ai.types.ts), null when used is 'none'. */
  model: string | null;
  /** JSON ModelMetrics, null when used is 'none'. */
  metrics: string | null;
  lease_until: Timestamp | null;
  lease_token: string | null;
}

export interface ClientTable {
  id: string;
  team_id: string;
  type: 'PF' | 'PJ';
  name: string;
  display_name: string | null;
  email: string | null;
  phone: string | null;
  mobile_phone: string | null;
  whatsapp: string | null;
  cpf: string | null;
  cpf_normalized: string | null;
  rg: string | null;
  birth_date: string | null;
  gender: string | null;
  marital_status: string | null;
  nationality: string | null;
  cnpj: string | null;
  cnpj_normalized: string | null;
  legal_name: string | null;
  trade_name: string | null;
  state_registration: string | null;
  municipal_registration: string | null;
  segment: string | null;
  source: string | null;
  status: 'active' | 'inactive';
  store_id: string | null;
  /** JSON object of the address members, or null. */
  address: string | null;
  notes: string | null;
  tags: string;
  credit_limit_cents: number | null;
  search_text: string;
  name_key: string;
  /** Migration 0016: what a lead matches (storage/contact-keys.ts), written with the contact fields. */
  email_key: ColumnType<string | null, string | null | undefined, string | null>;
  phone_key: ColumnType<string | null, string | null | undefined, string | null>;
  mobile_phone_key: ColumnType<string | null, string | null | undefined, string | null>;
  whatsapp_key: ColumnType<string | null, string | null | undefined, string | null>;
  deactivated_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EventTable {
  id: string;
  team_id: string;
  type: string;
  /** JSON: the record as GET returns it, after the change. */
  object: string;
  /** JSON: earlier values of the changed attributes, or null on creation. */
  previous_attributes: string | null;
  created_at: Timestamp;
}

export interface WebhookTable {
  id: string;
  team_id: string;
  url: string;
  /** JSON array of event types; empty means every type. */
  events: string;
  /** HMAC signing secret: needed in clear to sign, never logged or listed. */
  secret: string;
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  disabled_at: Timestamp | null;
  last_success_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Free text shown in the panel; migration 0007. */
  description: string | null;
  /** The store whose events it receives; null: the whole team (migration 0018). */
  store_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface DeliveryTable {
  id: string;
  team_id: string;
  webhook_id: string;
  event_id: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: Timestamp | null;
  lease_until: Timestamp | null;
  lease_token: string | null;
  /** The exact bytes sent, fixed at the first attempt so retries are identical. */
  body: string | null;
  first_attempt_at: Timestamp | null;
  last_attempt_at: Timestamp | null;
  completed_at: Timestamp | null;
  created_at: Timestamp;
}

export interface DeliveryAttemptTable {
  id: string;
  delivery_id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  attempted_at: Timestamp;
  status_code: number | null;
  error_class: string | null;
  duration_ms: number;
  response_body: string | null;
  next_attempt_at: Timestamp | null;
}

export interface IdempotencyKeyTable {
  team_id: string;
  key: string;
  /** SHA-256 of method, route and body: a retry must be the same request. */
  fingerprint: string;
  status: 'processing' | 'completed';
  status_code: number | null;
  response_body: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A phase of a team's vehicle board (migration 0005), apart from the deal pipeline in team_phases. */
export interface VehiclePhaseTable {
  team_id: string;
  name: string;
  position: number;
  /** What the panel shows (migration 0013). */
  label: Generated<string>;
}

export interface VehicleTable {
  id: string;
  team_id: string;
  title: string;
  brand: string;
  model: string;
  version: string | null;
  /** As sent; `plate_key` is the canonical (Mercosul) form the unique index holds. */
  plate: string | null;
  plate_key: string | null;
  /** As sent; `renavam_key` is the 11-digit form. */
  renavam: string | null;
  renavam_key: string | null;
  /** As sent; `chassis_key` is upper-cased. */
  chassis: string | null;
  chassis_key: string | null;
  manufacture_year: number | null;
  model_year: number | null;
  mileage: number | null;
  color: string | null;
  fuel: string | null;
  transmission: string | null;
  body_type: string | null;
  doors: number | null;
  condition: 'novo' | 'seminovo' | 'usado';
  fipe_code: string | null;
  price_cents: number | null;
  purchase_price_cents: number | null;
  phase: string;
  status: 'ativo' | 'vendido' | 'arquivado';
  sold_at: Timestamp | null;
  description: string | null;
  /** JSON arrays of strings. */
  features: string;
  tags: string;
  store_id: string | null;
  /** Folded title, brand, model, version, plate forms and chassis. */
  search_text: string;
  title_key: string;
  brand_key: string;
  model_key: string;
  archived_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Rows per team, table and status, summed over slots; kept by triggers (migration 0004). */
export interface RecordCountTable {
  team_id: string;
  resource: 'deals' | 'clients' | 'vehicles';
  status: string;
  slot: number;
  n: number;
}

/** Per team, board and phase: `ativo` records and a sum over them (migration 0009). */
export interface BoardTotalTable {
  team_id: string;
  board: 'deals' | 'vehicles';
  phase: string;
  slot: number;
  n: number;
  /** Deals: value in cents; vehicles: entry time in epoch seconds. */
  total: number;
}

/** Vehicles per team, status and price bucket (migration 0011): exact totals of price ranges. */
export interface VehiclePriceCountTable {
  team_id: string;
  status: string;
  /** floor(price_cents / PRICE_BUCKET_CENTS). */
  bucket: number;
  slot: number;
  n: number;
}

export interface TeamPreviewTable {
  team_id: string;
  area: string;
  enabled_at: Timestamp;
}

export interface ActivityTable {
  id: string;
  team_id: string;
  type: 'task' | 'deadline' | 'meeting' | 'call' | 'email' | 'note';
  title: string;
  description: string | null;
  status: 'pending' | 'in_progress' | 'completed' | 'cancelled';
  priority: 'alta' | 'media' | 'baixa';
  priority_rank: number;
  due_at: Timestamp | null;
  deal_id: string | null;
  client_id: string | null;
  vehicle_id: string | null;
  responsible_id: string | null;
  completed_at: Timestamp | null;
  cancelled_at: Timestamp | null;
  title_key: string;
  /** Migration 0018. */
  store_id: ColumnType<string | null, string | null | undefined, string | null>;
  search_text: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FinancialRecordTable {
  id: string;
  team_id: string;
  type: 'revenue' | 'expense' | 'cost';
  category: string;
  description: string;
  amount_cents: number;
  due_date: string;
  overdue_at: Timestamp;
  status: 'pending' | 'paid' | 'cancelled';
  paid_at: Timestamp | null;
  payment_method: string | null;
  deal_id: string | null;
  client_id: string | null;
  vehicle_id: string | null;
  notes: string | null;
  cancelled_at: Timestamp | null;
  /** Migration 0018. */
  store_id: ColumnType<string | null, string | null | undefined, string | null>;
  search_text: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One time-driven event of a record, armed for one due time (migration 0006). */
export interface ScheduledEventTable {
  id: string;
  team_id: string;
  subject_type: 'activity' | 'financial';
  subject_id: string;
  kind: string;
  due_key: string;
  fire_at: Timestamp;
  status: 'armed' | 'fired' | 'disarmed' | 'skipped';
  fired_at: Timestamp | null;
  event_id: string | null;
  updated_at: Timestamp;
}

export interface UserTable {
  id: string;
  team_id: string;
  /** Lower-cased and trimmed; unique across teams. */
  email: string;
  name: string;
  role: 'owner' | 'manager' | 'seller';
  /** Migration 0016: whether the round-robin gives them leads (on for sellers by default). */
  takes_leads: ColumnType<boolean | number, number | undefined, number>;
  /** `scrypt$…` (domain/users/password.ts); null until set through a password link. */
  /** The store the user is bound to; null: the whole team (migration 0018). */
  store_id: ColumnType<string | null, string | null | undefined, string | null>;
  password_hash: string | null;
  password_changed_at: Timestamp | null;
  deactivated_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionTable {
  id: string;
  /** SHA-256 (hex) of the cookie's token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  /** CSRF secret of this session: tokens are derived from it, so they die with the session. */
  csrf_secret: string;
  ip: string | null;
  user_agent: string | null;
}

export interface PasswordLinkTable {
  id: string;
  /** SHA-256 (hex) of the link's token. */
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** Panel test events, each addressed to one webhook only (migration 0007). */
export interface WebhookTestEventTable {
  event_id: string;
  webhook_id: string;
}

/** Every lead received and the answer it got (migration 0016). */
export interface LeadTable {
  id: string;
  team_id: string;
  source: string;
  external_id: string | null;
  deal_id: string | null;
  client_id: string | null;
  client_created: ColumnType<boolean | number, number, number>;
  duplicate: ColumnType<boolean | number, number, number>;
  responsible_id: string | null;
  store_id: string | null;
  answer: string | null;
  received_at: Timestamp;
  seen_at: Timestamp | null;
}

/** The round-robin's place per pool of people (a store's id, or '' for the team's own). */
export interface LeadCursorTable {
  team_id: string;
  pool: string;
  last_user_id: string | null;
  turns: ColumnType<number | string, number, number>;
}

export interface Database {
  stores: StoreTable;
  migration_notes: MigrationNoteTable;
  leads: LeadTable;
  lead_cursors: LeadCursorTable;
  users: UserTable;
  sessions: SessionTable;
  password_links: PasswordLinkTable;
  webhook_test_events: WebhookTestEventTable;
  team_previews: TeamPreviewTable;
  activities: ActivityTable;
  financial_records: FinancialRecordTable;
  scheduled_events: ScheduledEventTable;
  record_counts: RecordCountTable;
  board_totals: BoardTotalTable;
  vehicle_price_counts: VehiclePriceCountTable;
  idempotency_keys: IdempotencyKeyTable;
  events: EventTable;
  webhooks: WebhookTable;
  deliveries: DeliveryTable;
  delivery_attempts: DeliveryAttemptTable;
  teams: TeamTable;
  team_phases: TeamPhaseTable;
  api_keys: ApiKeyTable;
  deals: DealTable;
  ai_models: AiModelTable;
  clients: ClientTable;
  vehicles: VehicleTable;
  vehicle_phases: VehiclePhaseTable;
}

export type TeamRow = Selectable<TeamTable>;
export type NewTeamRow = Insertable<TeamTable>;
export type ApiKeyRow = Selectable<ApiKeyTable>;
export type NewApiKeyRow = Insertable<ApiKeyTable>;
export type DealRow = Selectable<DealTable>;
export type AiModelRow = Selectable<AiModelTable>;
export type NewDealRow = Insertable<DealTable>;
export type DealUpdate = Updateable<DealTable>;
export type ClientRow = Selectable<ClientTable>;
export type NewClientRow = Insertable<ClientTable>;
export type ClientUpdate = Updateable<ClientTable>;
export type EventRow = Selectable<EventTable>;
export type WebhookRow = Selectable<WebhookTable>;
export type DeliveryRow = Selectable<DeliveryTable>;
export type DeliveryAttemptRow = Selectable<DeliveryAttemptTable>;
export type VehicleRow = Selectable<VehicleTable>;
export type NewVehicleRow = Insertable<VehicleTable>;
export type VehicleUpdate = Updateable<VehicleTable>;
export type ActivityRow = Selectable<ActivityTable>;
export type NewActivityRow = Insertable<ActivityTable>;
export type ActivityUpdate = Updateable<ActivityTable>;
export type FinancialRow = Selectable<FinancialRecordTable>;
export type NewFinancialRow = Insertable<FinancialRecordTable>;
export type FinancialUpdate = Updateable<FinancialRecordTable>;
export type ScheduledEventRow = Selectable<ScheduledEventTable>;
export type UserRow = Selectable<UserTable>;
export type LeadRow = Selectable<LeadTable>;
export type SessionRow = Selectable<SessionTable>;
export type PasswordLinkRow = Selectable<PasswordLinkTable>;
