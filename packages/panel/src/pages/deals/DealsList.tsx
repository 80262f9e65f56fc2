import { Briefcase } from 'lucide-react';
import { useState } from 'react';
import { useDealList, type DealBoardFilters } from '../../api/deals';
import type { DealFilters } from '../../api/types';
import { formatMoney } from '../../ui/format';
import { PRIORITY_LABELS } from '../../ui/labels';
import { usePhaseLabel } from '../../api/phases';
import { EmptyState, ErrorState, Loading } from '../../ui/States';
import { Pager, usePage } from '../records/shared';

const SORTS: [string, string][] = [
  ['-updated_at', 'Atualizados por último'],
  ['-created_at', 'Mais novos'],
  ['-value', 'Maior valor'],
  ['title', 'Título (A–Z)'],
  ['expected_close_date', 'Fechamento previsto'],
  ['-priority', 'Prioridade'],
];

/** The deals as a table, with an order and a status (won, lost and archived deals are only here). */
export function DealsList({ params, onOpen }: { params: DealBoardFilters; onOpen: (id: string) => void }) {
  const phaseName = usePhaseLabel('deals');
  const [sort, setSort] = useState('-updated_at');
  const [status, setStatus] = useState('ativo');
  const [page, setPage] = usePage(params, sort, status);
  const list = useDealList({ ...params, page, limit: 25, sort, status: status as DealFilters['status'] });
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
                    <td data-label="Fase">{phaseName(d.phase)}</td>
                    <td data-label="Valor">{formatMoney(d.value)}</td>
                    <td data-label="Prioridade">
                      <span className={`badge prio-${d.priority}`}>{PRIORITY_LABELS[d.priority] ?? d.priority}</span>
                    </td>
                    <td data-label="Origem">{d.source ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} pagination={list.data.pagination} noun={['negócio', 'negócios']} onPage={setPage} />
        </>
      )}
    </div>
  );
}
