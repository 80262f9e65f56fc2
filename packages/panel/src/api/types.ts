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
  name: string;
  alert_email: string | null;
  time_zone: string | null;
}

export interface Member extends User {
  active: boolean;
  created_at?: string;
  last_sign_in_at?: string | null;
}

export interface InvitedMember extends Member {
  set_password_url?: string;
}

export interface PasswordLink {
  email: string;
  name: string;
}

export interface ApiKey {
  id: string;
  name: string;
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
  area: string;
  label: string;
}

export interface Webhook {
  id: string;
  url: string;
  description: string | null;
  /** `['*']` (or empty) means every event. */
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: string | null;
  success_rate: number | null;
  last_delivery_at: string | null;
  last_delivery_status: string | null;
  created_at?: string;
  updated_at?: string;
}

export interface CreatedWebhook extends Webhook {
  secret?: string;
}

export interface WebhookInput {
  url: string;
  description: string | null;
  events: string[];
  enabled?: boolean;
}

export interface DeliveryAttempt {
  attempted_at?: string;
  at?: string;
  status_code: number | null;
  duration_ms: number | null;
  response_excerpt?: string | null;
  error?: string | null;
}

export interface Delivery {
  id: string;
  event_id?: string;
  event_type: string;
  status: string;
  created_at: string;
  attempts: DeliveryAttempt[];
  attempt_count?: number;
  next_attempt_at?: string | null;
}

export interface Phase {
  name: string;
  probability?: number | null;
  in_use?: number;
}

export type BoardName = 'deals' | 'vehicles';

export interface Pagination {
  page?: number;
  limit?: number;
  total?: number;
  total_pages?: number;
  has_more?: boolean;
}

export interface ErrorBody {
  error: { code: string; message: string; field?: string; details?: unknown };
}
