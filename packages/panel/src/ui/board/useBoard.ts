import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, messageOf } from '../../api/client';
import type { Board, ColumnPage } from '../../api/records';
import { phaseLabel } from '../format';
import { useToast } from '../Toasts';
import type { BoardCard } from './Board';

interface BoardSource<C extends BoardCard> {
  /** `deals` or `vehicles`: GET /panel/api/{area}/board, /{area}/board/:phase and PUT /{area}/:id {phase}. */
  area: 'deals' | 'vehicles';
  params: Record<string, string>;
  /** What a card adds to its column's summed value. */
  valueOf: (card: C) => number | null;
  titleOf: (card: C) => string;
  perColumn?: number;
}

/** Moves a card between columns of a cached board, so the drop shows at once. */
export function moveInBoard<C extends BoardCard>(board: Board<C>, id: string, to: string, valueOf: (c: C) => number | null): Board<C> {
  let moved: C | undefined;
  const columns = board.columns.map((col) => {
    const card = col.items.find((c) => c.id === id);
    if (!card) return col;
    moved = { ...card, phase: to };
    const total = col.total_value === undefined ? undefined : (col.total_value ?? 0) - (valueOf(card) ?? 0);
    return { ...col, items: col.items.filter((c) => c.id !== id), count: col.count - 1, total_value: total };
  });
  if (!moved) return board;
  const card = moved;
  return {
    columns: columns.map((col) =>
      col.phase === to
        ? {
            ...col,
            items: [card, ...col.items],
            count: col.count + 1,
            total_value: col.total_value === undefined ? undefined : (col.total_value ?? 0) + (valueOf(card) ?? 0),
          }
        : col,
    ),
  };
}

/**
 * The data side of a board: the first cards of every column (one request), a move that shows at once
 * and is undone when the server refuses it, and "carregar mais" per column (offset paging).
 */
export function useBoard<C extends BoardCard>({ area, params, valueOf, titleOf, perColumn = 20 }: BoardSource<C>) {
  const qc = useQueryClient();
  const toast = useToast();
  const key = [area, 'board', params];
  const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== ''));
  const board = useQuery({
    queryKey: key,
    queryFn: () => {
      const q = new URLSearchParams(query);
      q.set('per_column', String(perColumn));
      return api.get<Board<C>>(`/${area}/board?${q.toString()}`);
    },
  });
  const [loadingMore, setLoadingMore] = useState<string | null>(null);
  const move = useMutation({
    mutationFn: ({ card, to }: { card: C; to: string }) => api.put<unknown>(`/${area}/${encodeURIComponent(card.id)}`, { phase: to }),
    onMutate: async ({ card, to }) => {
      await qc.cancelQueries({ queryKey: key });
      const before = qc.getQueryData<Board<C>>(key);
      if (before) qc.setQueryData(key, moveInBoard(before, card.id, to, valueOf));
      return { before };
    },
    onSuccess: (_d, { card, to }) => toast.success(`${titleOf(card)} foi para ${phaseLabel(to)}.`),
    onError: (err, _v, ctx) => {
      if (ctx?.before) qc.setQueryData(key, ctx.before);
      toast.error(err.message);
    },
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: [area] });
      void qc.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });

  const loadMore = async (phase: string) => {
    const col = board.data?.columns.find((c) => c.phase === phase);
    if (!col) return;
    setLoadingMore(phase);
    try {
      const q = new URLSearchParams(query);
      q.set('offset', String(col.items.length));
      q.set('limit', String(perColumn));
      const more = await api.get<ColumnPage<C>>(`/${area}/board/${encodeURIComponent(phase)}?${q.toString()}`);
      qc.setQueryData<Board<C>>(key, (b) =>
        b
          ? {
              columns: b.columns.map((c) =>
                c.phase === phase
                  ? { ...c, items: [...c.items, ...more.items.filter((m) => !c.items.some((i) => i.id === m.id))], has_more: more.has_more }
                  : c,
              ),
            }
          : b,
      );
    } catch (err) {
      toast.error(messageOf(err));
    } finally {
      setLoadingMore(null);
    }
  };

  return { board, move: (card: C, to: string) => move.mutate({ card, to }), loadMore: (phase: string) => void loadMore(phase), loadingMore };
}
