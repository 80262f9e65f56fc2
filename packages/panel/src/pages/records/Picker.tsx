import { X } from 'lucide-react';
import { useId, useState } from 'react';
import { useClientList } from '../../api/clients';
import { useDealList } from '../../api/deals';
import { useVehicleList } from '../../api/vehicles';
import type { Vehicle } from '../../api/types';
import { formatMoney } from '../../ui/format';
import { labelOf, VEHICLE_STATUS_LABELS } from '../../ui/labels';
import { formatDoc } from '../../ui/masks';
import { useDebounced } from './shared';

/** A record a picker holds: its id and the name people read. */
export interface Picked {
  id: string;
  name: string;
}

interface Found {
  isPending: boolean;
  items: Array<Picked & { detail?: string | null | undefined }> | undefined;
}

interface PickerProps {
  value: Picked | null;
  onChange: (picked: Picked | null) => void;
  error?: string | undefined;
  label?: string;
  hint?: string;
}

/**
 * Picks one record by typing part of it (the server searches; at most 8 answers): the input, then a
 * list of buttons; once picked, its name with a button to take it out. `useFound` is the resource's
 * search, called on every render (a hook); `minChars` 0 lists the first records before any typing.
 */
function RecordPicker({
  value,
  onChange,
  error,
  label,
  hint,
  placeholder,
  noun,
  minChars,
  useFound,
}: PickerProps & {
  label: string;
  placeholder: string;
  noun: { one: string; many: string; none: string };
  minChars: number;
  useFound: (term: string, enabled: boolean) => Found;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const term = useDebounced(text.trim(), 250);
  const searching = value === null && term.length >= minChars && (minChars > 0 || open);
  const found = useFound(term, searching);
  return (
    <div className="field">
      <label className="label" htmlFor={id}>
        {label}
      </label>
      {value ? (
        <div className="picked" data-testid={`picked-${noun.one}`}>
          <span className="truncate">{value.name}</span>
          <button type="button" className="btn btn-ghost btn-icon btn-sm" onClick={() => onChange(null)} aria-label={`Tirar ${noun.one} ${value.name}`}>
            <X size={15} aria-hidden />
          </button>
        </div>
      ) : (
        <>
          <input
            id={id}
            className="input"
            value={text}
            autoComplete="off"
            placeholder={placeholder}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : `${id}-hint`}
            onFocus={() => setOpen(true)}
            onChange={(e) => setText(e.target.value)}
          />
          {searching ? (
            <ul className="picker-list" aria-label={`${noun.many} encontrados`}>
              {found.isPending ? <li className="muted small">Buscando…</li> : null}
              {found.items && found.items.length === 0 ? <li className="muted small">{noun.none}</li> : null}
              {found.items?.map((item) => (
                <li key={item.id}>
                  <button
                    type="button"
                    className="picker-item"
                    onClick={() => {
                      onChange({ id: item.id, name: item.name });
                      setText('');
                    }}
                  >
                    <strong>{item.name}</strong>
                    <span className="small muted">{item.detail ?? ''}</span>
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <span className="hint" id={`${id}-hint`}>
              {hint ?? (minChars > 0 ? `Digite ao menos ${minChars} letras para buscar.` : 'Digite para buscar.')}
            </span>
          )}
        </>
      )}
      {error ? (
        <span className="field-error" id={`${id}-error`} role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}

function useClientsFound(term: string, enabled: boolean): Found {
  const q = useClientList({ search: term, limit: 8, status: 'active' }, enabled);
  return {
    isPending: q.isPending,
    items: q.data?.data.map((c) => ({ id: c.id, name: c.name, detail: c.email ?? (c.type === 'PF' ? formatDoc('cpf', c.cpf) : formatDoc('cnpj', c.cnpj)) })),
  };
}

/** Picks a client by part of the name, e-mail or CPF/CNPJ. */
export function ClientPicker({ label = 'Cliente', ...props }: PickerProps) {
  return (
    <RecordPicker
      {...props}
      label={label}
      placeholder="Nome, e-mail, CPF ou CNPJ"
      noun={{ one: 'o cliente', many: 'Clientes', none: 'Nenhum cliente encontrado.' }}
      minChars={2}
      useFound={useClientsFound}
    />
  );
}

const vehicleItem = (v: Vehicle) => ({
  id: v.id,
  name: v.title,
  detail: [v.plate, formatMoney(v.price), v.status === 'ativo' ? null : labelOf(VEHICLE_STATUS_LABELS, v.status).toLowerCase()].filter(Boolean).join(' · '),
});

function useStockFound(term: string, enabled: boolean): Found {
  const q = useVehicleList({ ...(term ? { search: term } : {}), status: 'ativo', limit: 8 }, enabled);
  return {
    isPending: q.isPending,
    items: q.data?.data.map(vehicleItem),
  };
}

/** In stock and sold (the list's default): a cost or a sale may name a car already sold. */
function useVehiclesFound(term: string, enabled: boolean): Found {
  const q = useVehicleList({ ...(term ? { search: term } : {}), limit: 8 }, enabled);
  return {
    isPending: q.isPending,
    items: q.data?.data.map(vehicleItem),
  };
}

/** Picks a car by title, brand, model or plate (the first ones listed before any typing): in stock, or also sold. */
export function VehiclePicker({ label = 'Veículo', stockOnly = true, ...props }: PickerProps & { stockOnly?: boolean }) {
  return (
    <RecordPicker
      {...props}
      label={label}
      placeholder="Modelo, marca ou placa"
      noun={{ one: 'o veículo', many: 'Veículos', none: stockOnly ? 'Nenhum veículo em estoque encontrado.' : 'Nenhum veículo encontrado.' }}
      minChars={0}
      useFound={stockOnly ? useStockFound : useVehiclesFound}
    />
  );
}

function useDealsFound(term: string, enabled: boolean): Found {
  const q = useDealList({ ...(term ? { search: term } : {}), limit: 8 }, enabled);
  return {
    isPending: q.isPending,
    items: q.data?.data.map((d) => ({ id: d.id, name: d.title, detail: [d.client?.name, formatMoney(d.value)].filter(Boolean).join(' · ') })),
  };
}

/** Picks a deal by its title. */
export function DealPicker({ label = 'Negócio', ...props }: PickerProps) {
  return (
    <RecordPicker
      {...props}
      label={label}
      placeholder="Título do negócio"
      noun={{ one: 'o negócio', many: 'Negócios', none: 'Nenhum negócio encontrado.' }}
      minChars={2}
      useFound={useDealsFound}
    />
  );
}
