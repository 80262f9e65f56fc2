import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from './client';
import { keysOf, useChanged, type After } from './resources';
import type { LeadSettings, LeadSettingsInput, Member } from './types';

export const leadKeys = keysOf('leads');

/** Settings -> Leads: distribution, fixed person and response target (managers and owners). */
export function useLeadSettings() {
  return useQuery({ queryKey: leadKeys.part('settings'), queryFn: () => unwrap(client.GET('/panel/api/leads/settings')) });
}

export function useSaveLeadSettings(after: After<LeadSettings, LeadSettingsInput> = {}) {
  const qc = useQueryClient();
  const changed = useChanged('leads');
  return useMutation({
    mutationFn: (body: LeadSettingsInput) => unwrap(client.PUT('/panel/api/leads/settings', { body })),
    onSuccess: (s, v) => {
      qc.setQueryData(leadKeys.part('settings'), s);
      changed();
      after.onSuccess?.(s, v);
    },
    onError: after.onError,
  });
}

type TakesLeads = { id: string; takes_leads: boolean };

/** Whether a person takes leads in the round-robin; the people's list shows the flag. */
export function useSetTakesLeads(after: After<Member, TakesLeads> = {}) {
  const changed = useChanged('leads');
  return useMutation({
    mutationFn: ({ id, takes_leads }: TakesLeads) => unwrap(client.PUT('/panel/api/leads/people/{id}', { params: { path: { id } }, body: { takes_leads } })),
    onSuccess: (u, v) => {
      changed();
      after.onSuccess?.(u, v);
    },
    onError: after.onError,
  });
}
