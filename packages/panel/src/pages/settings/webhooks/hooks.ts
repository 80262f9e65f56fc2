import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { EventType, Webhook } from '../../../api/types';

export const webhookKeys = {
  all: ['webhooks'] as const,
  one: (id: string) => ['webhooks', id] as const,
  deliveries: (id: string, page: number) => ['webhooks', id, 'deliveries', page] as const,
  secret: (id: string) => ['webhooks', id, 'secret'] as const,
};

export function useWebhooks() {
  return useQuery({ queryKey: webhookKeys.all, queryFn: () => api.get<Webhook[]>('/webhooks') });
}

export function useWebhook(id: string) {
  return useQuery({ queryKey: webhookKeys.one(id), queryFn: () => api.get<Webhook>(`/webhooks/${encodeURIComponent(id)}`) });
}

export function useEventTypes() {
  return useQuery({ queryKey: ['event-types'], queryFn: () => api.get<EventType[]>('/event-types'), staleTime: Infinity });
}

/** An empty list subscribes to every kind, present and future. */
export function isAllEvents(events: string[]): boolean {
  return events.length === 0;
}

export function eventsSummary(events: string[]): string {
  if (isAllEvents(events)) return 'Todos os eventos';
  return events.length === 1 ? '1 evento' : `${events.length} eventos`;
}
