import type { ResourceDescription } from '../reads/resource.js';
import type { FinancialSortField } from './financial.types.js';

export type FinancialFilterName = 'overdueAt' | 'type' | 'category' | 'payment_method' | 'deal_id' | 'client_id' | 'vehicle_id' | 'dueFrom' | 'dueTo';

/** Financial records, as the read planner reads them (reads/resource.ts). */
export const FINANCIAL_RECORDS: ResourceDescription<FinancialFilterName, FinancialSortField> = {
  table: 'financial_records',
  columns: [
    'id',
    'team_id',
    'type',
    'category',
    'description',
    'amount_cents',
    'due_date',
    'overdue_at',
    'status',
    'paid_at',
    'payment_method',
    'deal_id',
    'client_id',
    'vehicle_id',
    'notes',
    'cancelled_at',
    'created_at',
    'updated_at',
  ],
  sort: {
    due_date: { column: 'due_date' },
    created_at: { column: 'created_at' },
    updated_at: { column: 'updated_at' },
    amount: { column: 'amount_cents' },
    status: { column: 'status' },
    type: { column: 'type' },
    category: { column: 'category' },
    paid_at: { column: 'paid_at', nullable: true },
  },
  filters: {
    // The overdue list: pending records whose due date ended by this instant.
    overdueAt: { column: 'overdue_at', op: '<=', statusIn: ['pending'] },
    type: { column: 'type', op: '=' },
    category: { column: 'category', op: '=' },
    payment_method: { column: 'payment_method', op: '=' },
    deal_id: { column: 'deal_id', op: '=' },
    client_id: { column: 'client_id', op: '=' },
    vehicle_id: { column: 'vehicle_id', op: '=' },
    dueFrom: { column: 'due_date', op: '>=' },
    dueTo: { column: 'due_date', op: '<=' },
  },
  // Cancelled records are soft-deleted: listed only when asked for by status.
  listed: { column: 'status', rule: { notEquals: 'cancelled' }, counted: false },
  search: { column: 'search_text' },
};
