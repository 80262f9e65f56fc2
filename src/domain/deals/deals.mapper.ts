import type { DealRow } from '../../storage/database.js';
import { fromCents } from '../shared/money.js';
import { toApiTimestamp } from '../shared/time.js';
import type { DealView } from './deals.types.js';

export type DealRowWithClient = DealRow & { client_name: string | null };

/** The columns a deal's answer is made of: lists read only these (not search_text, title_key…). */
export const DEAL_VIEW_COLUMNS = [
  'id',
  'title',
  'description',
  'value_cents',
  'phase',
  'priority',
  'probability',
  'status',
  'expected_close_date',
  'source',
  'loss_reason',
  'tags',
  'is_starred',
  'store_id',
  'client_id',
  'responsible_id',
  'case_id',
  'created_at',
  'updated_at',
  'ai_win_probability',
  'ai_summary',
] as const satisfies ReadonlyArray<keyof DealRow>;

/** What {@link toDealView} reads. */
export type DealViewRow = Pick<DealRow, (typeof DEAL_VIEW_COLUMNS)[number]> & { client_name: string | null };

export function toDealView(row: DealViewRow): DealView {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    value: fromCents(row.value_cents),
    currency: 'BRL',
    phase: row.phase,
    priority: row.priority,
    probability: row.probability,
    status: row.status,
    expected_close_date: row.expected_close_date,
    source: row.source,
    loss_reason: row.loss_reason,
    tags: JSON.parse(row.tags) as string[],
    is_starred: Boolean(row.is_starred),
    store_id: row.store_id,
    client_id: row.client_id,
    client: row.client_id && row.client_name !== null ? { id: row.client_id, name: row.client_name } : null,
    responsible_id: row.responsible_id,
    case_id: row.case_id,
    ai_summary: row.ai_summary,
    ai_win_probability: row.ai_win_probability,
    created_at: toApiTimestamp(row.created_at),
    updated_at: toApiTimestamp(row.updated_at),
  };
}
