import type { FinancialRow } from '../../storage/database.js';
import { fromCents } from '../shared/money.js';
import { toApiTimestamp, toApiTimestampOrNull } from '../shared/time.js';
import type { FinancialCategory, FinancialView, PaymentMethod } from './financial.types.js';

export function toFinancialView(row: FinancialRow): FinancialView {
  return {
    id: row.id,
    type: row.type,
    category: row.category as FinancialCategory,
    description: row.description,
    amount: fromCents(Number(row.amount_cents))!,
    currency: 'BRL',
    due_date: row.due_date,
    status: row.status,
    paid_at: toApiTimestampOrNull(row.paid_at),
    payment_method: row.payment_method as PaymentMethod | null,
    deal_id: row.deal_id,
    client_id: row.client_id,
    vehicle_id: row.vehicle_id,
    notes: row.notes,
    created_at: toApiTimestamp(row.created_at),
    updated_at: toApiTimestamp(row.updated_at),
  };
}
