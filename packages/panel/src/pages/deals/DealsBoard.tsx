import { AlertTriangle, Briefcase, Plus, User } from 'lucide-react';
import { dealsBoard, type DealBoardFilters } from '../../api/deals';
import type { DealCard } from '../../api/types';
import { Board } from '../../ui/board/Board';
import { useBoard } from '../../ui/board/useBoard';
import { Button } from '../../ui/Button';
import { formatMoney } from '../../ui/format';
import { PRIORITY_LABELS } from '../../ui/labels';
import { ProbabilityBadge } from '../../ui/ProbabilityBadge';
import { EmptyState, ErrorState, Loading } from '../../ui/States';
import { WaitingLeads } from './WaitingLeads';

/** The funnel: one column per phase, the cards of active deals. */
export function DealsBoard({ params, onOpen, onCreate }: { params: DealBoardFilters; onOpen: (id: string) => void; onCreate: () => void }) {
  const { board, move, loadMore, loadingMore } = useBoard<DealCard>({ source: dealsBoard(params), valueOf: (c) => c.value, titleOf: (c) => c.title });
  if (board.isPending) return <Loading rows={6} label="Carregando o quadro…" />;
  if (board.isError) return <ErrorState error={board.error} onRetry={() => void board.refetch()} />;
  const empty = board.data.columns.every((c) => c.count === 0);
  return (
    <>
      {empty && !params.search && !params.responsible_id && !params.source ? (
        <div className="card" style={{ marginBottom: 16 }}>
          <EmptyState
            icon={Briefcase}
            title="Nenhum negócio em andamento"
            action={
              <Button variant="primary" icon={<Plus size={16} aria-hidden />} onClick={onCreate}>
                Novo negócio
              </Button>
            }
          >
            Crie o primeiro negócio aqui ou receba leads pela API.
          </EmptyState>
        </div>
      ) : null}
      <WaitingLeads params={params} onOpen={onOpen} />
      <Board<DealCard>
        noun="negócio"
        columns={board.data.columns}
        cardTitle={(c) => c.title}
        columnSummary={(col) => formatMoney(col.total_value ?? 0)}
        renderCard={(c) => <DealCardView card={c} />}
        onMove={move}
        onOpen={(c) => onOpen(c.id)}
        onLoadMore={loadMore}
        loadingMore={loadingMore}
      />
    </>
  );
}

function DealCardView({ card }: { card: DealCard }) {
  return (
    <>
      <div className="board-card-title">
        <strong>{card.title}</strong>
        {card.has_overdue_activity ? (
          <span className="overdue" title="Atividade atrasada">
            <AlertTriangle size={14} aria-hidden />
            <span className="sr-only">Atividade atrasada</span>
          </span>
        ) : null}
      </div>
      {card.client ? <div className="small muted truncate">{card.client.name}</div> : null}
      <div className="board-card-meta">
        <span className="money">{formatMoney(card.value)}</span>
        <span className="row" style={{ gap: 4 }}>
          <ProbabilityBadge value={card.ai_win_probability} />
          <span className={`badge prio-${card.priority}`}>{PRIORITY_LABELS[card.priority] ?? card.priority}</span>
        </span>
      </div>
      {card.responsible ? (
        <div className="small muted row" style={{ gap: 4 }}>
          <User size={13} aria-hidden /> {card.responsible.name}
        </div>
      ) : null}
    </>
  );
}
