import type { ActivityRow } from '../../storage/database.js';
import { toApiTimestamp, toApiTimestampOrNull } from '../shared/time.js';
import type { ActivityView } from './activities.types.js';

export function toActivityView(row: ActivityRow): ActivityView {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    description: row.description,
    status: row.status,
    priority: row.priority,
    due_at: toApiTimestampOrNull(row.due_at),
    deal_id: row.deal_id,
    client_id: row.client_id,
    vehicle_id: row.vehicle_id,
    responsible_id: row.responsible_id,
    completed_at: toApiTimestampOrNull(row.completed_at),
    created_at: toApiTimestamp(row.created_at),
    updated_at: toApiTimestamp(row.updated_at),
  };
}
