export const WEBHOOK_STATUSES = ['enabled', 'disabled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** The public shape of a webhook: never the secret. */
export interface WebhookView {
  id: string;
  team_id: string;
  url: string;
  /** Free text for people (the panel, the preview API); null when none. */
  description: string | null;
  events: string[];
  status: WebhookStatus;
  disabled_reason: string | null;
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
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

/** One delivery of an event to a webhook, with every attempt (the panel's delivery log). */
export interface DeliveryLogEntry {
  id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts_count: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  completed_at: string | null;
  created_at: string;
  attempts: Array<Omit<AttemptView, 'event_id' | 'event_type'>>;
}

/** What the panel shows beside a webhook's configuration: its description and how it has been doing. */
export interface WebhookHealth {
  /** What the endpoint is for, as its owner wrote it (also on the webhook view itself); null when none. */
  description: string | null;
  /** Share of deliveries finished in the last 30 days that succeeded (0 to 1); null when none finished. */
  success_rate: number | null;
  last_delivery_at: string | null;
  /** HTTP status of the latest attempt; null when it got no answer (timeout, refused) or there was none. */
  last_delivery_status: number | null;
  /** The latest attempt's outcome: ok (2xx), failed, or null when there was none. */
  last_delivery_ok: boolean | null;
}
