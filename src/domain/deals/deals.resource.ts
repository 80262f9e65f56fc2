import type { ResourceDescription } from '../reads/resource.js';
import { DEAL_VIEW_COLUMNS } from './deals.mapper.js';
import type { DealSortField } from './deals.types.js';

/** The list's filters (GET /deals and the panel's), by the names the service gives them. */
export type DealFilterName = 'phase' | 'client_id' | 'responsible_id' | 'source' | 'store_id' | 'minCents' | 'maxCents' | 'createdFrom' | 'createdBefore';

/** Deals, as the read planner reads them (reads/resource.ts). */
export const DEALS: ResourceDescription<DealFilterName, DealSortField> = {
  table: 'deals',
  columns: DEAL_VIEW_COLUMNS,
  clientName: true,
  sort: {
    created_at: { column: 'created_at' },
    updated_at: { column: 'updated_at' },
    title: { column: 'title_key' },
    value: { column: 'value_cents', nullable: true },
    probability: { column: 'probability' },
    expected_close_date: { column: 'expected_close_date', nullable: true },
    priority: { column: 'priority_rank' },
    // The pipeline order of the team's phases, not the alphabet.
    phase: { phasePosition: 'team_phases' },
    status: { column: 'status' },
  },
  filters: {
    phase: { column: 'phase', op: '=' },
    client_id: { column: 'client_id', op: '=' },
    responsible_id: { column: 'responsible_id', op: '=' },
    source: { column: 'source', op: '=' },
    store_id: { column: 'store_id', op: '=' },
    minCents: { column: 'value_cents', op: '>=' },
    maxCents: { column: 'value_cents', op: '<=' },
    createdFrom: { column: 'created_at', op: '>=' },
    createdBefore: { column: 'created_at', op: '<' },
  },
  // Archived deals are soft-deleted: listed only when asked for by status.
  listed: { column: 'status', rule: { notEquals: 'arquivado' }, counted: true },
  search: { column: 'search_text', sqliteIndex: 'deals_fts' },
  board: {
    phases: 'team_phases',
    // Most valuable first (deals_team_phase_value_idx).
    cardOrder: { column: 'value_cents', direction: 'desc', nullable: true },
    cardColumns: ['id', 'title', 'value_cents', 'priority', 'phase', 'status', 'client_id', 'responsible_id', 'updated_at', 'ai_win_probability'],
    totals: 'deals',
  },
};
