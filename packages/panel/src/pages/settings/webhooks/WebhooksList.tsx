import { Plus, Webhook as WebhookIcon } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import { permissions, useCurrentSession } from '../../../auth/session';
import { formatPercent, formatRelative } from '../../../ui/format';
import { EmptyState, ErrorState, Loading } from '../../../ui/States';
import { useWebhooks } from '../../../api/webhooks';
import { eventsSummary } from './events';
import { LastAttempt, WebhookStatus } from './WebhookStatus';

export function WebhooksList() {
  const list = useWebhooks();
  const navigate = useNavigate();
  const can = permissions(useCurrentSession().user.role);
  useEffect(() => {
    document.title = 'Webhooks · Configurações · autosales';
  }, []);

  const newButton = can.editWebhooks ? (
    <Link to="novo" className="btn btn-primary">
      <Plus size={16} aria-hidden /> Novo webhook
    </Link>
  ) : null;

  let body;
  if (list.isPending) body = <Loading />;
  else if (list.isError) body = <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  else if (list.data.length === 0)
    body = (
      <EmptyState icon={WebhookIcon} title="Nenhum webhook ainda" action={newButton}>
        Um webhook avisa outro sistema (seu site, CRM ou planilha) sempre que algo acontece na loja: um negócio criado, uma fase alterada, um cliente novo.
      </EmptyState>
    );
  else
    body = (
      <div className="table-wrap">
        <table className="table responsive">
          <thead>
            <tr>
              <th scope="col">Endereço</th>
              <th scope="col">Eventos</th>
              <th scope="col">Status</th>
              <th scope="col">Sucesso (30 dias)</th>
              <th scope="col">Última entrega</th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((w) => (
              <tr key={w.id} className="clickable" onClick={() => void navigate(w.id)}>
                <td className="primary-cell" style={{ maxWidth: 360 }}>
                  <Link to={w.id} className="link-strong mono truncate" style={{ display: 'block' }} onClick={(e) => e.stopPropagation()}>
                    {w.url}
                  </Link>
                  {w.description ? <div className="small muted truncate">{w.description}</div> : null}
                </td>
                <td data-label="Eventos" className="nowrap">
                  {eventsSummary(w.events)}
                </td>
                <td data-label="Status">
                  <WebhookStatus webhook={w} />
                </td>
                <td data-label="Sucesso">{formatPercent(w.success_rate)}</td>
                <td data-label="Última entrega">
                  <span className="row" style={{ justifyContent: 'inherit' }}>
                    {w.last_delivery_at ? (
                      <>
                        <LastAttempt webhook={w} />
                        <span className="small muted nowrap">{formatRelative(w.last_delivery_at)}</span>
                      </>
                    ) : (
                      <span className="muted">Nenhuma ainda</span>
                    )}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );

  return (
    <div className="card">
      <div className="card-header">
        <div>
          <h2>Webhooks</h2>
          <p>Endereços HTTPS que recebem os eventos da loja, assinados com um segredo.</p>
        </div>
        {list.data && list.data.length > 0 ? newButton : null}
      </div>
      {body}
    </div>
  );
}
