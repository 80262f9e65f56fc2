import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError, api } from '../api/client';
import type { Changes } from '../api/records';

/** How often an open page asks the server what changed (documented in docs/panel.md). */
export const POLL_MS = 3000;

/** Query keys each event area touches; the dashboard reads every area. */
const AREAS: Record<string, string[][]> = {
  deal: [['deals'], ['clients']],
  vehicle: [['vehicles'], ['financial']],
  client: [['clients'], ['deals']],
  activity: [['activities'], ['deals'], ['clients']],
  financial: [['financial'], ['clients']],
};

export function invalidateForTypes(qc: QueryClient, types: readonly string[] | 'all'): void {
  const keys = new Map<string, string[]>();
  const areas = types === 'all' ? Object.keys(AREAS) : types.map((t) => t.split('.')[0] ?? '');
  for (const area of areas) for (const key of AREAS[area] ?? []) keys.set(key.join('/'), key);
  if (keys.size === 0) return;
  keys.set('dashboard', ['dashboard']);
  for (const key of keys.values()) void qc.invalidateQueries({ queryKey: key });
}

/**
 * Live enough: while the tab is visible, asks GET /panel/api/changes?after=CURSOR every 3 s and
 * invalidates the queries of the areas whose events arrived (an integrator's lead shows on the board
 * without a reload). A hidden tab does not poll; coming back polls at once.
 */
export function useLiveChanges(): void {
  const qc = useQueryClient();
  useEffect(() => {
    let cursor: string | null | undefined;
    let timer: number | undefined;
    let stopped = false;
    let busy = false;

    const tick = async () => {
      window.clearTimeout(timer);
      if (stopped) return;
      if (document.visibilityState === 'visible' && !busy) {
        busy = true;
        try {
          const known = cursor;
          const answer = await api.get<Changes>(known ? `/changes?after=${encodeURIComponent(known)}` : '/changes');
          if (known !== undefined) {
            if (answer.types && answer.types.length > 0) invalidateForTypes(qc, answer.types);
            // The first event of a team with none before: nothing to compare with, so refresh all.
            else if (known === null && answer.cursor) invalidateForTypes(qc, 'all');
          }
          cursor = answer.cursor ?? known ?? null;
        } catch (err) {
          // Signed out or a route this server lacks: stop asking.
          if (err instanceof ApiError && (err.status === 401 || err.status === 404)) stopped = true;
        } finally {
          busy = false;
        }
      }
      if (!stopped) timer = window.setTimeout(() => void tick(), POLL_MS);
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') void tick();
    };
    void tick();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [qc]);
}
