// Shapes of the panel's JSON routes (/panel/api), written by hand from the route contract until the
// server publishes /panel/api/openapi.json; then `npm run panel:generate` writes schema.d.ts and these
// become aliases of the generated types.

export type Role = 'owner' | 'manager' | 'seller';

export interface User {
  id: string;
  email: string;
  name: string;
  role: Role;
}

export interface Team {
  id: string;
  name: string;
  plan?: string;
  time_zone?: string | null;
  alert_email?: string | null;
}

export interface Session {
  user: User;
  team: Team;
  csrf_token: string;
}

export interface TeamSettings {
  id?: string;
  name: string;
  plan?: string;
  alert_email: string | null;
  /** Absent until the teams carry a time zone. */
  time_zone?: string | null;
  created_at?: string;
}

export interface Member extends User {
  team_id?: string;
  active: boolean;
  /** False until an invited person follows their link and chooses a password. */
  has_password?: boolean;
  deactivated_at?: string | null;
  created_at?: string;
  updated_at?: string;
}

export interface InvitedMember extends Member {
  set_password_url?: string;
  set_password_expires_at?: string;
}

export interface PasswordLinkAnswer {
  set_password_url: string;
  set_password_expires_at: string;
}

export interface PasswordLink {
  email: string;
  name: string;
}

export interface ApiKey {
  id: string;
  name: string | null;
  prefix: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface CreatedApiKey extends ApiKey {
  key: string;
}

export interface Scope {
  scope: string;
  label: string;
}

export interface EventType {
  type: string;
  /** deal, client, vehicle, activity, financial */
  area: string;
  area_label?: string;
  label: string;
  /** False for kinds the contract announces that nothing emits yet. */
  emitted?: boolean;
}

export interface Webhook {
  id: string;
  url: string;
  description: string | null;
  /** Empty means every kind, present and future. */
  events: string[];
  enabled: boolean;
  status?: 'enabled' | 'disabled';
  /** Why it is disabled (manually, or after repeated failures). */
  disabled_reason: string | null;
  disabled_at: string | null;
  /** Share (0 to 1) of the deliveries finished in the last 30 days that succeeded; null when none finished. */
  success_rate: number | null;
  last_delivery_at: string | null;
  /** HTTP status of the latest attempt; null without an answer (or without an attempt). */
  last_delivery_status: number | null;
  last_delivery_ok?: boolean | null;
  created_at?: string;
  updated_at?: string;
}

export interface CreatedWebhook extends Webhook {
  secret?: string;
}

export interface WebhookInput {
  url?: string;
  description?: string | null;
  events?: string[];
  enabled?: boolean;
}

export interface DeliveryAttempt {
  attempt?: number;
  attempted_at: string;
  status_code: number | null;
  /** timeout, refused, tls…: why there was no usable answer. */
  error_class: string | null;
  duration_ms: number | null;
  /** The start of the answer body. */
  response_body: string | null;
  next_attempt_at?: string | null;
}

export interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts_count: number;
  next_attempt_at: string | null;
  last_attempt_at?: string | null;
  completed_at?: string | null;
  created_at: string;
  attempts: DeliveryAttempt[];
}

export interface Recovered {
  webhook_id: string;
  queued: number;
}

export interface Phase {
  name: string;
  probability?: number | null;
  in_use?: number;
}

export type BoardName = 'deals' | 'vehicles';

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  pages: number;
}

export interface ErrorBody {
  error: { code: string; message: string; field?: string; details?: unknown };
}
