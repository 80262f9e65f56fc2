import { useState, type FormEvent } from 'react';
import { useSaveClient } from '../../api/clients';
import { fieldError, formError } from '../../api/client';
import type { Client } from '../../api/types';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { TextArea, TextField } from '../../ui/Field';
import { MaskedField } from '../../ui/MaskedFields';
import { formatDoc, type MaskKind } from '../../ui/masks';
import { Alert } from '../../ui/States';
import { useToast } from '../../ui/Toasts';

const ADDRESS: [string, string][] = [
  ['zip_code', 'CEP'],
  ['street', 'Rua'],
  ['number', 'Número'],
  ['complement', 'Complemento'],
  ['neighborhood', 'Bairro'],
  ['city', 'Cidade'],
  ['state', 'UF'],
];
const BASE = ['name', 'email', 'phone', 'mobile_phone', 'cpf', 'cnpj', 'legal_name', 'trade_name', 'notes'] as const;
type Base = (typeof BASE)[number];
/** The fields typed with a mask, shown formatted even when stored as bare digits. */
const MASKED: Partial<Record<Base | 'zip_code', MaskKind>> = { cpf: 'cpf', cnpj: 'cnpj', phone: 'phone', mobile_phone: 'phone', zip_code: 'cep' };

/** PF/PJ form: CPF or CNPJ, contact and address; the server checks the digits and answers on the field. */
export function ClientForm({ client, onClose, onSaved }: { client?: Client; onClose: () => void; onSaved?: (c: Client) => void }) {
  const [type, setType] = useState<'PF' | 'PJ'>(client?.type ?? 'PF');
  const [form, setForm] = useState<Record<Base, string>>(
    () =>
      Object.fromEntries(
        BASE.map((f) => {
          const v = (client as Partial<Record<Base, string | null>> | undefined)?.[f] ?? '';
          const kind = MASKED[f];
          return [f, kind ? formatDoc(kind, v) : v];
        }),
      ) as Record<Base, string>,
  );
  const [address, setAddress] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      ADDRESS.map(([f]) => {
        const v = client?.address?.[f as keyof NonNullable<Client['address']>] ?? '';
        return [f, f === 'zip_code' ? formatDoc('cep', v) : v];
      }),
    ),
  );
  const toast = useToast();
  const saveClient = useSaveClient();
  const save = {
    ...saveClient,
    mutate: () => {
      const body: Record<string, unknown> = { type };
      const own = type === 'PF' ? ['cpf'] : ['cnpj', 'legal_name', 'trade_name'];
      for (const f of BASE) {
        if ((f === 'cpf' || f === 'cnpj' || f === 'legal_name' || f === 'trade_name') && !own.includes(f)) continue;
        const v = form[f].trim();
        if (v !== '' || client) body[f] = v === '' ? null : v;
      }
      const addr = Object.fromEntries(Object.entries(address).map(([k, v]) => [k, v.trim() === '' ? null : v.trim()]));
      if (Object.values(addr).some((v) => v !== null) || client?.address) body.address = addr;
      saveClient.mutate(
        { id: client?.id, body: body },
        {
          onSuccess: (c) => {
            toast.success(client ? 'Cliente salvo.' : `${c.name} cadastrado.`);
            onClose();
            onSaved?.(c);
          },
        },
      );
    },
  };
  const err = save.error;
  const errOf = (f: string) => fieldError(err, f) ?? fieldError(err, `address.${f}`);
  const shown = [...BASE, ...ADDRESS.map(([f]) => `address.${f}`)];
  const general = formError(err, shown);
  const text = (f: Base, label: string, extra: Record<string, unknown> = {}) => {
    const kind = MASKED[f];
    const onChange = (v: string) => setForm((s) => ({ ...s, [f]: v }));
    return kind ? (
      <MaskedField kind={kind} label={label} value={form[f]} onChange={onChange} error={fieldError(err, f)} {...extra} />
    ) : (
      <TextField label={label} value={form[f]} onChange={(e) => onChange(e.target.value)} error={fieldError(err, f)} {...extra} />
    );
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <Dialog open onClose={onClose} title={client ? 'Editar cliente' : 'Novo cliente'} wide>
      <form onSubmit={submit} noValidate>
        {general ? <Alert kind="danger">{general}</Alert> : null}
        <fieldset className="radio-cards" style={{ border: 0, padding: 0, margin: '0 0 16px' }}>
          <legend className="label">Tipo</legend>
          {(['PF', 'PJ'] as const).map((t) => (
            <label key={t} className="radio-card">
              <input type="radio" name="client-type" value={t} checked={type === t} onChange={() => setType(t)} />
              <span>
                <strong>{t === 'PF' ? 'Pessoa física' : 'Pessoa jurídica'}</strong>
                <span className="small muted"> {t === 'PF' ? 'com CPF' : 'com CNPJ'}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {text('name', type === 'PF' ? 'Nome' : 'Nome da empresa', { required: true, autoFocus: true })}
        <div className="grid-2">
          {type === 'PF' ? text('cpf', 'CPF') : text('cnpj', 'CNPJ')}
          {text('email', 'E-mail', { type: 'email' })}
          {type === 'PJ' ? text('legal_name', 'Razão social') : null}
          {type === 'PJ' ? text('trade_name', 'Nome fantasia') : null}
          {text('mobile_phone', 'Celular', { inputMode: 'tel' })}
          {text('phone', 'Telefone', { inputMode: 'tel' })}
        </div>
        <h3 className="form-section">Endereço</h3>
        <div className="grid-2">
          {ADDRESS.map(([f, label]) =>
            f === 'zip_code' ? (
              <MaskedField key={f} kind="cep" label={label} value={address[f] ?? ''} onChange={(v) => setAddress((a) => ({ ...a, [f]: v }))} error={errOf(f)} />
            ) : (
              <TextField key={f} label={label} value={address[f] ?? ''} onChange={(e) => setAddress((a) => ({ ...a, [f]: e.target.value }))} error={errOf(f)} />
            ),
          )}
        </div>
        <TextArea
          label="Observações"
          rows={2}
          value={form.notes}
          onChange={(e) => setForm((s) => ({ ...s, notes: e.target.value }))}
          error={fieldError(err, 'notes')}
        />
        <div className="form-actions">
          <Button onClick={onClose}>Cancelar</Button>
          <Button type="submit" variant="primary" loading={save.isPending}>
            {client ? 'Salvar' : 'Cadastrar cliente'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
