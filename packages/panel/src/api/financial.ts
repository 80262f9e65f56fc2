import { useMutation, useQuery } from '@tanstack/react-query';
import { client, page, params, unwrap } from './client';
import { keysOf, useChanged } from './resources';
import type { FinancialFilters, FinancialInput, FinancialPayment } from './types';

export const financialKeys = keysOf('financial');

export function useFinancialList(filters: FinancialFilters, enabled = true) {
  const query = params(filters);
  return useQuery({
    queryKey: financialKeys.list(query),
    queryFn: () => page(client.GET('/panel/api/financial', { params: { query } })),
    placeholderData: (prev) => prev,
    enabled,
  });
}

export function useFinancialSummary(period: { from: string; to: string }) {
  const query = params(period);
  return useQuery({
    queryKey: financialKeys.part('summary', query),
    queryFn: () => unwrap(client.GET('/panel/api/financial/summary', { params: { query } })),
  });
}

export function useCreateFinancial() {
  const changed = useChanged('financial');
  return useMutation({
    mutationFn: (body: FinancialInput) => unwrap(client.POST('/panel/api/financial', { body })),
    onSuccess: changed,
  });
}

export function usePayFinancial() {
  const changed = useChanged('financial');
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: FinancialPayment }) =>
      unwrap(client.POST('/panel/api/financial/{id}/pay', { params: { path: { id } }, body })),
    onSuccess: changed,
  });
}
