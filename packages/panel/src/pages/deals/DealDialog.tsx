import { ThumbsDown, Trophy } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useArchiveDeal, useDeal, useSaveDeal } from '../../api/deals';
import { usePeople } from '../../api/people';
import { usePhaseLabel, usePhases } from '../../api/phases';
import type { DealChanges } from '../../api/types';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { formatDateTime, formatDay, formatMoney } from '../../ui/format';
import { DEAL_STATUS_LABELS, PRIORITY_LABELS } from '../../ui/labels';
import { Alert, ErrorState, Loading } from '../../ui/States';
import { useToast } from '../../ui/Toasts';
import { ActivityForm } from '../agenda/ActivityForm';
import { RecordActions } from '../records/RecordActions';
import { DealFormDialog } from './DealForm';
import { DealProbability } from './DealProbability';
import { LossForm } from './LossForm';
import { WinForm } from './WinForm';

/** One deal: its fields, a move to another phase, and won / lost (with the reason) / archive. */
export function DealDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const phaseName = usePhaseLabel('deals');
  const [editing, setEditing] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  /** A win or a loss being recorded (its form replaces the action bar). */
  const [closing, setClosing] = useState<'won' | 'lost' | null>(null);
  const deal = useDeal(id);
  const phases = usePhases('deals');
  const people = usePeople();
  const toast = useToast();
  const save = useSaveDeal();
  const archiving = useArchiveDeal();
  const close = () => {
    setClosing(null);
    change.reset();
    onClose();
  };
  const change = {
    ...save,
    mutate: ({ body, done }: { body: DealChanges; done: string }) => save.mutate({ id: id ?? '', body }, { onSuccess: () => toast.success(done) }),
  };
  const archive = {
    ...archiving,
    mutate: () =>
      archiving.mutate(id ?? '', {
        onSuccess: () => {
          toast.success('Negócio arquivado.');
          close();
        },
        onError: (err) => toast.error(err.message),
      }),
  };

  const d = deal.data;
  const active = d?.status === 'ativo';
  const responsible = d?.responsible_id ? (people.data?.find((p) => p.id === d.responsible_id)?.name ?? '—') : 'Ninguém';
  return (
    <>
      <Dialog open={id !== null && !editing && !scheduling} onClose={close} title={d?.title ?? 'Negócio'} wide>
        {deal.isPending ? (
          <Loading />
        ) : deal.isError ? (
          <ErrorState error={deal.error} onRetry={() => void deal.refetch()} />
        ) : d ? (
          <div className="stack">
            {change.error ? <Alert kind="danger">{change.error.message}</Alert> : null}
            <div className="row">
              <span className={`badge ${d.status === 'ganho' ? 'badge-success' : d.status === 'perdido' ? 'badge-danger' : ''}`}>
                {DEAL_STATUS_LABELS[d.status] ?? d.status}
              </span>
              <span className={`badge prio-${d.priority}`}>Prioridade {(PRIORITY_LABELS[d.priority] ?? d.priority).toLowerCase()}</span>
            </div>
            <dl className="kv">
              <dt>Valor</dt>
              <dd>{formatMoney(d.value)}</dd>
              <dt>Cliente</dt>
              <dd>{d.client ? <Link to={`/clientes/${d.client.id}`}>{d.client.name}</Link> : '—'}</dd>
              <dt>Responsável</dt>
              <dd>{responsible}</dd>
              <dt>Origem</dt>
              <dd>{d.source ?? '—'}</dd>
              <dt>Fechamento previsto</dt>
              <dd>{formatDay(d.expected_close_date)}</dd>
              {d.loss_reason ? (
                <>
                  <dt>Motivo da perda</dt>
                  <dd>{d.loss_reason}</dd>
                </>
              ) : null}
              <dt>Atualizado</dt>
              <dd>{formatDateTime(d.updated_at)}</dd>
            </dl>
            {d.description ? <p className="muted">{d.description}</p> : null}
            {d.status !== 'arquivado' ? <DealProbability id={d.id} probability={d.ai_win_probability} summary={d.ai_summary} /> : null}
            {active ? (
              <div className="field">
                <label className="label" htmlFor="deal-move">
                  Fase
                </label>
                <select
                  id="deal-move"
                  className="select"
                  value={d.phase}
                  disabled={change.isPending}
                  onChange={(e) => change.mutate({ body: { phase: e.target.value }, done: `Movido para ${phaseName(e.target.value)}.` })}
                >
                  {phases.data?.map((p) => (
                    <option key={p.name} value={p.name}>
                      {p.label}
                    </option>
                  ))}
                </select>
              </div>
            ) : (
              <p className="small muted">Fase: {phaseName(d.phase)}</p>
            )}
            {closing === 'lost' ? (
              <LossForm deal={d} onBack={() => setClosing(null)} onDone={() => setClosing(null)} />
            ) : closing === 'won' ? (
              <WinForm deal={d} onBack={() => setClosing(null)} onDone={() => setClosing(null)} />
            ) : (
              <RecordActions
                onEdit={() => setEditing(true)}
                onSchedule={() => setScheduling(true)}
                onArchive={d.status !== 'arquivado' ? () => archive.mutate() : undefined}
                archiving={archive.isPending}
              >
                {active ? (
                  <>
                    <Button variant="primary" icon={<Trophy size={16} aria-hidden />} onClick={() => setClosing('won')}>
                      Ganho
                    </Button>
                    <Button icon={<ThumbsDown size={16} aria-hidden />} onClick={() => setClosing('lost')}>
                      Perdido
                    </Button>
                  </>
                ) : d.status !== 'arquivado' ? (
                  <Button loading={change.isPending} onClick={() => change.mutate({ body: { status: 'ativo' }, done: 'Negócio reaberto.' })}>
                    Reabrir
                  </Button>
                ) : null}
              </RecordActions>
            )}
          </div>
        ) : null}
      </Dialog>
      <DealFormDialog open={editing && d !== undefined} deal={d} onClose={() => setEditing(false)} />
      {scheduling && d ? (
        <ActivityForm
          link={{ deal_id: d.id, ...(d.client ? { client: d.client } : {}), label: `Ligada ao negócio “${d.title}”.` }}
          onClose={() => setScheduling(false)}
        />
      ) : null}
    </>
  );
}
