import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from './client';
import { keysOf } from './resources';

/** The team's loss reasons live with its boards (Settings -> Quadros). */
const key = keysOf('phases').part('loss-reasons');

/** What the panel offers when a deal is lost; "Outro" (free text) always comes after them. */
export function useLossReasons() {
  return useQuery({
    queryKey: key,
    queryFn: async () => (await unwrap(client.GET('/panel/api/loss-reasons'))).reasons,
    staleTime: 60_000,
  });
}

export function useSaveLossReasons() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (reasons: string[]) => (await unwrap(client.PUT('/panel/api/loss-reasons', { body: { reasons } }))).reasons,
    onSuccess: (saved) => qc.setQueryData(key, saved),
  });
}
