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

/**
 * The page of a list, back to 1 whenever one of `filters` changes (a new search starts at its first
 * page); the list pages' paging in one place.
 */
export function usePage(...filters: unknown[]): [number, (page: number) => void] {
  const signature = JSON.stringify(filters);
  const [paging, setPaging] = useState({ signature, page: 1 });
  const page = paging.signature === signature ? paging.page : 1;
  return [page, (p: number) => setPaging({ signature, page: p })];
}

/** A list's footer: which page of how many, the total, and the previous / next buttons. */
export function Pager({
  page,
  pagination,
  noun,
  onPage,
}: {
  page: number;
  pagination: { pages: number; total: number };
  noun: [string, string];
  onPage: (p: number) => void;
}) {
  const { pages, total } = pagination;
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
