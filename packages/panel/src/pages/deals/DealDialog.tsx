import { Archive, CalendarPlus, Pencil, ThumbsDown, Trophy } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { fieldError } from '../../api/client';
import { useArchiveDeal, useDeal, useSaveDeal } from '../../api/deals';
import { usePeople } from '../../api/people';
import { usePhaseLabel, usePhases } from '../../api/phases';
import type { DealChanges } from '../../api/types';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/Field';
import { formatDateTime, formatDay, formatMoney } from '../../ui/format';
import { DEAL_STATUS_LABELS, PRIORITY_LABELS } from '../../ui/labels';
import { Alert, ErrorState, Loading } from '../../ui/States';
import { useToast } from '../../ui/Toasts';
import { ActivityForm } from '../agenda/ActivityForm';
import { DealFormDialog } from './DealForm';
import { DealProbability } from './DealProbability';

/** One deal: its fields, a move to another phase, and won / lost (with the reason) / archive. */
export function DealDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const phaseName = usePhaseLabel('deals');
  const [editing, setEditing] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  const [losing, setLosing] = useState(false);
  const [reason, setReason] = useState('');
  const deal = useDeal(id);
  const phases = usePhases('deals');
  const people = usePeople();
  const toast = useToast();
  const save = useSaveDeal();
  const archiving = useArchiveDeal();
  const close = () => {
    setLosing(false);
    setReason('');
    change.reset();
    onClose();
  };
  const change = {
    ...save,
    mutate: ({ body, done }: { body: DealChanges; done: string }) =>
      save.mutate(
        { id: id ?? '', body },
        {
          onSuccess: () => {
            toast.success(done);
            setLosing(false);
          },
        },
      ),
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
            {change.error && !fieldError(change.error, 'loss_reason') ? <Alert kind="danger">{change.error.message}</Alert> : null}
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
            {losing ? (
              <form
                className="card card-body"
                onSubmit={(e) => {
                  e.preventDefault();
                  change.mutate({ body: { status: 'perdido', loss_reason: reason.trim() }, done: 'Negócio marcado como perdido.' });
                }}
              >
                <TextField
                  label="Motivo da perda"
                  autoFocus
                  value={reason}
                  onChange={(e) => setReason(e.target.value)}
                  error={fieldError(change.error, 'loss_reason')}
                  hint="Ex.: preço, comprou em outra loja, desistiu."
                />
                <div className="form-actions">
                  <Button onClick={() => setLosing(false)}>Voltar</Button>
                  <Button type="submit" variant="danger" loading={change.isPending}>
                    Marcar como perdido
                  </Button>
                </div>
              </form>
            ) : (
              <div className="row">
                {active ? (
                  <>
                    <Button
                      variant="primary"
                      icon={<Trophy size={16} aria-hidden />}
                      loading={change.isPending && (change.variables?.body as DealChanges | undefined)?.status === 'ganho'}
                      onClick={() => change.mutate({ body: { status: 'ganho' }, done: 'Negócio ganho! 🎉' })}
                    >
                      Ganho
                    </Button>
                    <Button icon={<ThumbsDown size={16} aria-hidden />} onClick={() => setLosing(true)}>
                      Perdido
                    </Button>
                  </>
                ) : d.status !== 'arquivado' ? (
                  <Button onClick={() => change.mutate({ body: { status: 'ativo' }, done: 'Negócio reaberto.' })}>Reabrir</Button>
                ) : null}
                <Button icon={<Pencil size={16} aria-hidden />} onClick={() => setEditing(true)}>
                  Editar
                </Button>
                <Button icon={<CalendarPlus size={16} aria-hidden />} onClick={() => setScheduling(true)}>
                  Nova atividade
                </Button>
                <span className="spacer" />
                {d.status !== 'arquivado' ? (
                  <Button variant="danger-ghost" icon={<Archive size={16} aria-hidden />} loading={archive.isPending} onClick={() => archive.mutate()}>
                    Arquivar
                  </Button>
                ) : null}
              </div>
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
