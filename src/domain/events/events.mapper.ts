import type { EventRow } from '../../storage/database.js';
import { toApiTimestamp } from '../shared/time.js';
import { API_VERSION } from './event-types.js';

/** A webhook's event list (JSON); empty means every type. */
export function subscribes(eventsJson: string, type: string): boolean {
  const types = JSON.parse(eventsJson) as string[];
  return types.length === 0 || types.includes(type);
}

/** The delivery body of the contract's Events part, in its field order. */
export function eventPayload(event: EventRow, webhookId: string): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    api_version: API_VERSION,
    created_at: toApiTimestamp(event.created_at),
    data: {
      object: JSON.parse(event.object) as unknown,
      previous_attributes: event.previous_attributes === null ? null : (JSON.parse(event.previous_attributes) as unknown),
    },
    team_id: event.team_id,
    webhook_id: webhookId,
  });
}
