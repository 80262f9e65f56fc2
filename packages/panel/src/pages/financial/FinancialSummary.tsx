import { useState } from 'react';
import { useFinancialSummary } from '../../api/financial';
import type { FinancialSummary } from '../../api/types';
import { formatMoney } from '../../ui/format';
import { ErrorState, Loading } from '../../ui/States';
import { FinancialCharts } from './FinancialCharts';
import { DateField } from '../../ui/DateField';
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
        <DateField inline label="Período de" value={from} onChange={setFrom} />
        <DateField inline label="até" value={to} onChange={setTo} />
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

const countOf = (n: number) => `${n} ${n === 1 ? 'lançamento' : 'lançamentos'}`;
/** Under "A receber" / "A pagar": how much of it is overdue, or the count when nothing is. */
const overdueHint = (o: { count: number; amount: number }) => (o.count > 0 ? `${formatMoney(o.amount)} vencido` : 'nada vencido');

function SummaryBody({ s }: { s: FinancialSummary }) {
  return (
    <>
      <div className="stats stats-4" data-testid="financial-totals">
        <Stat label="Receitas" value={formatMoney(s.totals.revenue)} tone="positive" />
        <Stat label="Despesas" value={formatMoney(s.totals.expense)} tone="negative" />
        <Stat label="Custos" value={formatMoney(s.totals.cost)} tone="negative" />
        <Stat label="Resultado" value={formatMoney(s.totals.net)} tone={s.totals.net >= 0 ? 'positive' : 'negative'} />
        <Stat label="Recebido" value={formatMoney(s.by_direction.in.paid.amount)} hint={countOf(s.by_direction.in.paid.count)} tone="positive" />
        <Stat
          label="A receber"
          value={formatMoney(s.by_direction.in.pending.amount + s.by_direction.in.overdue.amount)}
          hint={overdueHint(s.by_direction.in.overdue)}
          tone={s.by_direction.in.overdue.count > 0 ? 'negative' : undefined}
        />
        <Stat label="Pago" value={formatMoney(s.by_direction.out.paid.amount)} hint={countOf(s.by_direction.out.paid.count)} />
        <Stat
          label="A pagar"
          value={formatMoney(s.by_direction.out.pending.amount + s.by_direction.out.overdue.amount)}
          hint={overdueHint(s.by_direction.out.overdue)}
          tone={s.by_direction.out.overdue.count > 0 ? 'negative' : undefined}
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
