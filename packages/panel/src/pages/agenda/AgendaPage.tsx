import { CalendarCheck, Check, Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useAgenda, useCompleteActivity } from '../../api/activities';
import { usePeople } from '../../api/people';
import type { Activity } from '../../api/types';
import { Button } from '../../ui/Button';
import { formatDateTime } from '../../ui/format';
import { PRIORITY_LABELS } from '../../ui/labels';
import { EmptyState, ListState } from '../../ui/States';
import { useToast } from '../../ui/Toasts';
import { Pager } from '../records/shared';
import { ActivityDialog, completable } from './ActivityDialog';
import { ACTIVITY_TYPE_LABELS, ActivityForm } from './ActivityForm';
import { AgendaCalendar } from './AgendaCalendar';

const VIEWS = [
  ['today', 'Hoje'],
  ['overdue', 'Atrasadas'],
  ['upcoming', 'Próximas'],
  ['all', 'Todas'],
] as const;
type View = (typeof VIEWS)[number][0];
const MODES = [
  ['list', 'Lista'],
  ['week', 'Semana'],
  ['month', 'Mês'],
] as const;
type Mode = (typeof MODES)[number][0];

export function AgendaPage() {
  const [view, setView] = useState<View>('today');
  const [mode, setMode] = useState<Mode>('list');
  const [opened, setOpened] = useState<Activity | null>(null);
  const [responsible, setResponsible] = useState('');
  const [creating, setCreating] = useState(false);
  const signature = JSON.stringify([view, responsible]);
  const [paging, setPaging] = useState({ signature, page: 1 });
  const page = paging.signature === signature ? paging.page : 1;
  const people = usePeople();
  const toast = useToast();
  const list = useAgenda({ view, responsible_id: responsible, page, limit: 25 });
  const completing = useCompleteActivity();
  const complete = {
    ...completing,
    mutate: (a: Activity) =>
      completing.mutate(a.id, { onSuccess: (done) => toast.success(`“${done.title}” concluída.`), onError: (err) => toast.error(err.message) }),
  };
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
        <div className="segmented" role="group" aria-label="Visualização">
          {MODES.map(([m, label]) => (
            <button key={m} type="button" aria-pressed={mode === m} onClick={() => setMode(m)}>
              {label}
            </button>
          ))}
        </div>
        {mode === 'list' ? (
          <div className="segmented" role="group" aria-label="Período">
            {VIEWS.map(([v, label]) => (
              <button key={v} type="button" aria-pressed={view === v} onClick={() => setView(v)}>
                {label}
              </button>
            ))}
          </div>
        ) : null}
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
      {mode !== 'list' ? (
        <AgendaCalendar mode={mode} responsible={responsible} onOpen={setOpened} />
      ) : (
        <div className="card">
          <ListState
            query={list}
            empty={
              <EmptyState icon={CalendarCheck} title={view === 'overdue' ? 'Nada atrasado' : 'Nada por aqui'}>
                {view === 'today' ? 'Nenhuma atividade vence hoje.' : 'Nenhuma atividade neste período.'}
              </EmptyState>
            }
          >
            {(result) => (
              <>
                <ul className="plain-list agenda-list">
                  {result.data.map((a) => {
                    const done = a.status === 'completed' || a.status === 'cancelled';
                    return (
                      <li key={a.id} data-testid="activity-row" className={a.is_overdue ? 'is-overdue' : a.is_due_soon ? 'is-due-soon' : ''}>
                        <div className="agenda-main">
                          <button type="button" className={`link-button${done ? ' done' : ''}`} onClick={() => setOpened(a)}>
                            <strong>{a.title}</strong>
                          </button>
                          <span className="small muted">
                            {ACTIVITY_TYPE_LABELS[a.type] ?? a.type} · {nameOf(a.responsible_id)} · prioridade{' '}
                            {(PRIORITY_LABELS[a.priority] ?? a.priority).toLowerCase()}
                            {[a.client?.name, a.deal?.name, a.vehicle?.name]
                              .filter(Boolean)
                              .map((n) => ` · ${n}`)
                              .join('')}
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
                        {completable(a) ? (
                          <Button
                            size="sm"
                            icon={<Check size={15} aria-hidden />}
                            loading={complete.isPending && complete.variables === a.id}
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
                <Pager page={page} pagination={result.pagination} noun={['atividade', 'atividades']} onPage={(p) => setPaging({ signature, page: p })} />
              </>
            )}
          </ListState>
        </div>
      )}
      {opened ? <ActivityDialog activity={opened} responsible={nameOf(opened.responsible_id)} onClose={() => setOpened(null)} /> : null}
      {creating ? <ActivityForm onClose={() => setCreating(false)} /> : null}
    </>
  );
}
