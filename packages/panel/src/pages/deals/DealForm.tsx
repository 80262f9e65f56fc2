import { useState, type FormEvent } from 'react';
import { fieldError, formError } from '../../api/client';
import { useSaveDeal } from '../../api/deals';
import { usePeople } from '../../api/people';
import { usePhases } from '../../api/phases';
import type { Deal } from '../../api/types';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { SelectField, TextArea, TextField } from '../../ui/Field';
import { MoneyField } from '../../ui/MaskedFields';
import { moneyInput, moneyValue } from '../../ui/masks';
import { Alert } from '../../ui/States';
import { useToast } from '../../ui/Toasts';
import { PRIORITIES, PRIORITY_LABELS, type Priority } from '../../ui/labels';
import { DateField } from '../../ui/DateField';
import { ClientPicker } from '../records/Picker';

const FIELDS = ['title', 'value', 'client_id', 'responsible_id', 'priority', 'phase', 'source', 'expected_close_date', 'description'];

/** New deal (and edit): the API's messages land on their fields (error.field). */
export function DealFormDialog({ open, onClose, deal, onSaved }: { open: boolean; onClose: () => void; deal?: Deal; onSaved?: (d: Deal) => void }) {
  return open ? <DealForm onClose={onClose} deal={deal} onSaved={onSaved} /> : null;
}

function DealForm({ onClose, deal, onSaved }: { onClose: () => void; deal?: Deal | undefined; onSaved?: ((d: Deal) => void) | undefined }) {
  const [title, setTitle] = useState(deal?.title ?? '');
  const [value, setValue] = useState(moneyInput(deal?.value));
  const [client, setClient] = useState(deal?.client ?? null);
  const [responsible, setResponsible] = useState(deal?.responsible_id ?? '');
  const [priority, setPriority] = useState<Priority>(deal?.priority ?? 'media');
  const [phase, setPhase] = useState(deal?.phase ?? '');
  const [source, setSource] = useState(deal?.source ?? '');
  const [closeDate, setCloseDate] = useState(deal?.expected_close_date ?? '');
  const [description, setDescription] = useState(deal?.description ?? '');
  const people = usePeople();
  const phases = usePhases('deals');
  const toast = useToast();
  const saveDeal = useSaveDeal();
  const save = {
    ...saveDeal,
    mutate: () => {
      const body: Record<string, unknown> = {
        title: title.trim(),
        value: moneyValue(value),
        client_id: client?.id ?? null,
        responsible_id: responsible || null,
        priority,
        source: source.trim() || null,
        expected_close_date: closeDate || null,
        description: description.trim() || null,
      };
      if (phase) body.phase = phase;
      saveDeal.mutate(
        { id: deal?.id, body: body },
        {
          onSuccess: (d) => {
            toast.success(deal ? 'Negócio salvo.' : `Negócio “${d.title}” criado.`);
            onClose();
            onSaved?.(d);
          },
        },
      );
    },
  };
  const err = save.error;
  const general = formError(err, FIELDS);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <Dialog open onClose={onClose} title={deal ? 'Editar negócio' : 'Novo negócio'} wide>
      <form onSubmit={submit} noValidate>
        {general ? <Alert kind="danger">{general}</Alert> : null}
        <TextField label="Título" required autoFocus value={title} onChange={(e) => setTitle(e.target.value)} error={fieldError(err, 'title')} />
        <div className="grid-2">
          <MoneyField label="Valor" value={value} onChange={setValue} error={fieldError(err, 'value')} />
          <SelectField label="Prioridade" value={priority} onChange={(e) => setPriority(e.target.value as Priority)} error={fieldError(err, 'priority')}>
            {PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {PRIORITY_LABELS[p]}
              </option>
            ))}
          </SelectField>
        </div>
        <ClientPicker value={client} onChange={setClient} error={fieldError(err, 'client_id')} />
        <div className="grid-2">
          <SelectField label="Responsável" value={responsible} onChange={(e) => setResponsible(e.target.value)} error={fieldError(err, 'responsible_id')}>
            <option value="">Ninguém</option>
            {people.data
              ?.filter((p) => p.active || p.id === responsible)
              .map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
          </SelectField>
          <SelectField label="Fase" value={phase} onChange={(e) => setPhase(e.target.value)} error={fieldError(err, 'phase')}>
            {deal ? null : <option value="">A primeira do funil</option>}
            {phases.data?.map((p) => (
              <option key={p.name} value={p.name}>
                {p.label}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Origem"
            value={source}
            onChange={(e) => setSource(e.target.value)}
            error={fieldError(err, 'source')}
            placeholder="site, indicação, WhatsApp…"
          />
          <DateField label="Fechamento previsto" value={closeDate} onChange={setCloseDate} error={fieldError(err, 'expected_close_date')} />
        </div>
        <TextArea label="Descrição" rows={3} value={description} onChange={(e) => setDescription(e.target.value)} error={fieldError(err, 'description')} />
        <div className="form-actions">
          <Button onClick={onClose}>Cancelar</Button>
          <Button type="submit" variant="primary" loading={save.isPending}>
            {deal ? 'Salvar' : 'Criar negócio'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
