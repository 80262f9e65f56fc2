import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client, page, unwrap } from './client';
import { keysOf, useChanged, type After } from './resources';
import type { CreatedWebhook, Recovered, RotatedWebhook, WebhookInput } from './types';

export const webhookKeys = {
  ...keysOf('webhooks'),
  deliveries: (id: string, n: number) => ['webhooks', 'one', id, 'deliveries', n] as const,
  secret: (id: string) => ['webhooks', 'one', id, 'secret'] as const,
};

const path = (id: string) => ({ params: { path: { id } } });

/** A write's own refresh (every webhook query), then what the page adds. */
function useAfter<T, V>(after: After<T, V>) {
  const changed = useChanged('webhooks');
  return {
    onSuccess: (d: T, v: V) => {
      changed();
      after.onSuccess?.(d, v);
    },
    onError: after.onError,
  };
}

export function useWebhooks() {
  return useQuery({ queryKey: webhookKeys.all, queryFn: () => unwrap(client.GET('/panel/api/webhooks')) });
}

export function useWebhook(id: string) {
  return useQuery({ queryKey: webhookKeys.one(id), queryFn: () => unwrap(client.GET('/panel/api/webhooks/{id}', path(id))) });
}

/** The event kinds a webhook may subscribe to, with their Portuguese labels. */
export function useEventTypes() {
  return useQuery({ queryKey: keysOf('event-types').all, queryFn: () => unwrap(client.GET('/panel/api/event-types')), staleTime: Infinity });
}

/** Create (no id) or change a webhook; a new one answers its secret once. */
export function useSaveWebhook(id: string | undefined, after: After<CreatedWebhook, WebhookInput> = {}) {
  return useMutation({
    mutationFn: (body: WebhookInput): Promise<CreatedWebhook> =>
      id
        ? (unwrap(client.PUT('/panel/api/webhooks/{id}', { ...path(id), body })) as Promise<CreatedWebhook>)
        : unwrap(client.POST('/panel/api/webhooks', { body: body as WebhookInput & { url: string } })),
    ...useAfter(after),
  });
}

export function useDeleteWebhook(id: string, after: After<unknown, void> = {}) {
  return useMutation({ mutationFn: () => client.DELETE('/panel/api/webhooks/{id}', path(id)), ...useAfter(after) });
}

export function useSendTestEvent(id: string, after: After<unknown, void> = {}) {
  return useMutation({ mutationFn: () => client.POST('/panel/api/webhooks/{id}/test', path(id)), ...useAfter(after) });
}

export function useWebhookSecret(id: string, enabled: boolean) {
  return useQuery({
    queryKey: webhookKeys.secret(id),
    queryFn: () => unwrap(client.GET('/panel/api/webhooks/{id}/secret', path(id))),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
}

export function useRotateSecret(id: string, after: After<RotatedWebhook, void> = {}) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(client.POST('/panel/api/webhooks/{id}/rotate-secret', path(id))),
    onSuccess: (r: RotatedWebhook) => {
      qc.removeQueries({ queryKey: webhookKeys.secret(id) });
      after.onSuccess?.(r);
    },
    onError: after.onError,
  });
}

/** A webhook's delivery log; deliveries move on their own (retries, new events), so it stays fresh on screen. */
export function useDeliveries(id: string, n: number, limit: number) {
  return useQuery({
    queryKey: webhookKeys.deliveries(id, n),
    queryFn: () => page(client.GET('/panel/api/webhooks/{id}/deliveries', { params: { path: { id }, query: { page: n, limit } } })),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });
}

export function useResendDelivery(id: string, after: After<unknown, string> = {}) {
  return useMutation({
    mutationFn: (deliveryId: string) => client.POST('/panel/api/webhooks/{id}/deliveries/{deliveryId}/resend', { params: { path: { id, deliveryId } } }),
    ...useAfter(after),
  });
}

export function useRecoverDeliveries(id: string, after: After<Recovered, string> = {}) {
  return useMutation({
    mutationFn: (since: string) => unwrap(client.POST('/panel/api/webhooks/{id}/recover', { ...path(id), body: { since } })),
    ...useAfter(after),
  });
}
