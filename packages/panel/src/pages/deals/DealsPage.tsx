import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, Briefcase, Columns3, List, Plus, User } from 'lucide-react';
import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import { PRIORITY_LABELS, type Deal, type DealCard } from '../../api/records';
import { Button } from '../../ui/Button';
import { Board } from '../../ui/board/Board';
import { useBoard } from '../../ui/board/useBoard';
import { formatMoney, phaseLabel } from '../../ui/format';
import { EmptyState, ErrorState, Loading } from '../../ui/States';
import { Pager, qs, SearchBox, useDebounced, usePeople } from '../records/shared';
import { DealDialog } from './DealDialog';
import { DealFormDialog } from './DealForm';

export interface DealFilters {
  search: string;
  responsible_id: string;
  source: string;
}

const EMPTY: DealFilters = { search: '', responsible_id: '', source: '' };

export function DealsPage() {
  const [view, setView] = useState<'board' | 'list'>('board');
  const [filters, setFilters] = useState<DealFilters>(EMPTY);
  const [creating, setCreating] = useState(false);
  const [openId, setOpenId] = useState<string | null>(null);
  const people = usePeople();
  const search = useDebounced(filters.search.trim());
  const source = useDebounced(filters.source.trim());
  const params = { search, responsible_id: filters.responsible_id, source };
  useEffect(() => {
    document.title = 'Negócios · autosales';
  }, []);

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Negócios</h1>
          <p>O funil da loja: arraste um negócio para a próxima fase, abra-o para ganhar, perder ou arquivar.</p>
        </div>
        <Button variant="primary" icon={<Plus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          Novo negócio
        </Button>
      </div>
      <div className="toolbar">
        <SearchBox
          label="Buscar negócios"
          placeholder="Buscar por título ou cliente"
          value={filters.search}
          onChange={(v) => setFilters((f) => ({ ...f, search: v }))}
        />
        <label className="sr-only" htmlFor="deal-responsible">
          Responsável
        </label>
        <select
          id="deal-responsible"
          className="select"
          value={filters.responsible_id}
          onChange={(e) => setFilters((f) => ({ ...f, responsible_id: e.target.value }))}
        >
          <option value="">Todos os responsáveis</option>
          {people.data?.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
        <label className="sr-only" htmlFor="deal-source">
          Origem
        </label>
        <input
          id="deal-source"
          className="input"
          placeholder="Origem (ex.: site)"
          value={filters.source}
          onChange={(e) => setFilters((f) => ({ ...f, source: e.target.value }))}
        />
        <span className="spacer" />
        <div className="segmented" role="group" aria-label="Visualização">
          <button type="button" aria-pressed={view === 'board'} onClick={() => setView('board')}>
            <Columns3 size={15} aria-hidden /> Quadro
          </button>
          <button type="button" aria-pressed={view === 'list'} onClick={() => setView('list')}>
            <List size={15} aria-hidden /> Lista
          </button>
        </div>
      </div>
      {view === 'board' ? (
        <DealsBoard params={params} onOpen={setOpenId} onCreate={() => setCreating(true)} />
      ) : (
        <DealsList params={params} onOpen={setOpenId} />
      )}
      <DealFormDialog open={creating} onClose={() => setCreating(false)} onSaved={(d) => setOpenId(d.id)} />
      <DealDialog id={openId} onClose={() => setOpenId(null)} />
    </>
  );
}

function DealsBoard({ params, onOpen, onCreate }: { params: Record<string, string>; onOpen: (id: string) => void; onCreate: () => void }) {
  const { board, move, loadMore, loadingMore } = useBoard<DealCard>({ area: 'deals', params, valueOf: (c) => c.value, titleOf: (c) => c.title });
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
        <span className={`badge prio-${card.priority}`}>{PRIORITY_LABELS[card.priority]}</span>
      </div>
      {card.responsible ? (
        <div className="small muted row" style={{ gap: 4 }}>
          <User size={13} aria-hidden /> {card.responsible.name}
        </div>
      ) : null}
    </>
  );
}

const SORTS: [string, string][] = [
  ['-updated_at', 'Atualizados por último'],
  ['-created_at', 'Mais novos'],
  ['-value', 'Maior valor'],
  ['title', 'Título (A–Z)'],
  ['expected_close_date', 'Fechamento previsto'],
  ['-priority', 'Prioridade'],
];

function DealsList({ params, onOpen }: { params: Record<string, string>; onOpen: (id: string) => void }) {
  const [sort, setSort] = useState('-updated_at');
  const [status, setStatus] = useState('ativo');
  // A change of filter or order starts again at page 1.
  const signature = JSON.stringify([params, sort, status]);
  const [paging, setPaging] = useState({ signature, page: 1 });
  const page = paging.signature === signature ? paging.page : 1;
  const setPage = (p: number) => setPaging({ signature, page: p });
  const list = useQuery({
    queryKey: ['deals', 'list', params, page, sort, status],
    queryFn: () => api.page<Deal>(`/deals${qs({ ...params, page, limit: 25, sort, status })}`),
    placeholderData: (prev) => prev,
  });
  return (
    <div className="card">
      <div className="card-header">
        <div className="row">
          <label className="small muted" htmlFor="deal-sort">
            Ordenar
          </label>
          <select id="deal-sort" className="select" style={{ width: 'auto' }} value={sort} onChange={(e) => setSort(e.target.value)}>
            {SORTS.map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
          <label className="small muted" htmlFor="deal-status">
            Status
          </label>
          <select id="deal-status" className="select" style={{ width: 'auto' }} value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="ativo">Ativos</option>
            <option value="ganho">Ganhos</option>
            <option value="perdido">Perdidos</option>
            <option value="arquivado">Arquivados</option>
          </select>
        </div>
      </div>
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.data.length === 0 ? (
        <EmptyState icon={Briefcase} title="Nenhum negócio encontrado">
          Mude os filtros ou crie um negócio.
        </EmptyState>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table responsive">
              <thead>
                <tr>
                  <th scope="col">Negócio</th>
                  <th scope="col">Fase</th>
                  <th scope="col">Valor</th>
                  <th scope="col">Prioridade</th>
                  <th scope="col">Origem</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((d) => (
                  <tr key={d.id} data-testid="deal-row">
                    <td className="primary-cell">
                      <button type="button" className="link-button link-strong" onClick={() => onOpen(d.id)}>
                        {d.title}
                      </button>
                      {d.client ? <div className="small muted">{d.client.name}</div> : null}
                    </td>
                    <td data-label="Fase">{phaseLabel(d.phase)}</td>
                    <td data-label="Valor">{formatMoney(d.value)}</td>
                    <td data-label="Prioridade">
                      <span className={`badge prio-${d.priority}`}>{PRIORITY_LABELS[d.priority]}</span>
                    </td>
                    <td data-label="Origem">{d.source ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} pages={list.data.pagination.pages} total={list.data.pagination.total} noun={['negócio', 'negócios']} onPage={setPage} />
        </>
      )}
    </div>
  );
}
