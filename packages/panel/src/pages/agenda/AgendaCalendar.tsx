import { addDays, addMonths, addWeeks, endOfMonth, endOfWeek, format, isSameDay, isSameMonth, startOfMonth, startOfWeek } from 'date-fns';
import { ptBR } from 'date-fns/locale';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { useAgenda } from '../../api/activities';
import type { Activity } from '../../api/types';
import { Button } from '../../ui/Button';
import { ErrorState, Loading } from '../../ui/States';

export type CalendarMode = 'week' | 'month';

const day = (d: Date) => format(d, 'yyyy-MM-dd');
const capital = (s: string) => s.charAt(0).toLocaleUpperCase('pt-BR') + s.slice(1);

/** The days a week or month view shows: whole weeks, Sunday first, as calendars in Brazil do. */
function daysOf(mode: CalendarMode, anchor: Date): Date[] {
  const first = startOfWeek(mode === 'week' ? anchor : startOfMonth(anchor), { locale: ptBR });
  const last = endOfWeek(mode === 'week' ? anchor : endOfMonth(anchor), { locale: ptBR });
  const days: Date[] = [];
  for (let d = first; d <= last; d = addDays(d, 1)) days.push(d);
  return days;
}

/**
 * The agenda as a week or a month: each activity on its due day (the browser's calendar day of
 * `due_at`), opened by a click; the period's title and weekday names in Portuguese whatever the
 * browser's language.
 */
export function AgendaCalendar({ mode, responsible, onOpen }: { mode: CalendarMode; responsible: string; onOpen: (a: Activity) => void }) {
  const [anchor, setAnchor] = useState(() => new Date());
  const days = daysOf(mode, anchor);
  const list = useAgenda({ view: 'all', responsible_id: responsible, due_from: day(days[0]!), due_to: day(days[days.length - 1]!), limit: 100 });
  const step = (n: number) => setAnchor((a) => (mode === 'week' ? addWeeks(a, n) : addMonths(a, n)));
  const title =
    mode === 'month'
      ? capital(format(anchor, "MMMM 'de' yyyy", { locale: ptBR }))
      : `${format(days[0]!, "d 'de' MMM", { locale: ptBR })} – ${format(days[6]!, "d 'de' MMM 'de' yyyy", { locale: ptBR })}`;
  const today = new Date();
  const on = (d: Date) => (list.data?.data ?? []).filter((a) => a.due_at && isSameDay(new Date(a.due_at), d));
  return (
    <div className="card calendar" data-testid="agenda-calendar" data-mode={mode}>
      <div className="calendar-head">
        <Button
          size="sm"
          icon={<ChevronLeft size={16} aria-hidden />}
          aria-label={mode === 'week' ? 'Semana anterior' : 'Mês anterior'}
          onClick={() => step(-1)}
        />
        <h2 className="calendar-title">{title}</h2>
        <Button
          size="sm"
          icon={<ChevronRight size={16} aria-hidden />}
          aria-label={mode === 'week' ? 'Próxima semana' : 'Próximo mês'}
          onClick={() => step(1)}
        />
        <Button size="sm" onClick={() => setAnchor(new Date())}>
          Hoje
        </Button>
      </div>
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <div className={`calendar-grid calendar-${mode}`} role="grid" aria-label={title}>
          {days.slice(0, 7).map((d) => (
            <div key={`h${day(d)}`} className="calendar-weekday" role="columnheader">
              {capital(format(d, 'EEEE', { locale: ptBR }).slice(0, 3))}
            </div>
          ))}
          {days.map((d) => (
            <div
              key={day(d)}
              role="gridcell"
              data-day={day(d)}
              aria-label={format(d, "d 'de' MMMM", { locale: ptBR })}
              className={`calendar-day${isSameDay(d, today) ? ' is-today' : ''}${mode === 'month' && !isSameMonth(d, anchor) ? ' is-other' : ''}`}
            >
              <span className="calendar-date">{format(d, 'd')}</span>
              {on(d).map((a) => (
                <button
                  key={a.id}
                  type="button"
                  className={`calendar-item${a.status === 'completed' ? ' done' : a.is_overdue ? ' is-overdue' : ''}`}
                  onClick={() => onOpen(a)}
                  title={a.title}
                >
                  {a.due_at ? <span className="calendar-time">{format(new Date(a.due_at), 'HH:mm')}</span> : null}
                  {a.title}
                </button>
              ))}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
