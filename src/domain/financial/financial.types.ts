import type { ListInput } from '../shared/list.types.js';

export const FINANCIAL_TYPES = ['revenue', 'expense', 'cost'] as const;
export type FinancialType = (typeof FINANCIAL_TYPES)[number];

/** Each type's categories (the contract's lists). */
export const FINANCIAL_CATEGORIES = {
  revenue: ['venda-veiculo', 'comissao', 'financiamento', 'seguro'],
  expense: ['aluguel', 'pessoal', 'marketing', 'tecnologia'],
  cost: ['funilaria', 'mecanica', 'higienizacao', 'documentacao'],
} as const satisfies Record<FinancialType, readonly string[]>;
export const ALL_FINANCIAL_CATEGORIES = [...new Set(Object.values(FINANCIAL_CATEGORIES).flat())];
export type FinancialCategory = (typeof FINANCIAL_CATEGORIES)[FinancialType][number];

export const FINANCIAL_STATUSES = ['pending', 'paid', 'cancelled'] as const;
export type FinancialStatus = (typeof FINANCIAL_STATUSES)[number];

export const PAYMENT_METHODS = ['pix', 'boleto', 'cartao', 'transferencia', 'financiamento', 'dinheiro', 'cheque'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** The category of a vehicle's sale (the revenue side of its margin). */
export const VEHICLE_SALE_CATEGORY = 'venda-veiculo';

export const FINANCIAL_SORT_FIELDS = ['due_date', 'created_at', 'updated_at', 'amount', 'status', 'type', 'category', 'paid_at'] as const;
export type FinancialSortField = (typeof FINANCIAL_SORT_FIELDS)[number];

export interface FinancialCreateInput {
  type: FinancialType;
  category: string;
  description: string;
  amount: number;
  /** `YYYY-MM-DD`. */
  due_date: string;
  status?: FinancialStatus;
  paid_at?: string | null;
  payment_method?: PaymentMethod | null;
  deal_id?: string | null;
  client_id?: string | null;
  vehicle_id?: string | null;
  notes?: string | null;
}

export type FinancialUpdateInput = Partial<FinancialCreateInput>;

/** What paying needs: the method always, the time when it is not now. */
export interface FinancialPayInput {
  payment_method: PaymentMethod;
  paid_at?: string | null;
}

export interface FinancialListInput extends ListInput {
  type?: FinancialType;
  category?: string;
  status?: FinancialStatus;
  payment_method?: PaymentMethod;
  deal_id?: string;
  client_id?: string;
  vehicle_id?: string;
  /** Due date bounds, `YYYY-MM-DD`, inclusive. */
  due_from?: string;
  due_to?: string;
}

export interface FinancialView {
  id: string;
  type: FinancialType;
  category: FinancialCategory;
  description: string;
  amount: number;
  currency: 'BRL';
  due_date: string;
  status: FinancialStatus;
  paid_at: string | null;
  payment_method: PaymentMethod | null;
  deal_id: string | null;
  client_id: string | null;
  vehicle_id: string | null;
  notes: string | null;
  created_at: string;
  updated_at: string;
}

export const FINANCIAL_UPDATABLE = [
  'type',
  'category',
  'description',
  'amount',
  'due_date',
  'status',
  'paid_at',
  'payment_method',
  'deal_id',
  'client_id',
  'vehicle_id',
  'notes',
] as const satisfies ReadonlyArray<keyof FinancialUpdateInput & keyof FinancialView>;
export type FinancialField = (typeof FINANCIAL_UPDATABLE)[number];

export interface FinancialChange {
  record: FinancialView;
  previous: Partial<FinancialView>;
}

export interface MoneyCount {
  count: number;
  amount: number;
}

/** One direction's records not cancelled: paid, pending (not yet overdue) and overdue. */
export interface DirectionTotals {
  paid: MoneyCount;
  pending: MoneyCount;
  overdue: MoneyCount;
}

export interface FinancialSummary {
  period: { from: string; to: string };
  /** Sums of the records not cancelled. */
  totals: { revenue: number; expense: number; cost: number; net: number };
  /** `pending` counts only records not yet overdue; `overdue` the pending ones past the end of their due date. */
  by_status: { pending: MoneyCount; overdue: MoneyCount; paid: MoneyCount; cancelled: MoneyCount };
  /**
   * Money in (revenues) and money out (expenses and costs), each by status, never added together:
   * what was received, what is still to receive, what was paid, what is still to pay.
   */
  by_direction: { in: DirectionTotals; out: DirectionTotals };
  by_category: Array<{ type: FinancialType; category: FinancialCategory } & MoneyCount>;
  by_month: Array<{ month: string; revenue: number; expense: number; cost: number; net: number }>;
  by_vehicle: Array<{
    vehicle_id: string;
    /** Only when asked (the panel): the vehicle's title and plate. */
    title?: string | null;
    plate?: string | null;
    sale_revenue: number;
    purchase_price: number | null;
    costs: number;
    margin: number | null;
  }>;
}
