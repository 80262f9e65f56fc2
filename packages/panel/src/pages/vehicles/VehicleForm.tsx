import { useState, type FormEvent } from 'react';
import { fieldError, formError } from '../../api/client';
import { usePhases } from '../../api/phases';
import type { Vehicle } from '../../api/types';
import { useSaveVehicle } from '../../api/vehicles';
import { permissions, useCurrentSession } from '../../auth/session';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { SelectField, TextArea, TextField } from '../../ui/Field';
import { MoneyField, PlateField } from '../../ui/MaskedFields';
import { moneyInput, moneyValue } from '../../ui/masks';
import { Alert } from '../../ui/States';
import { useToast } from '../../ui/Toasts';

const FIELDS = [
  'title',
  'brand',
  'model',
  'version',
  'plate',
  'renavam',
  'chassis',
  'manufacture_year',
  'model_year',
  'mileage',
  'price',
  'purchase_price',
  'condition',
  'fuel',
  'color',
  'phase',
  'description',
] as const;
type FieldName = (typeof FIELDS)[number];
const NUMERIC = new Set<FieldName>(['manufacture_year', 'model_year', 'mileage']);
const MONEY = new Set<FieldName>(['price', 'purchase_price']);

function toNumber(text: string): number | string | null {
  const t = text.trim();
  if (t === '') return null;
  const n = Number(t.replace(/\./g, '').replace(',', '.'));
  return Number.isNaN(n) ? t : n;
}

/** The vehicle form: plate, RENAVAM and chassis are checked by the server; its messages land on the fields. */
export function VehicleForm({ vehicle, onClose, onSaved }: { vehicle?: Vehicle; onClose: () => void; onSaved?: (v: Vehicle) => void }) {
  const initial = Object.fromEntries(
    FIELDS.map((f) => {
      const v = vehicle?.[f];
      if (MONEY.has(f)) return [f, moneyInput(v as number | null | undefined)];
      return [f, v === null || v === undefined ? '' : String(v)];
    }),
  ) as Record<FieldName, string>;
  if (!vehicle) initial.condition = 'seminovo';
  const [form, setForm] = useState(initial);
  const set = (f: FieldName) => (e: { target: { value: string } }) => setForm((s) => ({ ...s, [f]: e.target.value }));
  const phases = usePhases('vehicles');
  const can = permissions(useCurrentSession().user.role);
  const toast = useToast();
  const saveVehicle = useSaveVehicle();
  const save = {
    ...saveVehicle,
    mutate: () => {
      const body: Record<string, unknown> = {};
      for (const f of FIELDS) {
        if (f === 'purchase_price' && !can.purchasePrice) continue;
        const text = form[f];
        if (f === 'phase' && text === '') continue;
        if (!vehicle && text.trim() === '') continue;
        body[f] = MONEY.has(f) ? moneyValue(text) : NUMERIC.has(f) ? toNumber(text) : text.trim() === '' ? null : text.trim();
      }
      saveVehicle.mutate(
        { id: vehicle?.id, body: body },
        {
          onSuccess: (v) => {
            toast.success(vehicle ? 'Veículo salvo.' : `${v.title} entrou no estoque.`);
            onClose();
            onSaved?.(v);
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
  const text = (f: FieldName, label: string, extra: Record<string, unknown> = {}) => (
    <TextField label={label} value={form[f]} onChange={set(f)} error={fieldError(err, f)} {...extra} />
  );
  const money = (f: FieldName, label: string) => (
    <MoneyField label={label} value={form[f]} onChange={(v) => setForm((s) => ({ ...s, [f]: v }))} error={fieldError(err, f)} />
  );
  return (
    <Dialog open onClose={onClose} title={vehicle ? 'Editar veículo' : 'Novo veículo'} wide>
      <form onSubmit={submit} noValidate>
        {general ? <Alert kind="danger">{general}</Alert> : null}
        {text('title', 'Título', { required: true, autoFocus: true, placeholder: 'Ex.: Onix LT 1.0 2022' })}
        <div className="grid-2">
          {text('brand', 'Marca', { required: true })}
          {text('model', 'Modelo', { required: true })}
          {text('version', 'Versão')}
          {text('color', 'Cor')}
          <PlateField
            label="Placa"
            hint="Padrão antigo ou Mercosul."
            value={form.plate}
            onChange={(v) => setForm((s) => ({ ...s, plate: v }))}
            error={fieldError(err, 'plate')}
          />
          {text('renavam', 'RENAVAM', { inputMode: 'numeric', hint: '11 dígitos.' })}
          {text('chassis', 'Chassi', { autoCapitalize: 'characters', hint: '17 caracteres (VIN).' })}
          {text('mileage', 'Quilometragem (km)', { inputMode: 'numeric' })}
          {text('manufacture_year', 'Ano de fabricação', { inputMode: 'numeric' })}
          {text('model_year', 'Ano do modelo', { inputMode: 'numeric' })}
          {money('price', 'Preço de venda')}
          {can.purchasePrice ? money('purchase_price', 'Preço de compra') : null}
          <SelectField label="Condição" value={form.condition} onChange={set('condition')} error={fieldError(err, 'condition')}>
            <option value="novo">Novo</option>
            <option value="seminovo">Seminovo</option>
            <option value="usado">Usado</option>
          </SelectField>
          <SelectField label="Combustível" value={form.fuel} onChange={set('fuel')} error={fieldError(err, 'fuel')}>
            <option value="">—</option>
            {['flex', 'gasolina', 'etanol', 'diesel', 'eletrico', 'hibrido', 'gnv'].map((f) => (
              <option key={f} value={f}>
                {f === 'eletrico' ? 'elétrico' : f === 'hibrido' ? 'híbrido' : f === 'gnv' ? 'GNV' : f}
              </option>
            ))}
          </SelectField>
          <SelectField label="Fase" value={form.phase} onChange={set('phase')} error={fieldError(err, 'phase')}>
            {vehicle ? null : <option value="">A primeira do quadro</option>}
            {phases.data?.map((p) => (
              <option key={p.name} value={p.name}>
                {p.label}
              </option>
            ))}
          </SelectField>
        </div>
        <TextArea label="Descrição" rows={3} value={form.description} onChange={set('description')} error={fieldError(err, 'description')} />
        <div className="form-actions">
          <Button onClick={onClose}>Cancelar</Button>
          <Button type="submit" variant="primary" loading={save.isPending}>
            {vehicle ? 'Salvar' : 'Cadastrar veículo'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
