import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarCheck, CalendarDays, Check, Plus } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { api, fieldError } from '../../api/client';
import { PRIORITY_LABELS, type Activity, type ActivityType, type Priority } from '../../api/records';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { SelectField, TextArea, TextField } from '../../ui/Field';
import { formatDateTime } from '../../ui/format';
import { Alert, EmptyState, ErrorState, Loading } from '../../ui/States';
import { useToast } from '../../ui/Toasts';
import { ClientPicker, Pager, qs, usePeople } from '../records/shared';

export const ACTIVITY_TYPE_LABELS: Record<ActivityType, string> = {
  task: 'Tarefa',
  deadline: 'Prazo',
  meeting: 'Visita / reunião',
  call: 'Ligação',
  email: 'E-mail',
  note: 'Anotação',
};
const VIEWS = [
  ['today', 'Hoje'],
  ['overdue', 'Atrasadas'],
  ['upcoming', 'Próximas'],
  ['all', 'Todas'],
] as const;
type View = (typeof VIEWS)[number][0];

export function AgendaPage() {
  const [view, setView] = useState<View>('today');
  const [responsible, setResponsible] = useState('');
  const [creating, setCreating] = useState(false);
  const signature = JSON.stringify([view, responsible]);
  const [paging, setPaging] = useState({ signature, page: 1 });
  const page = paging.signature === signature ? paging.page : 1;
  const people = usePeople();
  const qc = useQueryClient();
  const toast = useToast();
  const list = useQuery({
    queryKey: ['activities', 'list', view, responsible, page],
    queryFn: () => api.page<Activity>(`/activities${qs({ view, responsible_id: responsible, page, limit: 25 })}`),
    placeholderData: (prev) => prev,
  });
  const complete = useMutation({
    mutationFn: (a: Activity) => api.post<Activity>(`/activities/${encodeURIComponent(a.id)}/complete`),
    onSuccess: (a) => {
      void qc.invalidateQueries({ queryKey: ['activities'] });
      void qc.invalidateQueries({ queryKey: ['deals'] });
      void qc.invalidateQueries({ queryKey: ['dashboard'] });
      toast.success(`“${a.title}” concluída.`);
    },
    onError: (err) => toast.error(err.message),
  });
  useEffect(() => {
    document.title = 'Agenda · autosales';
  }, []);
  const nameOf = (id: string | null) => (id ? (people.data?.find((p) => p.id === id)?.name ?? '—') : 'Ninguém');

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Agenda</h1>
          <p>Visitas, test drives, ligações e retornos: o que vence hoje, o que atrasou e o que vem por aí.</p>
        </div>
        <Button variant="primary" icon={<Plus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          Nova atividade
        </Button>
      </div>
      <div className="toolbar">
        <div className="segmented" role="group" aria-label="Período">
          {VIEWS.map(([v, label]) => (
            <button key={v} type="button" aria-pressed={view === v} onClick={() => setView(v)}>
              {label}
            </button>
          ))}
        </div>
        <label className="sr-only" htmlFor="agenda-responsible">
          Responsável
        </label>
        <select id="agenda-responsible" className="select" value={responsible} onChange={(e) => setResponsible(e.target.value)}>
          <option value="">Todos os responsáveis</option>
          {people.data?.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </div>
      <div className="card">
        {list.isPending ? (
          <Loading />
        ) : list.isError ? (
          <ErrorState error={list.error} onRetry={() => void list.refetch()} />
        ) : list.data.data.length === 0 ? (
          <EmptyState icon={CalendarCheck} title={view === 'overdue' ? 'Nada atrasado' : 'Nada por aqui'}>
            {view === 'today' ? 'Nenhuma atividade vence hoje.' : 'Nenhuma atividade neste período.'}
          </EmptyState>
        ) : (
          <>
            <ul className="plain-list agenda-list">
              {list.data.data.map((a) => {
                const done = a.status === 'completed' || a.status === 'cancelled';
                return (
                  <li key={a.id} data-testid="activity-row" className={a.is_overdue ? 'is-overdue' : a.is_due_soon ? 'is-due-soon' : ''}>
                    <div className="agenda-main">
                      <strong className={done ? 'done' : ''}>{a.title}</strong>
                      <span className="small muted">
                        {ACTIVITY_TYPE_LABELS[a.type]} · {nameOf(a.responsible_id)} · prioridade {PRIORITY_LABELS[a.priority].toLowerCase()}
                      </span>
                    </div>
                    <span className="small nowrap">{formatDateTime(a.due_at)}</span>
                    {a.status === 'completed' ? (
                      <span className="badge badge-success">Concluída</span>
                    ) : a.status === 'cancelled' ? (
                      <span className="badge">Cancelada</span>
                    ) : a.is_overdue ? (
                      <span className="badge badge-danger">Atrasada</span>
                    ) : a.is_due_soon ? (
                      <span className="badge badge-warning">Vence em breve</span>
                    ) : null}
                    {!done ? (
                      <Button
                        size="sm"
                        icon={<Check size={15} aria-hidden />}
                        loading={complete.isPending && complete.variables.id === a.id}
                        onClick={() => complete.mutate(a)}
                        aria-label={`Concluir ${a.title}`}
                      >
                        Concluir
                      </Button>
                    ) : null}
                  </li>
                );
              })}
            </ul>
            <Pager
              page={page}
              pages={list.data.pagination.pages}
              total={list.data.pagination.total}
              noun={['atividade', 'atividades']}
              onPage={(p) => setPaging({ signature, page: p })}
            />
          </>
        )}
      </div>
      {creating ? <ActivityForm onClose={() => setCreating(false)} /> : null}
    </>
  );
}

function localInput(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const FIELDS = ['type', 'title', 'due_at', 'priority', 'responsible_id', 'client_id', 'deal_id', 'vehicle_id', 'description'];

/** A new activity; from a deal, client or vehicle the link comes filled in. */
export function ActivityForm({
  onClose,
  link,
}: {
  onClose: () => void;
  link?: { deal_id?: string; vehicle_id?: string; client?: { id: string; name: string }; label?: string };
}) {
  const [type, setType] = useState<ActivityType>('call');
  const [title, setTitle] = useState('');
  const [due, setDue] = useState(() => {
    const d = new Date(Date.now() + 60 * 60 * 1000);
    d.setMinutes(0, 0, 0);
    return localInput(d);
  });
  const [priority, setPriority] = useState<Priority>('media');
  const [responsible, setResponsible] = useState('');
  const [client, setClient] = useState(link?.client ?? null);
  const [description, setDescription] = useState('');
  const people = usePeople();
  const qc = useQueryClient();
  const toast = useToast();
  const save = useMutation({
    mutationFn: () =>
      api.post<Activity>('/activities', {
        type,
        title: title.trim(),
        due_at: due ? new Date(due).toISOString() : null,
        priority,
        responsible_id: responsible || null,
        client_id: client?.id ?? null,
        deal_id: link?.deal_id ?? null,
        vehicle_id: link?.vehicle_id ?? null,
        description: description.trim() || null,
      }),
    onSuccess: (a) => {
      void qc.invalidateQueries({ queryKey: ['activities'] });
      void qc.invalidateQueries({ queryKey: ['deals'] });
      void qc.invalidateQueries({ queryKey: ['clients'] });
      toast.success(`Atividade “${a.title}” agendada.`);
      onClose();
    },
  });
  const err = save.error;
  const general = err && !FIELDS.some((f) => fieldError(err, f)) ? err.message : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <Dialog open onClose={onClose} title="Nova atividade" description={link?.label}>
      <form onSubmit={submit} noValidate>
        {general ? <Alert kind="danger">{general}</Alert> : null}
        <TextField
          label="Título"
          required
          autoFocus
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          error={fieldError(err, 'title')}
          placeholder="Ex.: ligar para confirmar o test drive"
        />
        <div className="grid-2">
          <SelectField label="Tipo" value={type} onChange={(e) => setType(e.target.value as ActivityType)} error={fieldError(err, 'type')}>
            {Object.entries(ACTIVITY_TYPE_LABELS).map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </SelectField>
          <TextField label="Quando" type="datetime-local" value={due} onChange={(e) => setDue(e.target.value)} error={fieldError(err, 'due_at')} />
          <SelectField label="Prioridade" value={priority} onChange={(e) => setPriority(e.target.value as Priority)} error={fieldError(err, 'priority')}>
            {(['alta', 'media', 'baixa'] as const).map((p) => (
              <option key={p} value={p}>
                {PRIORITY_LABELS[p]}
              </option>
            ))}
          </SelectField>
          <SelectField label="Responsável" value={responsible} onChange={(e) => setResponsible(e.target.value)} error={fieldError(err, 'responsible_id')}>
            <option value="">Ninguém</option>
            {people.data
              ?.filter((p) => p.active)
              .map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
          </SelectField>
        </div>
        {link?.deal_id || link?.vehicle_id ? null : <ClientPicker value={client} onChange={setClient} error={fieldError(err, 'client_id')} />}
        <TextArea label="Detalhes" rows={2} value={description} onChange={(e) => setDescription(e.target.value)} error={fieldError(err, 'description')} />
        <div className="form-actions">
          <Button onClick={onClose}>Cancelar</Button>
          <Button type="submit" variant="primary" loading={save.isPending} icon={<CalendarDays size={16} aria-hidden />}>
            Agendar
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
