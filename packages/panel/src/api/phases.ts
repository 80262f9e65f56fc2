import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { phaseLabel } from '../ui/format';
import { client, unwrap } from './client';
import { invalidate, keysOf } from './resources';
import type { BoardName, PhasesInput } from './types';

export const phaseKeys = keysOf('phases');

/** A board's phases in pipeline order (the forms' phase pickers and Settings -> Quadros). */
export function usePhases(board: BoardName) {
  return useQuery({
    queryKey: phaseKeys.part(board),
    queryFn: () => unwrap(client.GET('/panel/api/boards/{board}/phases', { params: { path: { board } } })),
    staleTime: 60_000,
  });
}

export function useReplacePhases(board: BoardName) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (phases: PhasesInput['phases']) => unwrap(client.PUT('/panel/api/boards/{board}/phases', { params: { path: { board } }, body: { phases } })),
    onSuccess: (answer) => {
      qc.setQueryData(phaseKeys.part(board), answer);
      invalidate(qc, ['phases']);
    },
  });
}

/** A phase's label as the team named it (the server's), or a readable form of the name while loading. */
export function usePhaseLabel(board: BoardName): (name: string) => string {
  const phases = usePhases(board);
  return (name) => phases.data?.find((p) => p.name === name)?.label ?? phaseLabel(name);
}
