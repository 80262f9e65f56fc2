import type { Webhook } from '../../../api/types';
import { formatRelative } from '../../../ui/format';

export function WebhookStatus({ webhook }: { webhook: Webhook }) {
  if (webhook.enabled) return <span className="badge badge-success">Ativo</span>;
  return (
    <span className="stack" style={{ gap: 2 }}>
      <span>
        <span className="badge badge-danger">Desativado</span>
      </span>
      {webhook.disabled_reason || webhook.disabled_at ? (
        <span className="small muted">
          {webhook.disabled_reason ? `${webhook.disabled_reason} · ` : ''}
          {webhook.disabled_at ? `desde ${formatRelative(webhook.disabled_at)}` : ''}
        </span>
      ) : null}
    </span>
  );
}

const DELIVERY_STATUS: Record<string, [string, string]> = {
  succeeded: ['badge-success', 'Entregue'],
  pending: ['badge-info', 'Pendente'],
  failed: ['badge-danger', 'Falhou'],
};

export function DeliveryStatus({ status }: { status: string }) {
  const [cls, label] = DELIVERY_STATUS[status] ?? ['', status];
  return <span className={`badge ${cls}`}>{label}</span>;
}

/** The latest attempt of a webhook: its HTTP status, green when it was a 2xx. */
export function LastAttempt({ webhook: w }: { webhook: Webhook }) {
  const ok = w.last_delivery_ok ?? (w.last_delivery_status !== null && w.last_delivery_status >= 200 && w.last_delivery_status < 300);
  return (
    <span className={`badge ${ok ? 'badge-success' : 'badge-danger'}`}>
      {w.last_delivery_status !== null ? `HTTP ${w.last_delivery_status}` : 'Sem resposta'}
    </span>
  );
}
