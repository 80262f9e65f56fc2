import { useState, type FormEvent } from 'react';
import { fieldError } from '../../api/client';
import { useCreateFinancial } from '../../api/financial';
import type { FinancialInput, FinancialType } from '../../api/types';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { SelectField, TextArea, TextField } from '../../ui/Field';
import { Alert } from '../../ui/States';
import { useToast } from '../../ui/Toasts';
import { CATEGORIES, categoryLabel, FINANCIAL_TYPE_LABELS, today } from './labels';

const FORM_FIELDS = ['type', 'category', 'description', 'amount', 'due_date', 'notes'];

/** A new revenue, expense or cost. */
export function FinancialForm({ onClose }: { onClose: () => void }) {
  const [type, setType] = useState<FinancialType>('revenue');
  const [category, setCategory] = useState(CATEGORIES.revenue[0] ?? '');
  const [description, setDescription] = useState('');
  const [amount, setAmount] = useState('');
  const [due, setDue] = useState(today());
  const [notes, setNotes] = useState('');
  const toast = useToast();
  const create = useCreateFinancial();
  const save = {
    ...create,
    mutate: () => {
      const n = Number(amount.replace(/\./g, '').replace(',', '.'));
      const body = {
        type,
        category,
        description: description.trim(),
        amount: amount.trim() === '' ? undefined : Number.isNaN(n) ? amount : n,
        due_date: due,
        notes: notes.trim() || null,
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
  const general = err && !FORM_FIELDS.some((f) => fieldError(err, f)) ? err.message : null;
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
          <TextField label="Valor (R$)" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} error={fieldError(err, 'amount')} />
          <TextField label="Vencimento" type="date" value={due} onChange={(e) => setDue(e.target.value)} error={fieldError(err, 'due_date')} />
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
