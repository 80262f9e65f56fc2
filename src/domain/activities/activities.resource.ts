import type { ResourceDescription } from '../reads/resource.js';
import type { ActivitySortField } from './activities.types.js';

export type ActivityFilterName = 'overdueAt' | 'type' | 'priority' | 'deal_id' | 'client_id' | 'vehicle_id' | 'responsible_id' | 'dueFrom' | 'dueBefore';

/** Activities, as the read planner reads them (reads/resource.ts). */
export const ACTIVITIES: ResourceDescription<ActivityFilterName, ActivitySortField> = {
  table: 'activities',
  columns: [
    'id',
    'team_id',
    'type',
    'title',
    'description',
    'status',
    'priority',
    'priority_rank',
    'due_at',
    'deal_id',
    'client_id',
    'vehicle_id',
    'responsible_id',
    'completed_at',
    'cancelled_at',
    'created_at',
    'updated_at',
  ],
  sort: {
    due_at: { column: 'due_at', nullable: true },
    created_at: { column: 'created_at' },
    updated_at: { column: 'updated_at' },
    title: { column: 'title_key' },
    priority: { column: 'priority_rank' },
    status: { column: 'status' },
    type: { column: 'type' },
  },
  filters: {
    // The overdue list: open activities due before this instant.
    overdueAt: { column: 'due_at', op: '<', statusIn: ['pending', 'in_progress'] },
    type: { column: 'type', op: '=' },
    priority: { column: 'priority', op: '=' },
    deal_id: { column: 'deal_id', op: '=' },
    client_id: { column: 'client_id', op: '=' },
    vehicle_id: { column: 'vehicle_id', op: '=' },
    responsible_id: { column: 'responsible_id', op: '=' },
    dueFrom: { column: 'due_at', op: '>=' },
    dueBefore: { column: 'due_at', op: '<' },
  },
  // Cancelled activities are soft-deleted: listed only when asked for by status.
  listed: { column: 'status', rule: { notEquals: 'cancelled' }, counted: false },
  search: { column: 'search_text' },
};
