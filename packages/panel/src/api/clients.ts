import { useMutation, useQuery } from '@tanstack/react-query';
import { client, page, params, unwrap } from './client';
import { keysOf, useChanged } from './resources';
import type { Client, ClientChanges, ClientFilters, ClientInput } from './types';

export const clientKeys = keysOf('clients');

export function useClientList(filters: ClientFilters, enabled = true) {
  const query = params(filters);
  return useQuery({
    queryKey: clientKeys.list(query),
    queryFn: () => page(client.GET('/panel/api/clients', { params: { query } })),
    placeholderData: (prev) => prev,
    enabled,
  });
}

/** A client with its deals, activities and financial records (the client page). */
export function useClientOverview(id: string) {
  return useQuery({
    queryKey: clientKeys.part('overview', id),
    queryFn: () => unwrap(client.GET('/panel/api/clients/{id}/overview', { params: { path: { id } } })),
  });
}

export function useSaveClient() {
  const changed = useChanged('clients');
  return useMutation({
    mutationFn: ({ id, body }: { id?: string | undefined; body: ClientInput | ClientChanges }) =>
      id
        ? unwrap(client.PUT('/panel/api/clients/{id}', { params: { path: { id } }, body: body }))
        : unwrap(client.POST('/panel/api/clients', { body: body as ClientInput })),
    onSuccess: changed,
  });
}

/** Deactivates an active client, reactivates an inactive one. */
export function useToggleClient() {
  const changed = useChanged('clients');
  return useMutation({
    mutationFn: async (c: Pick<Client, 'id' | 'status'>) => {
      if (c.status === 'active') await client.DELETE('/panel/api/clients/{id}', { params: { path: { id: c.id } } });
      else await client.POST('/panel/api/clients/{id}/reactivate', { params: { path: { id: c.id } } });
    },
    onSuccess: changed,
  });
}
