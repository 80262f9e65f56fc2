import { useMutation, useQuery } from '@tanstack/react-query';
import { client, page, params, unwrap } from './client';
import { keysOf, useChanged } from './resources';
import type { ActivityInput, AgendaFilters } from './types';

export const activityKeys = keysOf('activities');

export function useAgenda(filters: AgendaFilters) {
  const query = params(filters);
  return useQuery({
    queryKey: activityKeys.list(query),
    queryFn: () => page(client.GET('/panel/api/activities', { params: { query } })),
    placeholderData: (prev) => prev,
  });
}

export function useCreateActivity() {
  const changed = useChanged('activities');
  return useMutation({
    mutationFn: (body: ActivityInput) => unwrap(client.POST('/panel/api/activities', { body })),
    onSuccess: changed,
  });
}

export function useCompleteActivity() {
  const changed = useChanged('activities');
  return useMutation({
    mutationFn: (id: string) => unwrap(client.POST('/panel/api/activities/{id}/complete', { params: { path: { id } } })),
    onSuccess: changed,
  });
}
