import { useState } from 'react';
import { useFinancialSummary } from '../../api/financial';
import type { FinancialSummary } from '../../api/types';
import { formatMoney } from '../../ui/format';
import { ErrorState, Loading } from '../../ui/States';
import { FinancialCharts } from './FinancialCharts';
import { today } from './labels';

function startOfYear(): string {
  return `${new Date().getFullYear()}-01-01`;
}

/** Totals, charts and the margin per vehicle of a period. */
export function FinancialSummaryView() {
  const [from, setFrom] = useState(startOfYear());
  const [to, setTo] = useState(today());
  const summary = useFinancialSummary({ from, to });
  return (
    <div className="stack">
      <div className="toolbar" style={{ marginBottom: 0 }}>
        <label className="small muted" htmlFor="sum-from">
          Período de
        </label>
        <input id="sum-from" type="date" className="input" value={from} onChange={(e) => setFrom(e.target.value)} />
        <label className="small muted" htmlFor="sum-to">
          até
        </label>
        <input id="sum-to" type="date" className="input" value={to} onChange={(e) => setTo(e.target.value)} />
      </div>
      {summary.isPending ? (
        <Loading rows={6} />
      ) : summary.isError ? (
        <ErrorState error={summary.error} onRetry={() => void summary.refetch()} />
      ) : (
        <SummaryBody s={summary.data} />
      )}
    </div>
  );
}

function SummaryBody({ s }: { s: FinancialSummary }) {
  return (
    <>
      <div className="stats" data-testid="financial-totals">
        <Stat label="Receitas" value={formatMoney(s.totals.revenue)} tone="positive" />
        <Stat label="Despesas" value={formatMoney(s.totals.expense)} tone="negative" />
        <Stat label="Custos" value={formatMoney(s.totals.cost)} tone="negative" />
        <Stat label="Resultado" value={formatMoney(s.totals.net)} tone={s.totals.net >= 0 ? 'positive' : 'negative'} />
        <Stat
          label="Pago"
          value={formatMoney(s.by_status.paid.amount)}
          hint={`${s.by_status.paid.count} ${s.by_status.paid.count === 1 ? 'lançamento' : 'lançamentos'}`}
        />
        <Stat
          label="Vencido"
          value={formatMoney(s.by_status.overdue.amount)}
          hint={`${s.by_status.overdue.count} ${s.by_status.overdue.count === 1 ? 'lançamento' : 'lançamentos'}`}
          tone={s.by_status.overdue.count > 0 ? 'negative' : undefined}
        />
      </div>
      <FinancialCharts summary={s} />
      <div className="card">
        <div className="card-header">
          <div>
            <h2>Margem por veículo</h2>
            <p>Receita da venda menos o preço de compra e os custos lançados no veículo.</p>
          </div>
        </div>
        {s.by_vehicle.length === 0 ? (
          <p className="card-body muted">Nenhum veículo com venda ou custo no período.</p>
        ) : (
          <div className="table-wrap">
            <table className="table responsive" data-testid="margin-table">
              <thead>
                <tr>
                  <th scope="col">Veículo</th>
                  <th scope="col">Venda</th>
                  <th scope="col">Compra</th>
                  <th scope="col">Custos</th>
                  <th scope="col">Margem</th>
                </tr>
              </thead>
              <tbody>
                {s.by_vehicle.map((v) => (
                  <tr key={v.vehicle_id}>
                    <td className="primary-cell">
                      {v.title ?? <span className="mono small">{v.vehicle_id.slice(0, 8)}</span>}
                      {v.plate ? (
                        <span className="plate" style={{ marginLeft: 6 }}>
                          {v.plate}
                        </span>
                      ) : null}
                    </td>
                    <td data-label="Venda">{formatMoney(v.sale_revenue)}</td>
                    <td data-label="Compra">{formatMoney(v.purchase_price)}</td>
                    <td data-label="Custos">{formatMoney(v.costs)}</td>
                    <td data-label="Margem" className={`money ${v.margin !== null && v.margin < 0 ? 'negative' : 'positive'}`}>
                      {formatMoney(v.margin)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </>
  );
}

export function Stat({ label, value, hint, tone }: { label: string; value: string; hint?: string; tone?: 'positive' | 'negative' | undefined }) {
  return (
    <div className="card stat-card">
      <span className="small muted">{label}</span>
      <strong className={tone ?? ''}>{value}</strong>
      {hint ? <span className="small muted">{hint}</span> : null}
    </div>
  );
}
