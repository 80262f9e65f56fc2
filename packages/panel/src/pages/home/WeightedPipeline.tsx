import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Dashboard } from '../../api/types';
import { formatMoney } from '../../ui/format';

const MONTHS = ['jan', 'fev', 'mar', 'abr', 'mai', 'jun', 'jul', 'ago', 'set', 'out', 'nov', 'dez'];
const monthLabel = (m: string | null) => {
  if (m === null) return 'sem data';
  const [y, mm] = m.split('-');
  return `${MONTHS[Number(mm) - 1] ?? mm}/${(y ?? '').slice(2)}`;
};
const tooltipMoney = (v: unknown) => formatMoney(typeof v === 'number' ? v : Number(v));

/**
 * Início's weighted pipeline: per month of expected close, the open deals' value and their value ×
 * win probability (the model's, or the deal's own where there is none): what the month may bring.
 */
export function WeightedPipeline({ months }: { months: Dashboard['weighted_pipeline'] }) {
  const data = months.map((m) => ({ ...m, label: monthLabel(m.month) }));
  const total = months.reduce((s, m) => s + m.weighted_value, 0);
  return (
    <div className="card" data-testid="weighted-pipeline">
      <div className="card-header">
        <h2>Previsão ponderada por mês</h2>
        <span className="small muted">{formatMoney(total)} esperados</span>
      </div>
      <div className="chart" role="img" aria-label="Valor em aberto e valor ponderado pela probabilidade de ganho, por mês de fechamento previsto">
        {data.length === 0 ? (
          <p className="muted small">Nenhum negócio em andamento.</p>
        ) : (
          <ResponsiveContainer width="100%" height={240}>
            <BarChart data={data} margin={{ top: 8, right: 8, left: 8, bottom: 0 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="label" fontSize={12} />
              <YAxis fontSize={11} tickFormatter={(v: number) => formatMoney(v, true)} width={72} />
              <Tooltip formatter={tooltipMoney} />
              <Legend />
              <Bar dataKey="total_value" name="Em aberto" fill="#cbd5e1" isAnimationActive={false} />
              <Bar dataKey="weighted_value" name="Ponderado (valor × probabilidade)" fill="#1d4ed8" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        )}
      </div>
    </div>
  );
}
