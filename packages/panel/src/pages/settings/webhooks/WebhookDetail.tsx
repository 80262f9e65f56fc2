import { ArrowLeft, Eye, EyeOff, Pencil, Power, PowerOff, RefreshCw, Send, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { Webhook } from '../../../api/types';
import { useDeleteWebhook, useEventTypes, useRotateSecret, useSaveWebhook, useSendTestEvent, useWebhook, useWebhookSecret } from '../../../api/webhooks';
import { permissions, useCurrentSession } from '../../../auth/session';
import { Button } from '../../../ui/Button';
import { SecretBox } from '../../../ui/CopyButton';
import { Dialog } from '../../../ui/Dialog';
import { formatDateTime, formatPercent, formatRelative } from '../../../ui/format';
import { Alert, ErrorState, Loading } from '../../../ui/States';
import { useToast } from '../../../ui/Toasts';
import { DeliveryLog } from './DeliveryLog';
import { isAllEvents } from './events';

export function WebhookDetail() {
  const { id = '' } = useParams();
  const hook = useWebhook(id);
  useEffect(() => {
    document.title = 'Webhook · Configurações · autosales';
  }, []);

  if (hook.isPending)
    return (
      <div className="card">
        <Loading />
      </div>
    );
  if (hook.isError)
    return (
      <div className="card">
        <ErrorState error={hook.error} onRetry={() => void hook.refetch()} />
      </div>
    );
  return <WebhookView webhook={hook.data} />;
}

function WebhookView({ webhook: w }: { webhook: Webhook }) {
  const { user } = useCurrentSession();
  const can = permissions(user.role);
  const toast = useToast();
  const navigate = useNavigate();
  const types = useEventTypes();
  const [disabling, setDisabling] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const setEnabled = useSaveWebhook(w.id, {
    onSuccess: (updated) => {
      setDisabling(false);
      toast.success(updated.enabled ? 'Webhook ativado.' : 'Webhook desativado.');
    },
  });
  const sendTest = useSendTestEvent(w.id, {
    onSuccess: () => toast.success('Evento de teste enviado. Acompanhe a entrega no registro abaixo.'),
    onError: (err) => toast.error(err.message),
  });
  const remove = useDeleteWebhook(w.id, {
    onSuccess: () => {
      toast.success('Webhook excluído.');
      void navigate('/configuracoes/webhooks');
    },
  });

  const labels = new Map((types.data ?? []).map((t) => [t.type, t.label]));

  return (
    <div className="stack">
      <div className="card">
        <div className="card-header">
          <div className="row" style={{ minWidth: 0, flex: 1 }}>
            <Link to="/configuracoes/webhooks" className="btn btn-ghost btn-icon" aria-label="Voltar para a lista de webhooks">
              <ArrowLeft size={18} aria-hidden />
            </Link>
            <div style={{ minWidth: 0, flex: 1 }}>
              <h2 className="mono truncate" style={{ fontSize: 15 }} title={w.url}>
                {w.url}
              </h2>
              <p>{w.description || 'Sem descrição'}</p>
            </div>
          </div>
          {can.editWebhooks ? (
            <div className="row">
              <Button icon={<Send size={16} aria-hidden />} loading={sendTest.isPending} onClick={() => sendTest.mutate()} disabled={!w.enabled}>
                Enviar evento de teste
              </Button>
              <Link to="editar" className="btn">
                <Pencil size={16} aria-hidden /> Editar
              </Link>
              {w.enabled ? (
                <Button icon={<PowerOff size={16} aria-hidden />} onClick={() => setDisabling(true)}>
                  Desativar
                </Button>
              ) : (
                <Button icon={<Power size={16} aria-hidden />} loading={setEnabled.isPending} onClick={() => setEnabled.mutate({ enabled: true })}>
                  Ativar
                </Button>
              )}
              <Button variant="danger-ghost" icon={<Trash2 size={16} aria-hidden />} onClick={() => setDeleting(true)}>
                Excluir
              </Button>
            </div>
          ) : null}
        </div>
        <div className="card-body">
          {!w.enabled ? (
            <div style={{ marginBottom: 16 }}>
              <Alert kind="warning" icon={<PowerOff size={16} aria-hidden />}>
                <strong>Desativado</strong>
                {w.disabled_at ? ` desde ${formatDateTime(w.disabled_at)}` : ''}
                {w.disabled_reason ? `: ${w.disabled_reason.replace(/[.]$/, '')}.` : '.'} Nenhum evento é entregue enquanto ele estiver desativado.
              </Alert>
            </div>
          ) : null}
          <dl className="kv">
            <dt>Status</dt>
            <dd>{w.enabled ? <span className="badge badge-success">Ativo</span> : <span className="badge badge-danger">Desativado</span>}</dd>
            <dt>Eventos</dt>
            <dd>
              {isAllEvents(w.events)
                ? 'Todos os eventos'
                : w.events.map((e) => (
                    <span className="chip" key={e} title={e}>
                      {labels.get(e) ?? e}
                    </span>
                  ))}
            </dd>
            <dt>Sucesso (30 dias)</dt>
            <dd>{formatPercent(w.success_rate)}</dd>
            <dt>Última entrega</dt>
            <dd>{w.last_delivery_at ? formatRelative(w.last_delivery_at) : 'Nenhuma ainda'}</dd>
          </dl>
        </div>
      </div>

      {can.editWebhooks ? <SecretCard webhookId={w.id} canReveal={can.revealSecret} /> : null}

      <DeliveryLog webhookId={w.id} canWrite={can.editWebhooks} />

      <DisableDialog open={disabling} onClose={() => setDisabling(false)} mutation={setEnabled} />
      <Dialog
        open={deleting}
        onClose={() => setDeleting(false)}
        title="Excluir este webhook?"
        description="As entregas pendentes são canceladas e o endereço deixa de receber eventos. Não dá para desfazer."
        footer={
          <>
            <Button onClick={() => setDeleting(false)}>Cancelar</Button>
            <Button variant="danger" loading={remove.isPending} onClick={() => remove.mutate()}>
              Excluir webhook
            </Button>
          </>
        }
      >
        {remove.error ? <Alert kind="danger">{remove.error.message}</Alert> : null}
      </Dialog>
    </div>
  );
}

function DisableDialog({
  open,
  onClose,
  mutation,
}: {
  open: boolean;
  onClose: () => void;
  mutation: { mutate: (b: { enabled: boolean }) => void; isPending: boolean; error: Error | null; reset: () => void };
}) {
  const close = () => {
    mutation.reset();
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title="Desativar webhook?"
      description="Os eventos deixam de ser entregues a este endereço até você ativá-lo de novo. Depois, use “Recuperar falhas desde…” para reenviar o que ficou para trás."
      footer={
        <>
          <Button onClick={close}>Cancelar</Button>
          <Button variant="danger" loading={mutation.isPending} onClick={() => mutation.mutate({ enabled: false })}>
            Desativar
          </Button>
        </>
      }
    >
      {mutation.error ? <Alert kind="danger">{mutation.error.message}</Alert> : null}
    </Dialog>
  );
}

function SecretCard({ webhookId, canReveal }: { webhookId: string; canReveal: boolean }) {
  const toast = useToast();
  const [shown, setShown] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [rotated, setRotated] = useState<string | null>(null);
  const secret = useWebhookSecret(webhookId, shown && canReveal);
  const rotate = useRotateSecret(webhookId, {
    onSuccess: (r) => {
      setShown(false);
      setRotated(r.secret ?? null);
      if (!r.secret) setRotating(false);
      toast.success('Segredo trocado. Atualize o sistema que recebe os eventos.');
    },
  });

  return (
    <div className="card">
      <div className="card-header">
        <div>
          <h2>Segredo de assinatura</h2>
          <p>Cada entrega leva uma assinatura HMAC-SHA256 feita com este segredo, para o seu sistema conferir a origem.</p>
        </div>
      </div>
      <div className="card-body">
        <div className="secret-row">
          {shown && secret.data ? (
            <SecretBox value={secret.data.secret} label="Segredo de assinatura" />
          ) : shown && secret.isError ? (
            <Alert kind="danger">{secret.error.message}</Alert>
          ) : (
            <div className="secret" aria-label="Segredo oculto">
              <code aria-hidden>whsec_••••••••••••••••••••••••••••••••</code>
            </div>
          )}
          <div className="row">
            {canReveal ? (
              <Button
                icon={shown ? <EyeOff size={16} aria-hidden /> : <Eye size={16} aria-hidden />}
                onClick={() => setShown((s) => !s)}
                aria-pressed={shown}
                loading={shown && secret.isFetching}
              >
                {shown ? 'Ocultar' : 'Revelar'}
              </Button>
            ) : null}
            <Button icon={<RefreshCw size={16} aria-hidden />} onClick={() => setRotating(true)}>
              Trocar segredo
            </Button>
          </div>
        </div>
        {!canReveal ? (
          <p className="hint" style={{ marginTop: 8 }}>
            Só proprietários podem ver o segredo.
          </p>
        ) : null}
      </div>
      <Dialog
        open={rotating}
        onClose={() => {
          setRotating(false);
          setRotated(null);
          rotate.reset();
        }}
        title={rotated ? 'Segredo trocado' : 'Trocar o segredo?'}
        description={
          rotated
            ? 'As próximas entregas já são assinadas com o novo segredo. Copie e atualize o sistema que recebe os eventos.'
            : 'As próximas entregas passam a ser assinadas com um segredo novo. O sistema que recebe os eventos precisa ser atualizado, senão vai recusar as assinaturas.'
        }
        footer={
          rotated ? (
            <Button
              variant="primary"
              onClick={() => {
                setRotating(false);
                setRotated(null);
              }}
            >
              Pronto
            </Button>
          ) : (
            <>
              <Button onClick={() => setRotating(false)}>Cancelar</Button>
              <Button variant="danger" loading={rotate.isPending} onClick={() => rotate.mutate()}>
                Trocar segredo
              </Button>
            </>
          )
        }
      >
        {rotated ? <SecretBox value={rotated} label="Novo segredo de assinatura" /> : null}
        {rotate.error ? <Alert kind="danger">{rotate.error.message}</Alert> : null}
      </Dialog>
    </div>
  );
}
