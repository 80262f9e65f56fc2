import { Columns3, List, Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { DealBoardFilters } from '../../api/deals';
import { usePeople } from '../../api/people';
import { Button } from '../../ui/Button';
import { SearchBox, useDebounced } from '../records/shared';
import { DealDialog } from './DealDialog';
import { DealFormDialog } from './DealForm';
import { DealsBoard } from './DealsBoard';
import { DealsList } from './DealsList';

const EMPTY: DealBoardFilters = { search: '', responsible_id: '', source: '' };

export function DealsPage() {
  const [view, setView] = useState<'board' | 'list'>('board');
  const [filters, setFilters] = useState<DealBoardFilters>(EMPTY);
  const [creating, setCreating] = useState(false);
  // `?abrir=ID` (a lead notice in the header) opens that deal; closing it or opening another drops it.
  const [query, setQuery] = useSearchParams();
  const asked = query.get('abrir');
  const [picked, setPicked] = useState<string | null>(null);
  const openId = asked ?? picked;
  const setOpenId = (id: string | null) => {
    if (asked !== null)
      setQuery(
        (q) => {
          q.delete('abrir');
          return q;
        },
        { replace: true },
      );
    setPicked(id);
  };
  const people = usePeople();
  const search = useDebounced(filters.search.trim());
  const source = useDebounced(filters.source.trim());
  const params: DealBoardFilters = { search, responsible_id: filters.responsible_id, source };
  useEffect(() => {
    document.title = 'Negócios · autosales';
  }, []);

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Negócios</h1>
          <p>O funil da loja: arraste um negócio para a próxima fase, abra-o para ganhar, perder ou arquivar.</p>
        </div>
        <Button variant="primary" icon={<Plus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          Novo negócio
        </Button>
      </div>
      <div className="toolbar">
        <SearchBox
          label="Buscar negócios"
          placeholder="Buscar por título ou cliente"
          value={filters.search}
          onChange={(v) => setFilters((f) => ({ ...f, search: v }))}
        />
        <label className="sr-only" htmlFor="deal-responsible">
          Responsável
        </label>
        <select
          id="deal-responsible"
          className="select"
          value={filters.responsible_id}
          onChange={(e) => setFilters((f) => ({ ...f, responsible_id: e.target.value }))}
        >
          <option value="">Todos os responsáveis</option>
          {people.data?.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
        <label className="sr-only" htmlFor="deal-source">
          Origem
        </label>
        <input
          id="deal-source"
          className="input"
          placeholder="Origem (ex.: site)"
          value={filters.source}
          onChange={(e) => setFilters((f) => ({ ...f, source: e.target.value }))}
        />
        <span className="spacer" />
        <div className="segmented" role="group" aria-label="Visualização">
          <button type="button" aria-pressed={view === 'board'} onClick={() => setView('board')}>
            <Columns3 size={15} aria-hidden /> Quadro
          </button>
          <button type="button" aria-pressed={view === 'list'} onClick={() => setView('list')}>
            <List size={15} aria-hidden /> Lista
          </button>
        </div>
      </div>
      {view === 'board' ? (
        <DealsBoard params={params} onOpen={setOpenId} onCreate={() => setCreating(true)} />
      ) : (
        <DealsList params={params} onOpen={setOpenId} />
      )}
      <DealFormDialog open={creating} onClose={() => setCreating(false)} onSaved={(d) => setOpenId(d.id)} />
      <DealDialog id={openId} onClose={() => setOpenId(null)} />
    </>
  );
}
