import {
  DndContext,
  DragOverlay,
  KeyboardCode,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  closestCorners,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
} from '@dnd-kit/core';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { BoardColumn } from './useBoard';
import { Button } from '../Button';
import { phaseLabel } from '../format';

export interface BoardCard {
  id: string;
  phase: string;
}

interface BoardProps<C extends BoardCard> {
  /** What the board holds, for screen readers ("negócio", "veículo"). */
  noun: string;
  columns: BoardColumn<C>[];
  cardTitle: (card: C) => string;
  renderCard: (card: C) => ReactNode;
  columnSummary: (column: BoardColumn<C>) => ReactNode;
  onMove: (card: C, toPhase: string) => void;
  onOpen: (card: C) => void;
  onLoadMore: (phase: string) => void;
  loadingMore: string | null;
  canDrag?: boolean;
}

/**
 * Arrow keys move a lifted card straight to the next or previous column (dnd-kit's default moves a few
 * pixels per press, which across 280-px columns would take a dozen presses).
 */
const columnKeys: KeyboardCoordinateGetter = (event, { context }) => {
  const { collisionRect, droppableRects } = context;
  if (!collisionRect) return undefined;
  const rects = [...droppableRects.values()].sort((a, b) => a.left - b.left);
  const center = collisionRect.left + collisionRect.width / 2;
  let index = rects.findIndex((r) => center >= r.left && center <= r.right);
  if (index < 0) index = 0;
  let target: number;
  if (event.code === 'ArrowRight') target = Math.min(rects.length - 1, index + 1);
  else if (event.code === 'ArrowLeft') target = Math.max(0, index - 1);
  else return undefined;
  event.preventDefault();
  const rect = rects[target];
  if (!rect) return undefined;
  return { x: rect.left + (rect.width - collisionRect.width) / 2, y: collisionRect.top };
};

/**
 * Whether a sideways scroller hides content to its left or right, so the board can show a cue (a fade
 * and a "Mais fases" button) when its columns do not all fit.
 */
function useSideScroll(columns: number) {
  const scroller = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ left: false, right: false });
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const check = () => {
      const left = el.scrollLeft > 4;
      const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 4;
      setMore((m) => (m.left === left && m.right === right ? m : { left, right }));
    };
    check();
    el.addEventListener('scroll', check, { passive: true });
    const resize = new ResizeObserver(check);
    resize.observe(el);
    return () => {
      el.removeEventListener('scroll', check);
      resize.disconnect();
    };
  }, [columns]);
  return { scroller, more };
}

/**
 * A kanban board shared by deals and vehicles: one column per phase, cards moved with the mouse, a
 * finger (press and hold) or the keyboard (space lifts, arrows change column, space drops, Esc cancels).
 */
export function Board<C extends BoardCard>(props: BoardProps<C>) {
  const { columns, noun, cardTitle, onMove, canDrag = true } = props;
  const [active, setActive] = useState<C | null>(null);
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 220, tolerance: 6 } }),
    useSensor(KeyboardSensor, {
      coordinateGetter: columnKeys,
      keyboardCodes: { start: [KeyboardCode.Space], cancel: [KeyboardCode.Esc], end: [KeyboardCode.Space, KeyboardCode.Enter] },
    }),
  );
  const labelOf = (phase: string) => columns.find((c) => c.phase === phase)?.label ?? phaseLabel(phase);
  const find = (id: string | number): C | undefined => {
    for (const col of columns) {
      const hit = col.items.find((c) => c.id === id);
      if (hit) return hit;
    }
    return undefined;
  };
  const titleOf = (id: string | number) => {
    const card = find(id);
    return card ? cardTitle(card) : noun;
  };
  const announcements: Announcements = {
    onDragStart: ({ active: a }) => `${titleOf(a.id)} levantado. Use as setas para trocar de coluna, espaço para soltar, Esc para cancelar.`,
    onDragOver: ({ active: a, over }) => (over ? `${titleOf(a.id)} sobre a coluna ${labelOf(String(over.id))}.` : `${titleOf(a.id)} fora das colunas.`),
    onDragEnd: ({ active: a, over }) => (over ? `${titleOf(a.id)} movido para ${labelOf(String(over.id))}.` : `${titleOf(a.id)} solto fora das colunas.`),
    onDragCancel: ({ active: a }) => `Movimento de ${titleOf(a.id)} cancelado.`,
  };

  const { scroller, more } = useSideScroll(columns.length);

  const onDragStart = (e: DragStartEvent) => setActive(find(e.active.id) ?? null);
  const onDragEnd = (e: DragEndEvent) => {
    setActive(null);
    const card = find(e.active.id);
    const to = e.over ? String(e.over.id) : null;
    if (card && to && to !== card.phase) onMove(card, to);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCorners}
      // Scroll sideways only near the very edge: the default 20% band would slide the board under a drop.
      autoScroll={{ threshold: { x: 0.06, y: 0.12 } }}
      onDragStart={onDragStart}
      onDragEnd={onDragEnd}
      onDragCancel={() => setActive(null)}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable: `Para mover este ${noun}, aperte espaço. Com ele levantado, use as setas para trocar de coluna e aperte espaço de novo para soltar, ou Esc para cancelar. Enter abre o ${noun}.`,
        },
      }}
    >
      <div className={`board-wrap ${more.left ? 'more-left' : ''} ${more.right ? 'more-right' : ''}`}>
        <div className="board" role="list" aria-label={`Quadro de ${noun}s`} ref={scroller}>
          {columns.map((col) => (
            <Column key={col.phase} column={col} {...props} canDrag={canDrag} />
          ))}
        </div>
        {more.right ? (
          <button type="button" className="board-more" onClick={() => scroller.current?.scrollBy({ left: 260, behavior: 'smooth' })}>
            Mais fases →
          </button>
        ) : null}
      </div>
      <DragOverlay dropAnimation={null}>{active ? <div className="board-card dragging">{props.renderCard(active)}</div> : null}</DragOverlay>
    </DndContext>
  );
}

function Column<C extends BoardCard>({
  column,
  columnSummary,
  renderCard,
  cardTitle,
  onOpen,
  onLoadMore,
  loadingMore,
  canDrag,
  noun,
}: BoardProps<C> & { column: BoardColumn<C> }) {
  const { setNodeRef, isOver } = useDroppable({ id: column.phase });
  return (
    <section
      className={`board-column ${isOver ? 'over' : ''}`}
      role="listitem"
      aria-label={column.label ?? phaseLabel(column.phase)}
      data-testid="board-column"
      data-phase={column.phase}
    >
      <header className="board-column-head">
        <h2 className="truncate" title={column.label ?? phaseLabel(column.phase)}>
          {column.label ?? phaseLabel(column.phase)}
        </h2>
        <span className="badge" aria-label={`${column.count} ${column.count === 1 ? noun : `${noun}s`}`}>
          {column.count}
        </span>
        <div className="board-column-sum">{columnSummary(column)}</div>
      </header>
      <div ref={setNodeRef} className="board-column-body">
        {column.items.length === 0 ? <p className="board-empty">Nenhum {noun} nesta fase.</p> : null}
        {column.items.map((card) => (
          <DraggableCard key={card.id} card={card} title={cardTitle(card)} onOpen={onOpen} disabled={!canDrag}>
            {renderCard(card)}
          </DraggableCard>
        ))}
        {column.has_more ? (
          <Button size="sm" variant="ghost" block loading={loadingMore === column.phase} onClick={() => onLoadMore(column.phase)}>
            Carregar mais
          </Button>
        ) : null}
      </div>
    </section>
  );
}

function DraggableCard<C extends BoardCard>({
  card,
  title,
  onOpen,
  disabled,
  children,
}: {
  card: C;
  title: string;
  onOpen: (card: C) => void;
  disabled: boolean;
  children: ReactNode;
}) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: card.id, disabled });
  return (
    <div
      ref={setNodeRef}
      className={`board-card ${isDragging ? 'placeholder' : ''}`}
      data-testid="board-card"
      data-id={card.id}
      {...attributes}
      {...listeners}
      aria-roledescription="cartão arrastável"
      aria-label={title}
      onClick={() => onOpen(card)}
      onKeyDown={(e) => {
        // Enter opens; space (and Enter inside the sensor while lifted) stays with dnd-kit.
        if (e.key === 'Enter' && !isDragging) {
          e.preventDefault();
          onOpen(card);
          return;
        }
        listeners?.onKeyDown?.(e);
      }}
    >
      {children}
    </div>
  );
}
