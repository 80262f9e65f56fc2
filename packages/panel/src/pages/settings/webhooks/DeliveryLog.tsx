import { ChevronDown, ChevronRight, History, Inbox, RotateCw } from 'lucide-react';
import { Fragment, useState } from 'react';
import { Pager } from '../../records/shared';
import { fieldError } from '../../../api/client';
import type { Delivery, DeliveryAttempt } from '../../../api/types';
import { useDeliveries, useEventTypes, useRecoverDeliveries, useResendDelivery } from '../../../api/webhooks';
import { Button } from '../../../ui/Button';
import { Dialog } from '../../../ui/Dialog';
import { TextField } from '../../../ui/Field';
import { formatDateTime } from '../../../ui/format';
import { Alert, EmptyState, ErrorState, Loading } from '../../../ui/States';
import { useToast } from '../../../ui/Toasts';
import { DeliveryStatus } from './WebhookStatus';

const LIMIT = 20;

function attemptsOf(d: Delivery): number {
  return d.attempts_count ?? d.attempts.length;
}

const ERROR_LABELS: Record<string, string> = {
  timeout: 'Tempo esgotado sem resposta',
  tls: 'Certificado HTTPS recusado',
  dns: 'Endereço não encontrado (DNS)',
  blocked: 'Endereço bloqueado (rede privada)',
  redirect: 'Resposta com redirecionamento (não seguimos)',
  connection: 'Conexão recusada ou interrompida',
  http: 'Resposta de erro do servidor',
};

export function DeliveryLog({ webhookId, canWrite }: { webhookId: string; canWrite: boolean }) {
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<Set<string>>(new Set());
  const [recovering, setRecovering] = useState(false);
  const toast = useToast();
  const types = useEventTypes();
  const labels = new Map((types.data ?? []).map((t) => [t.type, t.label]));
  const log = useDeliveries(webhookId, page, LIMIT);
  const resend = useResendDelivery(webhookId, { onSuccess: () => toast.success('Entrega reenviada.'), onError: (err) => toast.error(err.message) });

  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const p = log.data?.pagination;

  let body;
  if (log.isPending) body = <Loading />;
  else if (log.isError) body = <ErrorState error={log.error} onRetry={() => void log.refetch()} />;
  else if (log.data.data.length === 0 && page === 1)
    body = (
      <EmptyState icon={Inbox} title="Nenhuma entrega ainda">
        Quando um evento acontecer na loja (ou você enviar um evento de teste), a entrega aparece aqui com cada tentativa.
      </EmptyState>
    );
  else
    body = (
      <>
        <div className="table-wrap">
          <table className="table responsive" aria-label="Registro de entregas">
            <thead>
              <tr>
                <th scope="col">
                  <span className="sr-only">Detalhes</span>
                </th>
                <th scope="col">Evento</th>
                <th scope="col">Status</th>
                <th scope="col">Tentativas</th>
                <th scope="col">Criada em</th>
                <th scope="col">
                  <span className="sr-only">Ações</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {log.data.data.map((d) => {
                const expanded = open.has(d.id);
                return (
                  <Fragment key={d.id}>
                    <tr data-testid="delivery-row">
                      <td style={{ width: 40 }} className="expander">
                        <button
                          type="button"
                          className="btn btn-ghost btn-icon"
                          aria-expanded={expanded}
                          aria-controls={`attempts-${d.id}`}
                          onClick={() => toggle(d.id)}
                          aria-label={expanded ? 'Ocultar tentativas' : 'Ver tentativas'}
                        >
                          {expanded ? <ChevronDown size={16} aria-hidden /> : <ChevronRight size={16} aria-hidden />}
                        </button>
                      </td>
                      <td className="primary-cell" title={d.event_id}>
                        <span>{labels.get(d.event_type) ?? d.event_type}</span>
                        <div className="small muted mono truncate">{d.event_type}</div>
                      </td>
                      <td data-label="Status">
                        <DeliveryStatus status={d.status} />
                      </td>
                      <td data-label="Tentativas">{attemptsOf(d)}</td>
                      <td data-label="Criada em" className="nowrap">
                        {formatDateTime(d.created_at)}
                      </td>
                      <td className="actions">
                        {canWrite ? (
                          <Button
                            size="sm"
                            icon={<RotateCw size={14} aria-hidden />}
                            loading={resend.isPending && resend.variables === d.id}
                            onClick={() => resend.mutate(d.id)}
                          >
                            Reenviar
                          </Button>
                        ) : null}
                      </td>
                    </tr>
                    {expanded ? (
                      <tr id={`attempts-${d.id}`}>
                        <td colSpan={6}>
                          <Attempts attempts={d.attempts} nextAt={d.next_attempt_at ?? null} />
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
        <Pager page={page} pagination={{ pages: p?.pages ?? 1, total: p?.total ?? 0 }} noun={['entrega', 'entregas']} onPage={setPage} />
      </>
    );

  return (
    <div className="card">
      <div className="card-header">
        <div>
          <h2>Registro de entregas</h2>
          <p>Cada evento enviado, com as tentativas: status HTTP, tempo de resposta e o começo da resposta.</p>
        </div>
        {canWrite ? (
          <Button icon={<History size={16} aria-hidden />} onClick={() => setRecovering(true)}>
            Recuperar falhas desde…
          </Button>
        ) : null}
      </div>
      {body}
      <RecoverDialog open={recovering} onClose={() => setRecovering(false)} webhookId={webhookId} />
    </div>
  );
}

function Attempts({ attempts, nextAt }: { attempts: DeliveryAttempt[]; nextAt: string | null }) {
  if (attempts.length === 0)
    return (
      <div className="attempts">
        <span className="muted">Nenhuma tentativa ainda{nextAt ? `; a próxima está marcada para ${formatDateTime(nextAt)}` : ''}.</span>
      </div>
    );
  return (
    <div className="attempts">
      {attempts.map((a, i) => {
        const ok = a.status_code !== null && a.status_code >= 200 && a.status_code < 300;
        return (
          <div className="attempt" key={i}>
            <span className="nowrap">
              #{a.attempt ?? i + 1} · {formatDateTime(a.attempted_at)}
            </span>
            <span>
              {a.status_code !== null ? (
                <span className={`badge badge-plain ${ok ? 'badge-success' : 'badge-danger'}`}>HTTP {a.status_code}</span>
              ) : (
                <span className="badge badge-plain badge-danger">Sem resposta</span>
              )}
            </span>
            <span className="nowrap">{a.duration_ms !== null ? `${a.duration_ms} ms` : '—'}</span>
            <div className="stack" style={{ gap: 4, minWidth: 0 }}>
              {a.error_class && !(a.error_class === 'http' && a.status_code !== null) ? (
                <span className="small">{ERROR_LABELS[a.error_class] ?? a.error_class}</span>
              ) : null}
              {a.response_body ? <pre>{a.response_body}</pre> : a.status_code !== null ? <span className="small muted">(resposta vazia)</span> : null}
            </div>
          </div>
        );
      })}
      {nextAt ? <span className="small muted">Próxima tentativa: {formatDateTime(nextAt)}</span> : null}
    </div>
  );
}

/** The value of <input type="datetime-local"> for a Date, in the browser's time zone. */
function localInputValue(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function RecoverDialog({ open, onClose, webhookId }: { open: boolean; onClose: () => void; webhookId: string }) {
  const [since, setSince] = useState(() => localInputValue(new Date(Date.now() - 24 * 3600 * 1000)));
  const toast = useToast();
  const recover = useRecoverDeliveries(webhookId, {
    onSuccess: (r) => {
      const n = r.queued;
      toast.success(n === 0 ? 'Nenhuma falha nesse período.' : n === 1 ? '1 entrega enviada de novo.' : `${n} entregas enviadas de novo.`);
      close();
    },
  });
  const close = () => {
    recover.reset();
    onClose();
  };
  const err = recover.error;
  return (
    <Dialog
      open={open}
      onClose={close}
      title="Recuperar falhas"
      description="Todas as entregas que falharam a partir deste momento são enviadas de novo, na ordem em que aconteceram."
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          recover.mutate(new Date(since).toISOString());
        }}
      >
        {err && !fieldError(err, 'since') ? <Alert kind="danger">{err.message}</Alert> : null}
        <TextField
          label="Desde"
          type="datetime-local"
          required
          value={since}
          max={localInputValue(new Date())}
          onChange={(e) => setSince(e.target.value)}
          error={fieldError(err, 'since')}
        />
        <div className="form-actions">
          <Button onClick={close}>Cancelar</Button>
          <Button type="submit" variant="primary" loading={recover.isPending}>
            Recuperar falhas
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
