import { Search } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
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
