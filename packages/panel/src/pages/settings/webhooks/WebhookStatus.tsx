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

export function DeliveryStatus({ status }: { status: string | null | undefined }) {
  if (!status) return <span className="muted">—</span>;
  const map: Record<string, [string, string]> = {
    delivered: ['badge-success', 'Entregue'],
    succeeded: ['badge-success', 'Entregue'],
    success: ['badge-success', 'Entregue'],
    pending: ['badge-info', 'Pendente'],
    retrying: ['badge-warning', 'Tentando de novo'],
    failed: ['badge-danger', 'Falhou'],
    dead: ['badge-danger', 'Falhou'],
  };
  const [cls, label] = map[status] ?? ['', status];
  return <span className={`badge ${cls}`}>{label}</span>;
}
