import type { ClientView } from '../clients/clients.types.js';
import type { DealView } from '../deals/deals.types.js';

/** How a team's leads find their responsible (DECISIONS.md, Leads). */
export const LEAD_DISTRIBUTIONS = ['round_robin', 'fixed', 'none'] as const;
export type LeadDistribution = (typeof LEAD_DISTRIBUTIONS)[number];

export const DEFAULT_RESPONSE_MINUTES = 15;
export const MAX_RESPONSE_MINUTES = 1440;
export const MAX_EXTERNAL_ID_LENGTH = 100;
/** A lead joins the client's deal created this many days ago or later (same car, or same source without one). */
export const DUPLICATE_WINDOW_DAYS = 30;

/** POST /leads. */
export interface LeadInput {
  name: string;
  email?: string | null;
  phone?: string | null;
  mobile_phone?: string | null;
  whatsapp?: string | null;
  cpf?: string | null;
  cnpj?: string | null;
  message?: string | null;
  source?: string | null;
  vehicle_id?: string | null;
  plate?: string | null;
  store_id?: string | null;
  value?: number | null;
  tags?: string[];
  external_id?: string | null;
  trade_in?: string | null;
  wants_financing?: boolean | null;
}

/** POST /leads's answer. */
export interface LeadResult {
  deal: DealView;
  client: ClientView;
  client_created: boolean;
  duplicate: boolean;
  responsible_id: string | null;
}

/** The answer and its status: 201 when a deal was created, 200 for a duplicate or a repeated source + external_id. */
export interface LeadOutcome {
  status: 200 | 201;
  result: LeadResult;
}

/** A team's lead settings (Settings -> Leads, `autosales teams settings`). */
export interface LeadSettings {
  distribution: LeadDistribution;
  /** The `fixed` mode's user. */
  user_id: string | null;
  /** Minutes after arrival the "Responder lead" call is due; past it a lead is late. */
  response_minutes: number;
}

export interface LeadSettingsInput {
  distribution?: string;
  user_id?: string | null;
  response_minutes?: number;
}

/** A lead deal nobody answered yet, as the board shows it above its columns. */
export interface WaitingLead {
  deal_id: string;
  title: string;
  value: number | null;
  phase: string;
  client: { id: string; name: string } | null;
  responsible: { id: string; name: string } | null;
  received_at: string;
  /** Whole minutes since arrival, by the server's clock. */
  waiting_minutes: number;
  /** Waiting for the team's response target or longer. */
  late: boolean;
}

export interface WaitingLeads {
  response_minutes: number;
  items: WaitingLead[];
}

/** A lead assigned to the signed-in person that they have not opened yet. */
export interface LeadNotice {
  id: string;
  deal_id: string;
  title: string;
  client_name: string | null;
  source: string | null;
  received_at: string;
  /** Whole minutes since arrival, by the server's clock. */
  waiting_minutes: number;
}

export interface LeadNotices {
  count: number;
  items: LeadNotice[];
}

/** Days (YYYY-MM-DD) in the team's time zone, both included. */
export interface LeadPeriod {
  from: string;
  to: string;
}

export interface SellerLeadStats {
  /** Null: the leads nobody was assigned. */
  responsible: { id: string; name: string } | null;
  received: number;
  answered: number;
  answered_within_target: number;
  /** Minutes, one decimal; null when none was answered. */
  median_response_minutes: number | null;
  /** Percent, one decimal, of the leads whose outcome is known (answered, or waiting past the target); null when none. */
  within_target_rate: number | null;
}

export interface LeadResponseStats extends LeadPeriod {
  response_minutes: number;
  sellers: SellerLeadStats[];
}
