export const WEBHOOK_STATUSES = ['enabled', 'disabled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** The public shape of a webhook: never the secret. */
export interface WebhookView {
  id: string;
  team_id: string;
  url: string;
  events: string[];
  status: WebhookStatus;
  disabled_reason: string | null;
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
  /** What the endpoint is for, as its owner wrote it (panel); null when none. */
  description: string | null;
}

/** One line of a webhook's attempt log. */
export interface AttemptView {
  event_id: string;
  event_type: string;
  attempt: number;
  attempted_at: string;
  status_code: number | null;
  error_class: string | null;
  duration_ms: number;
  response_body: string | null;
  next_attempt_at: string | null;
}

export interface CreateWebhookInput {
  teamId: string;
  url: string;
  /** Event types; empty or absent: every type. */
  events?: string[];
  description?: string | null;
}

export interface UpdateWebhookInput {
  url?: string;
  events?: string[];
  description?: string | null;
}
