import { useMutation, useQuery } from '@tanstack/react-query';
import type { BoardSource } from '../ui/board/useBoard';
import { client, page, params, unwrap } from './client';
import { keysOf, useChanged } from './resources';
import type { DealCard, DealChanges, DealFilters, DealInput, DealWin } from './types';

export const dealKeys = keysOf('deals');

export interface DealBoardFilters {
  search: string;
  responsible_id: string;
  source: string;
}

/** The deals board, fed to the generic Board. */
export function dealsBoard(filters: DealBoardFilters): BoardSource<DealCard> {
  const query = params(filters);
  return {
    key: dealKeys.board(query),
    columns: (perColumn) => unwrap(client.GET('/panel/api/deals/board', { params: { query: { ...query, per_column: perColumn } } })),
    column: (phase, offset, limit) => unwrap(client.GET('/panel/api/deals/board/{phase}', { params: { path: { phase }, query: { ...query, offset, limit } } })),
    move: (id, phase) => unwrap(client.PUT('/panel/api/deals/{id}', { params: { path: { id } }, body: { phase } })),
    changed: 'deals',
  };
}

export function useDealList(filters: DealFilters, enabled = true) {
  const query = params(filters);
  return useQuery({
    queryKey: dealKeys.list(query),
    queryFn: () => page(client.GET('/panel/api/deals', { params: { query } })),
    placeholderData: (prev) => prev,
    enabled,
  });
}

export function useDeal(id: string | null) {
  return useQuery({
    queryKey: dealKeys.one(id),
    queryFn: () => unwrap(client.GET('/panel/api/deals/{id}', { params: { path: { id: id ?? '' } } })),
    enabled: id !== null,
  });
}

/** Why the deal's win probability is what it is: the factors that raise and lower it most (its dialog). */
export function useDealProbability(id: string | null, enabled = true) {
  return useQuery({
    queryKey: dealKeys.part('probability', id),
    queryFn: () => unwrap(client.GET('/panel/api/deals/{id}/probability', { params: { path: { id: id ?? '' } } })),
    enabled: id !== null && enabled,
  });
}

/** The team's win-probability model with its held-out metrics (Settings → Probabilidade); null when never trained. */
export function useProbabilityModel() {
  return useQuery({ queryKey: dealKeys.part('model'), queryFn: () => unwrap(client.GET('/panel/api/ai/model')) });
}

/** Create (no id) or change a deal; refreshes every deal query and what a deal changes. */
export function useSaveDeal() {
  const changed = useChanged('deals');
  return useMutation({
    mutationFn: ({ id, body }: { id?: string | undefined; body: DealInput | DealChanges }) =>
      id
        ? unwrap(client.PUT('/panel/api/deals/{id}', { params: { path: { id } }, body: body }))
        : unwrap(client.POST('/panel/api/deals', { body: body as DealInput })),
    onSuccess: changed,
  });
}

export function useArchiveDeal() {
  const changed = useChanged('deals');
  return useMutation({
    mutationFn: (id: string) => client.DELETE('/panel/api/deals/{id}', { params: { path: { id } } }),
    onSuccess: changed,
  });
}

/** Wins a deal with the car sold (null: none) and the final value; the car is sold in the same transaction. */
export function useWinDeal() {
  const changed = useChanged('deals');
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: DealWin }) => unwrap(client.POST('/panel/api/deals/{id}/win', { params: { path: { id } }, body })),
    onSuccess: changed,
  });
}
