import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError, client, unwrap } from '../api/client';
import { EVENT_AREAS, invalidate, type Resource } from '../api/resources';

/** How often an open page asks the server what changed (documented in docs/panel.md). */
export const POLL_MS = 3000;

/** Refreshes what the events' areas change (api/resources.ts says what each one touches). */
export function invalidateForTypes(qc: QueryClient, types: readonly string[] | 'all'): void {
  const areas = types === 'all' ? Object.keys(EVENT_AREAS) : types.map((t) => t.split('.')[0] ?? '');
  const resources = areas.map((a) => EVENT_AREAS[a]).filter((r): r is Resource => r !== undefined);
  if (resources.length > 0) invalidate(qc, resources);
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
          const answer = await unwrap(client.GET('/panel/api/changes', { params: { query: known ? { after: known } : {} } }));
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
