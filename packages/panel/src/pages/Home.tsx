import { AlarmClock, Briefcase, Car, Percent, Receipt, ThumbsDown, Trophy } from 'lucide-react';
import { useEffect, type CSSProperties } from 'react';
import { Link } from 'react-router';
import { useDashboard } from '../api/dashboard';
import { usePhaseLabel } from '../api/phases';
import { permissions, useCurrentSession } from '../auth/session';
import { formatInt, formatMoney } from '../ui/format';
import { ErrorState, Loading } from '../ui/States';
import { LeadResponse } from './home/LeadResponse';
import { WeightedPipeline } from './home/WeightedPipeline';

/** The home after sign-in: the store's day in numbers, each tile a way into its page. */
export function HomePage() {
  const { user, team } = useCurrentSession();
  const can = permissions(user.role);
  const dashboard = useDashboard();
  const dealPhase = usePhaseLabel('deals');
  const vehiclePhase = usePhaseLabel('vehicles');
  useEffect(() => {
    document.title = 'Início · autosales';
  }, []);
  const first = user.name.split(/\s+/)[0] ?? user.name;
  const d = dashboard.data;
  const pipelineMax = Math.max(1, ...(d?.pipeline.map((p) => p.total_value ?? 0) ?? [1]));
  const stockMax = Math.max(1, ...(d?.stock.map((p) => p.count) ?? [1]));
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Olá, {first}</h1>
          <p>
            Como está a <strong>{team.name}</strong> hoje.
          </p>
        </div>
      </div>
      {dashboard.isPending ? (
        <Loading rows={6} />
      ) : dashboard.isError ? (
        <ErrorState error={dashboard.error} onRetry={() => void dashboard.refetch()} />
      ) : d ? (
        <div className="stack">
          <div className="tiles" data-testid="dashboard-stats" style={{ '--tiles': can.financial ? 6 : 5 } as CSSProperties}>
            <Tile
              to="/negocios"
              icon={Trophy}
              label="Ganhos no mês"
              value={formatInt(d.won_this_month.count)}
              hint={formatMoney(d.won_this_month.value ?? 0)}
              tone="positive"
            />
            <Tile
              to="/negocios"
              icon={ThumbsDown}
              label="Perdidos no mês"
              value={formatInt(d.lost_this_month.count)}
              hint={formatMoney(d.lost_this_month.value ?? 0)}
            />
            <Tile
              to="/negocios"
              icon={Percent}
              label="Conversão"
              value={d.conversion_rate === null ? '—' : `${d.conversion_rate.toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`}
              hint="dos fechados no mês"
            />
            <Tile
              to="/veiculos"
              icon={Car}
              label="Média em estoque"
              value={d.average_days_in_stock === null ? '—' : `${Math.round(d.average_days_in_stock)} dias`}
            />
            <Tile
              to="/agenda"
              icon={AlarmClock}
              label="Atividades atrasadas"
              value={formatInt(d.overdue_activities)}
              tone={d.overdue_activities > 0 ? 'negative' : undefined}
            />
            {can.financial && d.overdue_receivables ? (
              <Tile
                to="/financeiro"
                icon={Receipt}
                label="A receber vencido"
                value={formatMoney(d.overdue_receivables.amount)}
                hint={`${d.overdue_receivables.count} ${d.overdue_receivables.count === 1 ? 'lançamento' : 'lançamentos'}`}
                tone={d.overdue_receivables.count > 0 ? 'negative' : undefined}
              />
            ) : null}
          </div>
          <div className="grid-2">
            <div className="card">
              <div className="card-header">
                <h2>Funil de negócios</h2>
                <Link to="/negocios" className="small">
                  Abrir quadro
                </Link>
              </div>
              <ul className="bars" aria-label="Valor em aberto por fase">
                {d.pipeline.map((p) => (
                  <li key={p.phase}>
                    <span className="bars-label truncate">{dealPhase(p.phase)}</span>
                    <span className="bars-track" aria-hidden>
                      <span className="bars-fill" style={{ width: `${((p.total_value ?? 0) / pipelineMax) * 100}%` }} />
                    </span>
                    <span className="bars-value">
                      {formatMoney(p.total_value ?? 0, true)} <span className="muted">· {p.count}</span>
                    </span>
                  </li>
                ))}
              </ul>
            </div>
            <div className="card">
              <div className="card-header">
                <h2>Estoque por fase</h2>
                <Link to="/veiculos" className="small">
                  Abrir quadro
                </Link>
              </div>
              <ul className="bars" aria-label="Veículos por fase">
                {d.stock.map((p) => (
                  <li key={p.phase}>
                    <span className="bars-label truncate">{vehiclePhase(p.phase)}</span>
                    <span className="bars-track" aria-hidden>
                      <span className="bars-fill alt" style={{ width: `${(p.count / stockMax) * 100}%` }} />
                    </span>
                    <span className="bars-value">{formatInt(p.count)}</span>
                  </li>
                ))}
              </ul>
            </div>
          </div>
          <LeadResponse />
          <WeightedPipeline months={d.weighted_pipeline} />
        </div>
      ) : null}
    </>
  );
}

function Tile({
  to,
  icon: Icon,
  label,
  value,
  hint,
  tone,
}: {
  to: string;
  icon: typeof Briefcase;
  label: string;
  value: string;
  hint?: string;
  tone?: 'positive' | 'negative' | undefined;
}) {
  return (
    <Link to={to} className="card stat-card stat-link">
      <span className="small muted row" style={{ gap: 6 }}>
        <Icon size={15} aria-hidden /> {label}
      </span>
      <strong className={tone ?? ''}>{value}</strong>
      {hint ? <span className="small muted">{hint}</span> : null}
    </Link>
  );
}
