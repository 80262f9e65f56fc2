import { Clock, User } from 'lucide-react';
import type { DealBoardFilters } from '../../api/deals';
import { useWaitingLeads } from '../../api/leads';
import { formatMoney, formatWaiting } from '../../ui/format';

/**
 * Above the board: the new leads nobody answered yet (no completed activity, no phase change), the
 * oldest first, each with its waiting time by the server's clock; past the team's target, marked late.
 */
export function WaitingLeads({ params, onOpen }: { params: DealBoardFilters; onOpen: (id: string) => void }) {
  const waiting = useWaitingLeads(params);
  const items = waiting.data?.items ?? [];
  if (items.length === 0) return null;
  const late = items.filter((i) => i.late).length;
  return (
    <section className="card waiting-leads" aria-labelledby="waiting-leads-title" data-testid="waiting-leads">
      <div className="card-header">
        <div>
          <h2 id="waiting-leads-title">Leads aguardando resposta ({items.length})</h2>
          <p>
            Meta: responder em {waiting.data?.response_minutes} min.
            {late > 0 ? ` ${late} ${late === 1 ? 'passou' : 'passaram'} da meta.` : ''}
          </p>
        </div>
      </div>
      <ul className="waiting-leads-list">
        {items.map((lead) => (
          <li key={lead.deal_id}>
            <button type="button" className={`waiting-lead ${lead.late ? 'late' : ''}`} onClick={() => onOpen(lead.deal_id)} data-testid="waiting-lead">
              <strong className="truncate">{lead.client?.name ?? lead.title}</strong>
              <span className="small muted truncate">{lead.title}</span>
              <span className="row" style={{ gap: 6, justifyContent: 'space-between' }}>
                <span className={`badge ${lead.late ? 'badge-danger' : 'badge-warning'}`} title={lead.late ? 'Passou da meta de resposta' : undefined}>
                  <Clock size={12} aria-hidden /> {formatWaiting(lead.waiting_minutes)}
                  {lead.late ? <span className="sr-only"> (atrasado)</span> : null}
                </span>
                {lead.value !== null ? <span className="small money">{formatMoney(lead.value)}</span> : null}
              </span>
              <span className="small muted row" style={{ gap: 4 }}>
                <User size={13} aria-hidden /> {lead.responsible?.name ?? 'Sem responsável'}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
