import { BadgeDollarSign, Plus, Wallet } from 'lucide-react';
import { useState } from 'react';
import { useFinancialList } from '../../api/financial';
import type { FinancialFilters, FinancialRecord, FinancialType } from '../../api/types';
import { Button } from '../../ui/Button';
import { formatDay, formatMoney } from '../../ui/format';
import { EmptyState, ListState } from '../../ui/States';
import { Pager, usePage } from '../records/shared';
import { FinancialForm } from './FinancialForm';
import { CATEGORIES, categoryLabel, FINANCIAL_STATUS_LABELS, FINANCIAL_TYPE_LABELS, PAYMENT_METHOD_LABELS } from './labels';
import { DateField } from '../../ui/DateField';
import { PayDialog } from './PayDialog';

/** The records with their filters; a pending one can be paid. */
export function FinancialList() {
  const [type, setType] = useState('');
  const [category, setCategory] = useState('');
  const [status, setStatus] = useState('');
  const [overdue, setOverdue] = useState(false);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [creating, setCreating] = useState(false);
  const [paying, setPaying] = useState<FinancialRecord | null>(null);
  const [page, setPage] = usePage(type, category, status, overdue, from, to);
  const list = useFinancialList({
    type: type as FinancialFilters['type'],
    category: category as FinancialFilters['category'],
    status: status as FinancialFilters['status'],
    ...(overdue ? { overdue: true } : {}),
    from,
    to,
    page,
    limit: 25,
    sort: 'due_date',
  });
  const categories = type ? (CATEGORIES[type as FinancialType] ?? []) : Object.values(CATEGORIES).flat();
  return (
    <>
      <div className="toolbar">
        <label className="sr-only" htmlFor="fin-type">
          Tipo
        </label>
        <select
          id="fin-type"
          className="select"
          value={type}
          onChange={(e) => {
            setType(e.target.value);
            setCategory('');
          }}
        >
          <option value="">Todos os tipos</option>
          {Object.entries(FINANCIAL_TYPE_LABELS).map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
        <label className="sr-only" htmlFor="fin-category">
          Categoria
        </label>
        <select id="fin-category" className="select" value={category} onChange={(e) => setCategory(e.target.value)}>
          <option value="">Todas as categorias</option>
          {categories.map((c) => (
            <option key={c} value={c}>
              {categoryLabel(c)}
            </option>
          ))}
        </select>
        <label className="sr-only" htmlFor="fin-status">
          Situação
        </label>
        <select id="fin-status" className="select" value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="">Todas as situações</option>
          {Object.entries(FINANCIAL_STATUS_LABELS).map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
        <label className="check">
          <input type="checkbox" checked={overdue} onChange={(e) => setOverdue(e.target.checked)} /> Só vencidos
        </label>
        <DateField inline label="De" value={from} onChange={setFrom} />
        <DateField inline label="até" value={to} onChange={setTo} />
        <span className="spacer" />
        <Button variant="primary" icon={<Plus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          Novo lançamento
        </Button>
      </div>
      <div className="card">
        <ListState
          query={list}
          empty={
            <EmptyState icon={Wallet} title="Nenhum lançamento">
              Registre receitas, despesas e custos, ou mude os filtros.
            </EmptyState>
          }
        >
          {(result) => (
            <>
              <div className="table-wrap">
                <table className="table responsive">
                  <thead>
                    <tr>
                      <th scope="col">Lançamento</th>
                      <th scope="col">Vencimento</th>
                      <th scope="col">Valor</th>
                      <th scope="col">Situação</th>
                      <th scope="col">
                        <span className="sr-only">Ações</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {result.data.map((r) => (
                      <tr key={r.id} data-testid="financial-row">
                        <td className="primary-cell">
                          <strong>{r.description}</strong>
                          <div className="small muted">
                            {FINANCIAL_TYPE_LABELS[r.type] ?? r.type} · {categoryLabel(r.category)}
                          </div>
                        </td>
                        <td data-label="Vencimento">{formatDay(r.due_date)}</td>
                        <td data-label="Valor" className={`money ${r.type === 'revenue' ? 'positive' : 'negative'}`}>
                          {r.type === 'revenue' ? '' : '− '}
                          {formatMoney(r.amount)}
                        </td>
                        <td data-label="Situação">
                          {r.status === 'paid' ? (
                            <span className="badge badge-success">
                              {r.type === 'revenue' ? 'Recebido' : 'Pago'}
                              {r.payment_method ? ` · ${PAYMENT_METHOD_LABELS[r.payment_method] ?? r.payment_method}` : ''}
                            </span>
                          ) : r.status === 'cancelled' ? (
                            <span className="badge">Cancelado</span>
                          ) : r.is_overdue ? (
                            <span className="badge badge-danger">Vencido</span>
                          ) : (
                            <span className="badge badge-warning">Pendente</span>
                          )}
                        </td>
                        <td className="actions">
                          {r.status === 'pending' ? (
                            <Button
                              size="sm"
                              icon={<BadgeDollarSign size={15} aria-hidden />}
                              onClick={() => setPaying(r)}
                              aria-label={`${r.type === 'revenue' ? 'Registrar recebimento' : 'Registrar pagamento'} de ${r.description}`}
                            >
                              {r.type === 'revenue' ? 'Receber' : 'Pagar'}
                            </Button>
                          ) : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager page={page} pagination={result.pagination} noun={['lançamento', 'lançamentos']} onPage={setPage} />
            </>
          )}
        </ListState>
      </div>
      {creating ? <FinancialForm onClose={() => setCreating(false)} /> : null}
      {paying ? <PayDialog record={paying} onClose={() => setPaying(null)} /> : null}
    </>
  );
}
