import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { messageOf } from '../../api/client';
import { invalidate, type Resource } from '../../api/resources';
import { phaseLabel } from '../format';
import { useToast } from '../Toasts';
import type { BoardCard } from './Board';

export interface BoardColumn<C> {
  phase: string;
  label?: string | null;
  probability?: number | null;
  count: number;
  total_value?: number | null;
  items: C[];
  has_more: boolean;
}

export interface Board<C> {
  columns: BoardColumn<C>[];
}

/** Where a board's data comes from: a resource module (api/deals.ts, api/vehicles.ts) builds one. */
export interface BoardSource<C extends BoardCard> {
  key: readonly unknown[];
  /** The first cards of every column, in one request. */
  columns: (perColumn: number) => Promise<Board<C>>;
  /** More cards of one column (offset paging). */
  column: (phase: string, offset: number, limit: number) => Promise<{ items: C[]; has_more: boolean }>;
  /** Moves a card to another phase on the server. */
  move: (id: string, phase: string) => Promise<unknown>;
  /** The resource a move changes. */
  changed: Resource;
}

interface BoardOptions<C extends BoardCard> {
  source: BoardSource<C>;
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
export function useBoard<C extends BoardCard>({ source, valueOf, titleOf, perColumn = 20 }: BoardOptions<C>) {
  const qc = useQueryClient();
  const toast = useToast();
  const key = source.key;
  const board = useQuery({ queryKey: key, queryFn: () => source.columns(perColumn) });
  const [loadingMore, setLoadingMore] = useState<string | null>(null);
  const move = useMutation({
    mutationFn: ({ card, to }: { card: C; to: string }) => source.move(card.id, to),
    onMutate: async ({ card, to }) => {
      await qc.cancelQueries({ queryKey: key });
      const before = qc.getQueryData<Board<C>>(key);
      if (before) qc.setQueryData(key, moveInBoard(before, card.id, to, valueOf));
      return { before };
    },
    onSuccess: (_d, { card, to }) => {
      const label = board.data?.columns.find((c) => c.phase === to)?.label;
      toast.success(`${titleOf(card)} foi para ${label ?? phaseLabel(to)}.`);
    },
    onError: (err, _v, ctx) => {
      if (ctx?.before) qc.setQueryData(key, ctx.before);
      toast.error(err.message);
    },
    onSettled: () => invalidate(qc, [source.changed]),
  });

  const loadMore = async (phase: string) => {
    const col = board.data?.columns.find((c) => c.phase === phase);
    if (!col) return;
    setLoadingMore(phase);
    try {
      const more = await source.column(phase, col.items.length, perColumn);
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
