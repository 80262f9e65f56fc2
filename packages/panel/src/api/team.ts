import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from './client';
import { keysOf, useChanged, type After } from './resources';
import type { TeamInput, TeamSettings } from './types';

export const teamKeys = keysOf('team');

export function useTeam() {
  return useQuery({ queryKey: teamKeys.all, queryFn: () => unwrap(client.GET('/panel/api/team')) });
}

/** Saves the team; the top bar's name comes from the session, which a team change refreshes. */
export function useSaveTeam(after: After<TeamSettings, TeamInput> = {}) {
  const qc = useQueryClient();
  const changed = useChanged('team');
  return useMutation({
    mutationFn: (body: TeamInput) => unwrap(client.PUT('/panel/api/team', { body })),
    onSuccess: (t, v) => {
      qc.setQueryData(teamKeys.all, t);
      changed();
      after.onSuccess?.(t, v);
    },
    onError: after.onError,
  });
}
