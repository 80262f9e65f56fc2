import { ArrowLeft, ShieldCheck } from 'lucide-react';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { fieldError, formError } from '../../../api/client';
import type { CreatedWebhook, EventType, Webhook } from '../../../api/types';
import { useEventTypes, useSaveWebhook, useWebhook } from '../../../api/webhooks';
import { Button } from '../../../ui/Button';
import { SecretBox } from '../../../ui/CopyButton';
import { Dialog } from '../../../ui/Dialog';
import { TextArea, TextField } from '../../../ui/Field';
import { Alert, ErrorState, Loading } from '../../../ui/States';
import { useToast } from '../../../ui/Toasts';
import { isAllEvents } from './events';

const AREA_LABELS: Record<string, string> = {
  deal: 'Negócios',
  deals: 'Negócios',
  client: 'Clientes',
  clients: 'Clientes',
  vehicle: 'Veículos',
  vehicles: 'Veículos',
  activity: 'Agenda',
  activities: 'Agenda',
  financial: 'Financeiro',
  financial_record: 'Financeiro',
  webhook: 'Webhooks',
};

function areaLabel(area: string): string {
  return AREA_LABELS[area] ?? area.charAt(0).toUpperCase() + area.slice(1);
}

export function WebhookCreate() {
  useEffect(() => {
    document.title = 'Novo webhook · Configurações · autosales';
  }, []);
  return <WebhookFormPage initial={null} />;
}

export function WebhookEdit() {
  const { id = '' } = useParams();
  const hook = useWebhook(id);
  useEffect(() => {
    document.title = 'Editar webhook · Configurações · autosales';
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
  return <WebhookFormPage initial={hook.data} />;
}

function WebhookFormPage({ initial }: { initial: Webhook | null }) {
  const navigate = useNavigate();
  const toast = useToast();
  const types = useEventTypes();
  const [url, setUrl] = useState(initial?.url ?? 'https://');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [all, setAll] = useState(initial ? isAllEvents(initial.events) : true);
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(initial && !isAllEvents(initial.events) ? initial.events : []));
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);

  const save = useSaveWebhook(initial?.id, {
    onSuccess: (w) => {
      if (initial) {
        toast.success('Webhook atualizado.');
        void navigate(`/configuracoes/webhooks/${w.id}`);
      } else if (w.secret) {
        setCreated(w);
      } else {
        toast.success('Webhook criado.');
        void navigate(`/configuracoes/webhooks/${w.id}`);
      }
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!all && chosen.size === 0) {
      setLocalError('Escolha pelo menos um evento, ou marque "Todos os eventos".');
      return;
    }
    setLocalError(null);
    save.mutate({ url: url.trim(), description: description.trim() || null, events: all ? [] : [...chosen] });
  };

  const err = save.error;
  const eventsErr = localError ?? fieldError(err, 'events');
  const general = formError(err, ['url', 'description', 'events']);
  const back = initial ? `/configuracoes/webhooks/${initial.id}` : '/configuracoes/webhooks';

  return (
    <div className="card">
      <div className="card-header">
        <div className="row">
          <Link to={back} className="btn btn-ghost btn-icon" aria-label="Voltar">
            <ArrowLeft size={18} aria-hidden />
          </Link>
          <div>
            <h2>{initial ? 'Editar webhook' : 'Novo webhook'}</h2>
            <p>Enviamos um POST assinado para o endereço a cada evento escolhido.</p>
          </div>
        </div>
      </div>
      <form className="card-body" onSubmit={submit} noValidate>
        <div className="stack">
          {general ? <Alert kind="danger">{general}</Alert> : null}
          <div>
            <TextField
              label="Endereço (URL)"
              type="url"
              inputMode="url"
              required
              placeholder="https://exemplo.com.br/webhooks/autosales"
              hint="Precisa começar com https://."
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              error={fieldError(err, 'url')}
              className="mono"
            />
            <TextArea
              label="Descrição (opcional)"
              rows={2}
              maxLength={500}
              placeholder="Ex.: integração com o site da loja"
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              error={fieldError(err, 'description')}
            />
          </div>
          <fieldset aria-describedby={eventsErr ? 'events-error' : undefined}>
            <legend className="label">Eventos</legend>
            <div className="radio-cards">
              <label className="check radio-card">
                <input type="radio" name="events-mode" checked={all} onChange={() => setAll(true)} />
                <span>
                  Todos os eventos
                  <small>Inclui os tipos que surgirem no futuro.</small>
                </span>
              </label>
              <label className="check radio-card">
                <input type="radio" name="events-mode" checked={!all} onChange={() => setAll(false)} />
                <span>
                  Escolher eventos
                  <small>Só os tipos marcados abaixo.</small>
                </span>
              </label>
            </div>
            {!all ? <EventPicker types={types} chosen={chosen} onChange={setChosen} /> : null}
            {eventsErr ? (
              <p className="field-error" id="events-error" role="alert" style={{ marginTop: 8 }}>
                {eventsErr}
              </p>
            ) : null}
          </fieldset>
        </div>
        <div className="form-actions">
          <Link to={back} className="btn">
            Cancelar
          </Link>
          <Button type="submit" variant="primary" loading={save.isPending}>
            {initial ? 'Salvar alterações' : 'Criar webhook'}
          </Button>
        </div>
      </form>
      <Dialog
        open={created !== null}
        onClose={() => created && void navigate(`/configuracoes/webhooks/${created.id}`)}
        title="Webhook criado"
        description="Guarde o segredo de assinatura: com ele seu sistema confere que cada entrega veio do autosales."
        footer={
          <Button variant="primary" onClick={() => created && void navigate(`/configuracoes/webhooks/${created.id}`)}>
            Continuar
          </Button>
        }
      >
        {created?.secret ? (
          <div className="stack">
            <SecretBox value={created.secret} label="Segredo de assinatura" />
            <Alert kind="info" icon={<ShieldCheck size={16} aria-hidden />}>
              Proprietários podem ver o segredo de novo na página do webhook, e trocá-lo quando quiserem.
            </Alert>
          </div>
        ) : null}
      </Dialog>
    </div>
  );
}

function EventPicker({ types, chosen, onChange }: { types: ReturnType<typeof useEventTypes>; chosen: Set<string>; onChange: (next: Set<string>) => void }) {
  const groups = useMemo(() => {
    const map = new Map<string, EventType[]>();
    for (const t of types.data ?? []) {
      const list = map.get(t.area) ?? [];
      list.push(t);
      map.set(t.area, list);
    }
    return [...map.entries()];
  }, [types.data]);

  if (types.isPending) return <Loading rows={3} label="Carregando os tipos de evento…" />;
  if (types.isError) return <ErrorState error={types.error} onRetry={() => void types.refetch()} />;

  const toggle = (type: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(type);
    else next.delete(type);
    onChange(next);
  };
  const toggleArea = (list: EventType[], on: boolean) => {
    const next = new Set(chosen);
    for (const t of list) {
      if (on) next.add(t.type);
      else next.delete(t.type);
    }
    onChange(next);
  };

  return (
    <div className="event-groups">
      {groups.map(([area, list]) => {
        const count = list.filter((t) => chosen.has(t.type)).length;
        return (
          <div className="event-group" key={area} role="group" aria-label={list[0]?.area_label ?? areaLabel(area)}>
            <label className="check">
              <input
                type="checkbox"
                checked={count === list.length}
                ref={(el) => {
                  if (el) el.indeterminate = count > 0 && count < list.length;
                }}
                onChange={(e) => toggleArea(list, e.target.checked)}
              />
              <span>
                {list[0]?.area_label ?? areaLabel(area)} <span className="muted small">(todos)</span>
              </span>
            </label>
            {list.map((t) => (
              <label className="check" key={t.type}>
                <input type="checkbox" checked={chosen.has(t.type)} onChange={(e) => toggle(t.type, e.target.checked)} />
                <span>
                  {t.label}
                  {t.emitted === false ? <span className="muted small"> · em breve</span> : null}
                  <small className="mono">{t.type}</small>
                </span>
              </label>
            ))}
          </div>
        );
      })}
    </div>
  );
}
