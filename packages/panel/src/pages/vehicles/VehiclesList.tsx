import { Car, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { usePhaseLabel } from '../../api/phases';
import { useRestoreVehicle, useVehicleList, type StockStatus, type VehicleBoardFilters } from '../../api/vehicles';
import { permissions, useCurrentSession } from '../../auth/session';
import { Button } from '../../ui/Button';
import { formatDate, formatInt, formatMoney } from '../../ui/format';
import { EmptyState, ErrorState, Loading } from '../../ui/States';
import { useToast } from '../../ui/Toasts';
import { Pager, usePage } from '../records/shared';

const SORTS: [string, string][] = [
  ['created_at', 'Mais tempo em estoque'],
  ['-created_at', 'Mais novos'],
  ['-updated_at', 'Atualizados por último'],
  ['-price', 'Maior preço'],
  ['price', 'Menor preço'],
  ['title', 'Título (A–Z)'],
];

const EMPTY: Record<StockStatus, string> = {
  ativo: 'Nenhum veículo em estoque',
  vendido: 'Nenhum veículo vendido',
  arquivado: 'Nenhum veículo arquivado',
};

/** The stock as a table: in stock, sold or archived (the status filter of the page), with days in stock; an archived car comes back from here. */
export function VehiclesList({ params, status, onOpen }: { params: VehicleBoardFilters; status: StockStatus; onOpen: (id: string) => void }) {
  const phaseName = usePhaseLabel('vehicles');
  const can = permissions(useCurrentSession().user.role);
  const [sort, setSort] = useState('created_at');
  const [page, setPage] = usePage(params, sort, status);
  const list = useVehicleList({ search: params.search, brand: params.brand, status, sort, page, limit: 25 });
  const restoring = useRestoreVehicle();
  const toast = useToast();
  return (
    <div className="card">
      <div className="card-header">
        <div className="row">
          <label className="small muted" htmlFor="vehicle-sort">
            Ordenar
          </label>
          <select id="vehicle-sort" className="select" style={{ width: 'auto' }} value={sort} onChange={(e) => setSort(e.target.value)}>
            {SORTS.map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
        </div>
      </div>
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.data.length === 0 ? (
        <EmptyState icon={Car} title={EMPTY[status]}>
          Mude a busca ou a situação.
        </EmptyState>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table responsive" data-testid="vehicle-list">
              <thead>
                <tr>
                  <th scope="col">Veículo</th>
                  <th scope="col">Fase</th>
                  <th scope="col">Preço</th>
                  <th scope="col">Ano</th>
                  <th scope="col">Km</th>
                  <th scope="col">Dias em estoque</th>
                  {status === 'vendido' ? <th scope="col">Vendido em</th> : null}
                  {status === 'arquivado' && can.archiveVehicle ? <th scope="col">Ações</th> : null}
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((v) => (
                  <tr key={v.id} data-testid="vehicle-row">
                    <td className="primary-cell">
                      <button type="button" className="link-button link-strong" onClick={() => onOpen(v.id)}>
                        {v.title}
                      </button>
                      {v.plate ? (
                        <span className="plate" style={{ marginLeft: 6 }}>
                          {v.plate}
                        </span>
                      ) : null}
                    </td>
                    <td data-label="Fase">{phaseName(v.phase)}</td>
                    <td data-label="Preço">{formatMoney(v.price)}</td>
                    <td data-label="Ano">{v.model_year ?? '—'}</td>
                    <td data-label="Km">{v.mileage === null ? '—' : formatInt(v.mileage)}</td>
                    <td data-label="Dias em estoque">
                      {v.days_in_stock} {v.days_in_stock === 1 ? 'dia' : 'dias'}
                    </td>
                    {status === 'vendido' ? <td data-label="Vendido em">{v.sold_at ? formatDate(v.sold_at) : '—'}</td> : null}
                    {status === 'arquivado' && can.archiveVehicle ? (
                      <td data-label="Ações">
                        <Button
                          size="sm"
                          icon={<RotateCcw size={15} aria-hidden />}
                          loading={restoring.isPending && restoring.variables === v.id}
                          aria-label={`Restaurar ${v.title}`}
                          onClick={() =>
                            restoring.mutate(v.id, {
                              onSuccess: () => toast.success(`${v.title} de volta ao estoque.`),
                              onError: (err) => toast.error(err.message),
                            })
                          }
                        >
                          Restaurar
                        </Button>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} pagination={list.data.pagination} noun={['veículo', 'veículos']} onPage={setPage} />
        </>
      )}
    </div>
  );
}
