/** Every event kind of the contract. */
export const EVENT_TYPES = [
  'vehicle.created',
  'vehicle.updated',
  'vehicle.sold',
  'vehicle.phase_changed',
  'vehicle.price_changed',
  'vehicle.removed',
  'deal.created',
  'deal.updated',
  'deal.phase_changed',
  'deal.won',
  'deal.lost',
  'client.created',
  'client.updated',
  'client.deactivated',
  'activity.created',
  'activity.completed',
  'activity.due_soon',
  'activity.overdue',
  'financial.created',
  'financial.paid',
  'financial.overdue',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const API_VERSION = 'v1';

/**
 * Kinds the contract announces that nothing in the service emits yet. The OpenAPI document marks
 * them (`x-emitted: false` and a sentence in the description); the change that starts emitting a
 * kind removes it from this list.
 */
export const NOT_YET_EMITTED: ReadonlySet<EventType> = new Set<EventType>([]);
