import { Check } from 'lucide-react';
import { Link } from 'react-router';
import { useCompleteActivity } from '../../api/activities';
import type { Activity } from '../../api/types';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { formatDateTime } from '../../ui/format';
import { PRIORITY_LABELS } from '../../ui/labels';
import { useToast } from '../../ui/Toasts';
import { ACTIVITY_TYPE_LABELS } from './ActivityForm';

/** A note is a record of something said or seen: nothing to complete. */
export const completable = (a: Activity) => a.type !== 'note' && a.status !== 'completed' && a.status !== 'cancelled';

/** One activity, opened from the agenda's list or calendar: when, who, what it is linked to, and "Concluir". */
export function ActivityDialog({ activity: a, responsible, onClose }: { activity: Activity; responsible: string; onClose: () => void }) {
  const completing = useCompleteActivity();
  const toast = useToast();
  const complete = () =>
    completing.mutate(a.id, {
      onSuccess: (done) => {
        toast.success(`“${done.title}” concluída.`);
        onClose();
      },
      onError: (err) => toast.error(err.message),
    });
  return (
    <Dialog
      open
      onClose={onClose}
      title={a.title}
      description={ACTIVITY_TYPE_LABELS[a.type] ?? a.type}
      footer={
        completable(a) ? (
          <Button variant="primary" icon={<Check size={15} aria-hidden />} loading={completing.isPending} onClick={complete}>
            Concluir
          </Button>
        ) : undefined
      }
    >
      <dl className="kv">
        <dt>Quando</dt>
        <dd>{formatDateTime(a.due_at)}</dd>
        <dt>Situação</dt>
        <dd>
          {a.status === 'completed'
            ? 'Concluída'
            : a.status === 'cancelled'
              ? 'Cancelada'
              : a.is_overdue
                ? 'Atrasada'
                : a.type === 'note'
                  ? 'Anotação'
                  : 'Aberta'}
        </dd>
        <dt>Responsável</dt>
        <dd>{responsible}</dd>
        <dt>Prioridade</dt>
        <dd>{PRIORITY_LABELS[a.priority] ?? a.priority}</dd>
        {a.client ? (
          <>
            <dt>Cliente</dt>
            <dd>
              <Link to={`/clientes/${a.client.id}`}>{a.client.name}</Link>
            </dd>
          </>
        ) : null}
        {a.deal ? (
          <>
            <dt>Negócio</dt>
            <dd>{a.deal.name}</dd>
          </>
        ) : null}
        {a.vehicle ? (
          <>
            <dt>Veículo</dt>
            <dd>{a.vehicle.name}</dd>
          </>
        ) : null}
        {a.description ? (
          <>
            <dt>Detalhes</dt>
            <dd style={{ whiteSpace: 'pre-wrap' }}>{a.description}</dd>
          </>
        ) : null}
      </dl>
    </Dialog>
  );
}
