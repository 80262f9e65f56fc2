import { CalendarDays } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useCreateActivity } from '../../api/activities';
import { fieldError, formError } from '../../api/client';
import { usePeople } from '../../api/people';
import type { ActivityInput } from '../../api/types';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { SelectField, TextArea, TextField } from '../../ui/Field';
import { PRIORITIES, PRIORITY_LABELS, type Priority } from '../../ui/labels';
import { Alert } from '../../ui/States';
import { useToast } from '../../ui/Toasts';
import { DateField } from '../../ui/DateField';
import { ClientPicker } from '../records/Picker';

type ActivityType = ActivityInput['type'];

export const ACTIVITY_TYPE_LABELS: Record<string, string> = {
  task: 'Tarefa',
  deadline: 'Prazo',
  meeting: 'Visita / reunião',
  call: 'Ligação',
  email: 'E-mail',
  note: 'Anotação',
};

const pad = (n: number) => String(n).padStart(2, '0');
/** The day (`YYYY-MM-DD`) and the time (`HH:MM`, 24 h) of a moment, in the browser's time zone. */
function dayAndTime(d: Date): [string, string] {
  return [`${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`, `${pad(d.getHours())}:${pad(d.getMinutes())}`];
}
/** `930` → `09:30`-style typing: digits only, the colon filled in. */
const timeText = (raw: string) => {
  const digits = raw.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
};

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
  const [[day, time], setDue] = useState(() => {
    const d = new Date(Date.now() + 60 * 60 * 1000);
    d.setMinutes(0, 0, 0);
    return dayAndTime(d);
  });
  const validTime = /^([01]\d|2[0-3]):[0-5]\d$/.test(time);
  const [priority, setPriority] = useState<Priority>('media');
  const [responsible, setResponsible] = useState('');
  const [client, setClient] = useState(link?.client ?? null);
  const [description, setDescription] = useState('');
  const people = usePeople();
  const toast = useToast();
  const create = useCreateActivity();
  const save = {
    ...create,
    mutate: () =>
      create.mutate(
        {
          type,
          title: title.trim(),
          due_at: day ? new Date(`${day}T${validTime ? time : '09:00'}`).toISOString() : null,
          priority,
          responsible_id: responsible || null,
          client_id: client?.id ?? null,
          deal_id: link?.deal_id ?? null,
          vehicle_id: link?.vehicle_id ?? null,
          description: description.trim() || null,
        },
        {
          onSuccess: (a) => {
            toast.success(`Atividade “${a.title}” agendada.`);
            onClose();
          },
        },
      ),
  };
  const err = save.error;
  const general = formError(err, FIELDS);
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
          <DateField label="Dia" value={day} onChange={(d) => setDue([d, time])} error={fieldError(err, 'due_at')} />
          <TextField
            label="Hora"
            inputMode="numeric"
            placeholder="09:00"
            value={time}
            onChange={(e) => setDue([day, timeText(e.target.value)])}
            error={time !== '' && !validTime && time.length === 5 ? 'Hora inválida' : undefined}
          />
          <SelectField label="Prioridade" value={priority} onChange={(e) => setPriority(e.target.value as Priority)} error={fieldError(err, 'priority')}>
            {PRIORITIES.map((p) => (
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
