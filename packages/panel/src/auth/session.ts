import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, client, setCsrfToken, unwrap } from '../api/client';
import { keysOf } from '../api/resources';
import type { Role, Session } from '../api/types';

export const SESSION_KEY = keysOf('session').all;

/** The signed-in session, or null when there is none (401). */
async function fetchSession(): Promise<Session | null> {
  try {
    const s = await unwrap(client.GET('/panel/api/session'));
    setCsrfToken(s.csrf_token);
    return s;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      setCsrfToken(null);
      return null;
    }
    throw err;
  }
}

export function useSession() {
  return useQuery({ queryKey: SESSION_KEY, queryFn: fetchSession, staleTime: 60_000, retry: false });
}

/** The session a page inside the shell can count on (the shell renders nothing without one). */
export function useCurrentSession(): Session {
  const { data } = useSession();
  if (!data) throw new Error('useCurrentSession outside a signed-in shell');
  return data;
}

/**
 * Takes a new session (sign-in, a password link): forgets what an earlier user's pages loaded.
 * `keep` spares queries still on screen, so they are not asked again (a used password link is a 404).
 */
export function useAdoptSession() {
  const qc = useQueryClient();
  return (s: Session, keep: (key: readonly unknown[]) => boolean = () => false) => {
    setCsrfToken(s.csrf_token);
    qc.removeQueries({ predicate: (q) => !keep(q.queryKey) });
    qc.setQueryData(SESSION_KEY, s);
  };
}

export function useSignIn() {
  const adopt = useAdoptSession();
  return useMutation({
    mutationFn: (body: { email: string; password: string }) => unwrap(client.POST('/panel/api/session', { body })),
    onSuccess: (s) => adopt(s),
  });
}

export function useSignOut() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      try {
        await client.DELETE('/panel/api/session');
      } catch (err) {
        // Already gone on the server: the user is signed out either way.
        if (!(err instanceof ApiError && err.status === 401)) throw err;
      }
    },
    onSuccess: () => {
      setCsrfToken(null);
      qc.clear();
      qc.setQueryData(SESSION_KEY, null);
    },
  });
}

export const ROLE_LABELS: Record<Role, string> = { owner: 'Proprietário', manager: 'Gerente', seller: 'Vendedor' };

/** What each role may do in Settings; the server refuses the rest (403), the panel hides it. */
export function permissions(role: Role) {
  const owner = role === 'owner';
  const manager = role === 'manager';
  return {
    settings: owner || manager,
    webhooks: owner || manager,
    editWebhooks: owner,
    revealSecret: owner,
    keys: owner,
    boards: owner || manager,
    people: owner,
    team: owner || manager,
    editTeam: owner,
    // Settings -> Leads: distribution, response target and who takes leads.
    leads: owner || manager,
    // Roles in the records: a seller never sees what the store paid or earned, nor archives or sells a car by hand.
    financial: owner || manager,
    purchasePrice: owner || manager,
    archiveVehicle: owner || manager,
    sellVehicle: owner || manager,
  };
}

export type Permissions = ReturnType<typeof permissions>;
