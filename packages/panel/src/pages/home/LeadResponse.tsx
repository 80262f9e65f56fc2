import { useId, useState } from 'react';
import { useLeadStats } from '../../api/leads';
import { formatInt } from '../../ui/format';
import { ErrorState, Loading } from '../../ui/States';

/** The server's percent (0–100, one decimal). */
const percent = (p: number | null) => (p === null ? '—' : `${p.toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`);
const minutes = (m: number | null) => (m === null ? '—' : `${m.toLocaleString('pt-BR', { maximumFractionDigits: 1 })} min`);

/**
 * Início's response to leads, per seller, for a period (this month until the person picks days):
 * leads received, how many answered, the median response time and the share answered within the
 * team's target. The server computes every number.
 */
export function LeadResponse() {
  const headingId = useId();
  const [period, setPeriod] = useState<{ from?: string; to?: string }>({});
  const stats = useLeadStats(period);
  const d = stats.data;
  return (
    <section className="card" aria-labelledby={headingId} data-testid="lead-response">
      <div className="card-header">
        <div>
          <h2 id={headingId}>Resposta a leads</h2>
          <p>{d ? `Meta: responder em ${d.response_minutes} min.` : ' '}</p>
        </div>
        <div className="row" style={{ gap: 8 }}>
          <label className="small muted">
            De{' '}
            <input
              className="input"
              type="date"
              style={{ width: 'auto', height: 32 }}
              value={period.from ?? d?.from ?? ''}
              onChange={(e) => setPeriod((p) => ({ ...p, from: e.target.value || undefined }))}
            />
          </label>
          <label className="small muted">
            Até{' '}
            <input
              className="input"
              type="date"
              style={{ width: 'auto', height: 32 }}
              value={period.to ?? d?.to ?? ''}
              onChange={(e) => setPeriod((p) => ({ ...p, to: e.target.value || undefined }))}
            />
          </label>
        </div>
      </div>
      {stats.isPending ? (
        <Loading rows={3} />
      ) : stats.isError ? (
        <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />
      ) : d && d.sellers.length === 0 ? (
        <p className="card-body muted small">Nenhum lead recebido no período.</p>
      ) : d ? (
        <div className="table-wrap">
          <table className="table responsive">
            <thead>
              <tr>
                <th scope="col">Vendedor</th>
                <th scope="col">Leads recebidos</th>
                <th scope="col">Respondidos</th>
                <th scope="col">Tempo mediano de resposta</th>
                <th scope="col">Respondidos na meta</th>
              </tr>
            </thead>
            <tbody>
              {d.sellers.map((s) => (
                <tr key={s.responsible?.id ?? ''} data-testid="lead-response-row">
                  <td className="primary-cell">{s.responsible?.name ?? 'Sem responsável'}</td>
                  <td data-label="Leads recebidos">{formatInt(s.received)}</td>
                  <td data-label="Respondidos">{formatInt(s.answered)}</td>
                  <td data-label="Tempo mediano de resposta">{minutes(s.median_response_minutes)}</td>
                  <td data-label="Respondidos na meta">{percent(s.within_target_rate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
