import { useState, type FormEvent } from 'react';
import { fieldError, formError } from '../../api/client';
import { useCreateFinancial } from '../../api/financial';
import type { FinancialInput, FinancialType } from '../../api/types';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { SelectField, TextArea, TextField } from '../../ui/Field';
import { MoneyField } from '../../ui/MaskedFields';
import { moneyValue } from '../../ui/masks';
import { Alert } from '../../ui/States';
import { useToast } from '../../ui/Toasts';
import { ClientPicker, DealPicker, VehiclePicker, type Picked } from '../records/Picker';
import { DateField } from '../../ui/DateField';
import { CATEGORIES, categoryLabel, FINANCIAL_TYPE_LABELS, today } from './labels';

const FORM_FIELDS = ['type', 'category', 'description', 'amount', 'due_date', 'notes', 'vehicle_id', 'client_id', 'deal_id'];

/** What a record opened from a vehicle, a client or a deal is linked to from the start. */
export interface FinancialLinks {
  vehicle?: Picked | null;
  client?: Picked | null;
  deal?: Picked | null;
  type?: FinancialType;
}

/** A new revenue, expense or cost, linked to a vehicle, a client and a deal (the margin per vehicle reads the links). */
export function FinancialForm({ onClose, links = {} }: { onClose: () => void; links?: FinancialLinks }) {
  const [type, setType] = useState<FinancialType>(links.type ?? 'revenue');
  const [category, setCategory] = useState(CATEGORIES[links.type ?? 'revenue'][0] ?? '');
  const [vehicle, setVehicle] = useState<Picked | null>(links.vehicle ?? null);
  const [client, setClient] = useState<Picked | null>(links.client ?? null);
  const [deal, setDeal] = useState<Picked | null>(links.deal ?? null);
  const [description, setDescription] = useState('');
  const [amount, setAmount] = useState('');
  const [due, setDue] = useState(today());
  const [notes, setNotes] = useState('');
  const toast = useToast();
  const create = useCreateFinancial();
  const save = {
    ...create,
    mutate: () => {
      const n = moneyValue(amount);
      const body = {
        type,
        category,
        description: description.trim(),
        amount: n ?? undefined,
        due_date: due,
        notes: notes.trim() || null,
        vehicle_id: vehicle?.id ?? null,
        client_id: client?.id ?? null,
        deal_id: deal?.id ?? null,
      };
      create.mutate(body as FinancialInput, {
        onSuccess: () => {
          toast.success('Lançamento registrado.');
          onClose();
        },
      });
    },
  };
  const err = save.error;
  const general = formError(err, FORM_FIELDS);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <Dialog open onClose={onClose} title="Novo lançamento">
      <form onSubmit={submit} noValidate>
        {general ? <Alert kind="danger">{general}</Alert> : null}
        <div className="grid-2">
          <SelectField
            label="Tipo"
            value={type}
            onChange={(e) => {
              const t = e.target.value as FinancialType;
              setType(t);
              setCategory(CATEGORIES[t][0] ?? '');
            }}
            error={fieldError(err, 'type')}
          >
            {Object.entries(FINANCIAL_TYPE_LABELS).map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </SelectField>
          <SelectField label="Categoria" value={category} onChange={(e) => setCategory(e.target.value)} error={fieldError(err, 'category')}>
            {CATEGORIES[type].map((c) => (
              <option key={c} value={c}>
                {categoryLabel(c)}
              </option>
            ))}
          </SelectField>
        </div>
        <TextField
          label="Descrição"
          required
          autoFocus
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          error={fieldError(err, 'description')}
        />
        <div className="grid-2">
          <MoneyField label="Valor" value={amount} onChange={setAmount} error={fieldError(err, 'amount')} />
          <DateField label="Vencimento" value={due} onChange={setDue} error={fieldError(err, 'due_date')} />
        </div>
        <VehiclePicker
          value={vehicle}
          onChange={setVehicle}
          error={fieldError(err, 'vehicle_id')}
          stockOnly={false}
          hint="Ligue a venda ou o custo ao carro: a margem por veículo lê esta ligação."
        />
        <div className="grid-2">
          <ClientPicker value={client} onChange={setClient} error={fieldError(err, 'client_id')} />
          <DealPicker value={deal} onChange={setDeal} error={fieldError(err, 'deal_id')} />
        </div>
        <TextArea label="Observações" rows={2} value={notes} onChange={(e) => setNotes(e.target.value)} error={fieldError(err, 'notes')} />
        <div className="form-actions">
          <Button onClick={onClose}>Cancelar</Button>
          <Button type="submit" variant="primary" loading={save.isPending}>
            Registrar
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
