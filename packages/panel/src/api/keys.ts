import { useMutation, useQuery } from '@tanstack/react-query';
import { client, unwrap } from './client';
import { keysOf, useChanged, type After } from './resources';
import type { CreatedApiKey } from './types';

export const apiKeyKeys = keysOf('keys');

export function useApiKeys() {
  return useQuery({ queryKey: apiKeyKeys.all, queryFn: () => unwrap(client.GET('/panel/api/keys')) });
}

/** The scopes a key may have, with their Portuguese labels. */
export function useScopes() {
  return useQuery({ queryKey: keysOf('scopes').all, queryFn: () => unwrap(client.GET('/panel/api/scopes')), staleTime: Infinity });
}

type NewKey = { name: string; scopes: string[] };

export function useCreateApiKey(after: After<CreatedApiKey, NewKey> = {}) {
  const changed = useChanged('keys');
  return useMutation({
    mutationFn: (body: NewKey) => unwrap(client.POST('/panel/api/keys', { body })),
    onSuccess: (k, v) => {
      changed();
      after.onSuccess?.(k, v);
    },
    onError: after.onError,
  });
}

export function useRevokeApiKey(after: After<unknown, string> = {}) {
  const changed = useChanged('keys');
  return useMutation({
    mutationFn: (id: string) => client.DELETE('/panel/api/keys/{id}', { params: { path: { id } } }),
    onSuccess: (d, v) => {
      changed();
      after.onSuccess?.(d, v);
    },
    onError: after.onError,
  });
}
