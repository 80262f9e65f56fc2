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
