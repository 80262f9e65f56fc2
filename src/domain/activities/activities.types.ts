import type { Priority } from '../deals/deals.types.js';
import type { ListInput } from '../shared/list.types.js';

export const ACTIVITY_TYPES = ['task', 'deadline', 'meeting', 'call', 'email', 'note'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export const ACTIVITY_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];

/** Open activities can still become due soon or overdue. */
export const OPEN_ACTIVITY_STATUSES = ['pending', 'in_progress'] as const satisfies readonly ActivityStatus[];

export const ACTIVITY_SORT_FIELDS = ['due_at', 'created_at', 'updated_at', 'title', 'priority', 'status', 'type'] as const;
export type ActivitySortField = (typeof ACTIVITY_SORT_FIELDS)[number];

export interface ActivityCreateInput {
  type: ActivityType;
  title: string;
  description?: string | null;
  priority?: Priority;
  /** ISO 8601 timestamp; required except for `note`. */
  due_at?: string | null;
  deal_id?: string | null;
  client_id?: string | null;
  vehicle_id?: string | null;
  responsible_id?: string | null;
}

/** PUT: any subset; `status` moves between `pending` and `in_progress` (completing and cancelling have their own operations). */
export interface ActivityUpdateInput extends Partial<ActivityCreateInput> {
  status?: ActivityStatus;
}

export interface ActivityListInput extends ListInput {
  status?: ActivityStatus;
  type?: ActivityType;
  priority?: Priority;
  deal_id?: string;
  client_id?: string;
  vehicle_id?: string;
  responsible_id?: string;
  /** Due day bounds, `YYYY-MM-DD` (UTC days), inclusive. */
  due_from?: string;
  due_to?: string;
}

export interface ActivityView {
  id: string;
  type: ActivityType;
  title: string;
  description: string | null;
  status: ActivityStatus;
  priority: Priority;
  due_at: string | null;
  deal_id: string | null;
  client_id: string | null;
  vehicle_id: string | null;
  responsible_id: string | null;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
}

export const ACTIVITY_UPDATABLE = [
  'type',
  'title',
  'description',
  'status',
  'priority',
  'due_at',
  'deal_id',
  'client_id',
  'vehicle_id',
  'responsible_id',
] as const satisfies ReadonlyArray<keyof ActivityUpdateInput & keyof ActivityView>;
export type ActivityField = (typeof ACTIVITY_UPDATABLE)[number];

export interface ActivityChange {
  activity: ActivityView;
  /** Earlier values of the attributes that changed (empty when nothing did). */
  previous: Partial<ActivityView>;
}
