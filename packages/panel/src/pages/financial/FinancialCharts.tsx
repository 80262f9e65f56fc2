import { Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { FinancialSummary } from '../../api/types';
import { formatMoney } from '../../ui/format';
import { categoryLabel } from './labels';

const MONTHS = ['jan', 'fev', 'mar', 'abr', 'mai', 'jun', 'jul', 'ago', 'set', 'out', 'nov', 'dez'];
const monthLabel = (m: string) => {
  const [y, mm] = m.split('-');
  return `${MONTHS[Number(mm) - 1] ?? mm}/${(y ?? '').slice(2)}`;
};
const COLORS = { revenue: '#137a3f', expense: '#c02626', cost: '#d97706', net: '#1d4ed8' };
const tooltipMoney = (v: unknown) => formatMoney(typeof v === 'number' ? v : Number(v));

/** The summary's two charts: by month (bars and the net line) and by category. */
export function FinancialCharts({ summary: s }: { summary: FinancialSummary }) {
  const months = s.by_month.map((m) => ({ ...m, label: monthLabel(m.month) }));
  const categories = s.by_category.map((c) => ({ name: categoryLabel(c.category), amount: c.amount, type: c.type }));
  return (
    <div className="grid-2">
      <div className="card">
        <div className="card-header">
          <h2>Por mês</h2>
        </div>
        <div className="chart" role="img" aria-label="Receitas, despesas, custos e resultado por mês">
          {months.length === 0 ? (
            <p className="muted small">Nenhum lançamento no período.</p>
          ) : (
            <ResponsiveContainer width="100%" height={260}>
              <ComposedChart data={months} margin={{ top: 8, right: 8, left: 8, bottom: 0 }}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="label" fontSize={12} />
                <YAxis fontSize={11} tickFormatter={(v: number) => formatMoney(v, true)} width={72} />
                <Tooltip formatter={tooltipMoney} />
                <Legend />
                <Bar dataKey="revenue" name="Receitas" fill={COLORS.revenue} isAnimationActive={false} />
                <Bar dataKey="expense" name="Despesas" fill={COLORS.expense} isAnimationActive={false} />
                <Bar dataKey="cost" name="Custos" fill={COLORS.cost} isAnimationActive={false} />
                <Line dataKey="net" name="Resultado" stroke={COLORS.net} strokeWidth={2} isAnimationActive={false} />
              </ComposedChart>
            </ResponsiveContainer>
          )}
        </div>
      </div>
      <div className="card">
        <div className="card-header">
          <h2>Por categoria</h2>
        </div>
        <div className="chart" role="img" aria-label="Valores por categoria">
          {categories.length === 0 ? (
            <p className="muted small">Nenhum lançamento no período.</p>
          ) : (
            <ResponsiveContainer width="100%" height={Math.max(160, categories.length * 34)}>
              <BarChart data={categories} layout="vertical" margin={{ top: 4, right: 16, left: 8, bottom: 4 }}>
                <CartesianGrid strokeDasharray="3 3" horizontal={false} />
                <XAxis type="number" fontSize={11} tickFormatter={(v: number) => formatMoney(v, true)} />
                <YAxis type="category" dataKey="name" fontSize={12} width={120} />
                <Tooltip formatter={tooltipMoney} />
                <Bar dataKey="amount" name="Valor" fill={COLORS.net} isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          )}
        </div>
      </div>
    </div>
  );
}
