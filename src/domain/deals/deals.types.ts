import type { VehicleView } from '../vehicles/vehicles.types.js';
import type { ListInput } from '../shared/list.types.js';

export const PRIORITIES = ['alta', 'media', 'baixa'] as const;
export type Priority = (typeof PRIORITIES)[number];

export const DEAL_STATUSES = ['ativo', 'ganho', 'perdido', 'arquivado'] as const;
export type DealStatus = (typeof DEAL_STATUSES)[number];

export const DEAL_SORT_FIELDS = ['created_at', 'updated_at', 'title', 'value', 'probability', 'expected_close_date', 'priority', 'phase', 'status'] as const;
export type DealSortField = (typeof DEAL_SORT_FIELDS)[number];

/** POST /deals: only the title is required. */
export interface DealCreateInput {
  title: string;
  description?: string | null;
  value?: number | null;
  phase?: string;
  priority?: Priority;
  probability?: number;
  expected_close_date?: string | null;
  client_id?: string | null;
  responsible_id?: string | null;
  source?: string | null;
  store_id?: string | null;
  case_id?: string | null;
  tags?: string[];
}

/** PUT /deals/:id: any subset, plus what only an existing deal has. */
export interface DealUpdateInput extends Partial<DealCreateInput> {
  status?: DealStatus;
  loss_reason?: string | null;
  is_starred?: boolean;
}

export interface DealListInput extends ListInput {
  status?: DealStatus;
  phase?: string;
  client_id?: string;
  responsible_id?: string;
  source?: string;
  min_value?: number;
  max_value?: number;
  /** Creation day bounds, `YYYY-MM-DD`, inclusive. */
  from?: string;
  to?: string;
}

/** The Deal of the contract, as GET /deals and GET /deals/:id return it. */
export interface DealView {
  id: string;
  title: string;
  description: string | null;
  value: number | null;
  currency: 'BRL';
  phase: string;
  priority: Priority;
  probability: number;
  status: DealStatus;
  expected_close_date: string | null;
  source: string | null;
  loss_reason: string | null;
  tags: string[];
  is_starred: boolean;
  store_id: string | null;
  client_id: string | null;
  client: { id: string; name: string } | null;
  responsible_id: string | null;
  case_id: string | null;
  /** Issue 28: kept fresh in the row by the AI refresh (src/domain/ai/ai-serving.service.ts); never written by the API. */
  ai_summary: string | null;
  ai_win_probability: number | null;
  created_at: string;
  updated_at: string;
}

/** Fields a PUT may change, in the contract's order. */
export const DEAL_UPDATABLE = [
  'title',
  'description',
  'value',
  'phase',
  'priority',
  'status',
  'probability',
  'expected_close_date',
  'responsible_id',
  'source',
  'client_id',
  'case_id',
  'loss_reason',
  'tags',
  'is_starred',
  'store_id',
] as const satisfies ReadonlyArray<keyof DealUpdateInput & keyof DealView>;
export type DealField = (typeof DEAL_UPDATABLE)[number];

export interface DealChange {
  deal: DealView;
  /** Earlier values of the attributes that changed (empty when nothing did). */
  previous: Partial<DealView>;
}

/** A PUT's outcome: the deal after it, what changed, and which fields the body sent. */
export interface DealUpdateResult extends DealChange {
  sent: readonly DealField[];
}

/** A DELETE's outcome: the archived deal and when it was archived (the first time). */
export interface DealArchiveResult extends DealChange {
  archivedAt: string;
}

/** The panel's win: the car sold (null: none) and the final value. */
export interface DealWinInput {
  vehicle_id: string | null;
  value: number;
}

/** A win's outcome: the deal, and the car it sold (null when none). */
export interface DealWinResult {
  deal: DealView;
  vehicle: VehicleView | null;
}

export const winMessages = {
  notActive: 'Só um negócio em andamento pode ser marcado como ganho',
  vehicleNotFound: 'Veículo não encontrado',
  vehicleNotInStock: 'Este veículo não está em estoque (vendido ou arquivado)',
} as const;
