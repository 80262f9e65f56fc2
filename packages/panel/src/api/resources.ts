import { useQueryClient, type QueryClient } from '@tanstack/react-query';

/** The panel's cached resources: every query key starts with one of these. */
export type Resource =
  | 'session'
  | 'deals'
  | 'vehicles'
  | 'clients'
  | 'activities'
  | 'financial'
  | 'dashboard'
  | 'people'
  | 'phases'
  | 'team'
  | 'users'
  | 'keys'
  | 'scopes'
  | 'event-types'
  | 'webhooks'
  | 'password-links'
  | 'leads';

/**
 * A resource's query keys, derived from its name, so invalidating `[resource]` reaches every list,
 * board and record of it.
 */
export function keysOf<R extends Resource>(resource: R) {
  return {
    all: [resource] as const,
    list: (filters: object = {}) => [resource, 'list', filters] as const,
    board: (filters: object = {}) => [resource, 'board', filters] as const,
    one: (id: string | null) => [resource, 'one', id] as const,
    part: (...rest: readonly unknown[]) => [resource, ...rest] as const,
  };
}

/**
 * What a change to a resource also changes (the one place that says so): a write of the panel and an
 * event seen by the live poll both invalidate the resource and these. The dashboard reads every area.
 */
const ALSO_CHANGES: Partial<Record<Resource, readonly Resource[]>> = {
  // A lead arrives as a deal: the notices and the response times follow deals.
  deals: ['clients', 'vehicles', 'financial', 'dashboard', 'leads'],
  vehicles: ['financial', 'dashboard'],
  clients: ['deals', 'dashboard'],
  activities: ['deals', 'clients', 'dashboard', 'leads'],
  financial: ['clients', 'vehicles', 'dashboard'],
  phases: ['deals', 'vehicles', 'dashboard'],
  team: ['session'],
  // A lead's settings and who takes leads show on the people's list.
  leads: ['users'],
};

export function invalidate(qc: QueryClient, resources: Iterable<Resource>): void {
  const all = new Set<Resource>();
  for (const r of resources) {
    all.add(r);
    for (const other of ALSO_CHANGES[r] ?? []) all.add(other);
  }
  for (const r of all) void qc.invalidateQueries({ queryKey: [r] });
}

/** `changed()` after a write: refreshes what the write changes. */
export function useChanged(resource: Resource): () => void {
  const qc = useQueryClient();
  return () => invalidate(qc, [resource]);
}

/** The resource behind an event type's area (`deal.phase_changed` -> deals). */
export const EVENT_AREAS: Record<string, Resource> = {
  deal: 'deals',
  vehicle: 'vehicles',
  client: 'clients',
  activity: 'activities',
  financial: 'financial',
};

/** What a page adds to a write's own refresh: a toast, closing a dialog. */
export interface After<T, V> {
  onSuccess?: (data: T, variables: V) => void;
  onError?: (err: Error) => void;
}
