import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client, params, unwrap } from './client';
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

/** The untouched leads on top of the deals board: keyed under deals, so every deal or activity change refreshes them. */
export function useWaitingLeads(filters: { search: string; responsible_id: string; source: string }) {
  const query = params(filters);
  return useQuery({
    queryKey: keysOf('deals').part('waiting-leads', query),
    queryFn: () => unwrap(client.GET('/panel/api/leads/waiting', { params: { query } })),
    // The waiting time is the server's: asked again every minute so "há N min" moves on.
    refetchInterval: 60_000,
  });
}

/** The signed-in person's unseen lead notices (the header's badge). */
export function useLeadNotices() {
  return useQuery({
    queryKey: leadKeys.part('notices'),
    queryFn: () => unwrap(client.GET('/panel/api/leads/notices')),
    refetchInterval: 60_000,
  });
}

export function useMarkLeadSeen() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(client.POST('/panel/api/leads/{id}/seen', { params: { path: { id } } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: leadKeys.part('notices') }),
  });
}

/** Início: each seller's leads and response times for a period (days; this month by default). */
export function useLeadStats(period: { from?: string; to?: string }) {
  const query = params(period);
  return useQuery({
    queryKey: leadKeys.part('stats', query),
    queryFn: () => unwrap(client.GET('/panel/api/leads/stats', { params: { query } })),
    placeholderData: (prev) => prev,
  });
}
