import { Search, X } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useClientList } from '../../api/clients';
import { Button } from '../../ui/Button';

export function useDebounced<T>(value: T, ms = 300): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = window.setTimeout(() => setV(value), ms);
    return () => window.clearTimeout(t);
  }, [value, ms]);
  return v;
}

export function SearchBox({ value, onChange, label, placeholder }: { value: string; onChange: (v: string) => void; label: string; placeholder?: string }) {
  const id = useId();
  return (
    <div className="search-box">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Search size={16} aria-hidden className="search-icon" />
      <input id={id} type="search" className="input" value={value} placeholder={placeholder ?? label} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

export function Pager({
  page,
  pages,
  total,
  noun,
  onPage,
}: {
  page: number;
  pages: number;
  total: number;
  noun: [string, string];
  onPage: (p: number) => void;
}) {
  return (
    <div className="pager">
      <span className="small muted">
        Página {page} de {Math.max(1, pages)} · {total} {total === 1 ? noun[0] : noun[1]}
      </span>
      <div className="row">
        <Button size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Anterior
        </Button>
        <Button size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Próxima
        </Button>
      </div>
    </div>
  );
}

/**
 * Picks a client by typing part of the name, e-mail or CPF/CNPJ (the server searches; at most 8 answers).
 * A plain combobox: the input, then a list of buttons.
 */
export function ClientPicker({
  value,
  onChange,
  error,
  label = 'Cliente',
}: {
  value: { id: string; name: string } | null;
  onChange: (c: { id: string; name: string } | null) => void;
  error?: string | undefined;
  label?: string;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const term = useDebounced(text.trim(), 250);
  const found = useClientList({ search: term, limit: 8, status: 'active' }, value === null && term.length >= 2);
  return (
    <div className="field">
      <label className="label" htmlFor={id}>
        {label}
      </label>
      {value ? (
        <div className="picked">
          <span className="truncate">{value.name}</span>
          <button type="button" className="btn btn-ghost btn-icon btn-sm" onClick={() => onChange(null)} aria-label={`Tirar o cliente ${value.name}`}>
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
            placeholder="Nome, e-mail, CPF ou CNPJ"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : `${id}-hint`}
            onChange={(e) => setText(e.target.value)}
          />
          {term.length >= 2 ? (
            <ul className="picker-list" aria-label="Clientes encontrados">
              {found.isPending ? <li className="muted small">Buscando…</li> : null}
              {found.data && found.data.data.length === 0 ? <li className="muted small">Nenhum cliente encontrado.</li> : null}
              {found.data?.data.map((c) => (
                <li key={c.id}>
                  <button
                    type="button"
                    className="picker-item"
                    onClick={() => {
                      onChange({ id: c.id, name: c.name });
                      setText('');
                    }}
                  >
                    <strong>{c.name}</strong>
                    <span className="small muted">{c.email ?? (c.type === 'PF' ? c.cpf : c.cnpj) ?? ''}</span>
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <span className="hint" id={`${id}-hint`}>
              Digite ao menos 2 letras para buscar.
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
