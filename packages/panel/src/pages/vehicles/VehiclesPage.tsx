import { CalendarClock, Car, Columns3, Gauge, List, Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { VehicleCard } from '../../api/types';
import { vehiclesBoard, type StockStatus } from '../../api/vehicles';
import { Board } from '../../ui/board/Board';
import { useBoard } from '../../ui/board/useBoard';
import { Button } from '../../ui/Button';
import { formatInt, formatMoney } from '../../ui/format';
import { EmptyState, ErrorState, Loading } from '../../ui/States';
import { SearchBox, useDebounced } from '../records/shared';
import { VehicleDialog } from './VehicleDialog';
import { VehicleForm } from './VehicleForm';
import { VehiclesList } from './VehiclesList';

export function VehiclesPage() {
  const [search, setSearch] = useState('');
  const [brand, setBrand] = useState('');
  const [status, setStatus] = useState<StockStatus>('ativo');
  const [view, setView] = useState<'board' | 'list'>('board');
  const [creating, setCreating] = useState(false);
  const [openId, setOpenId] = useState<string | null>(null);
  const params = { search: useDebounced(search.trim()), brand: useDebounced(brand.trim()) };
  const { board, move, loadMore, loadingMore } = useBoard<VehicleCard>({
    source: vehiclesBoard({ ...params, status }),
    valueOf: (c) => c.price,
    titleOf: (c) => c.title,
  });
  useEffect(() => {
    document.title = 'Veículos · autosales';
  }, []);

  let body;
  if (board.isPending) body = <Loading rows={6} label="Carregando o quadro…" />;
  else if (board.isError) body = <ErrorState error={board.error} onRetry={() => void board.refetch()} />;
  else
    body = (
      <>
        {board.data.columns.every((c) => c.count === 0) && !params.search && !params.brand && status === 'ativo' ? (
          <div className="card" style={{ marginBottom: 16 }}>
            <EmptyState icon={Car} title="Nenhum veículo no estoque">
              Cadastre o primeiro veículo; ele entra na primeira fase do quadro.
            </EmptyState>
          </div>
        ) : null}
        <Board<VehicleCard>
          noun="veículo"
          columns={board.data.columns}
          cardTitle={(c) => c.title}
          columnSummary={(col) => (col.total_value !== undefined && col.total_value !== null ? formatMoney(col.total_value) : null)}
          renderCard={(c) => <VehicleCardView card={c} />}
          onMove={move}
          canDrag={status === 'ativo'}
          onOpen={(c) => setOpenId(c.id)}
          onLoadMore={loadMore}
          loadingMore={loadingMore}
        />
      </>
    );

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Veículos</h1>
          <p>O estoque da loja, da compra à entrega: arraste um veículo entre as fases, abra-o para vender ou arquivar.</p>
        </div>
        <Button variant="primary" icon={<Plus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          Novo veículo
        </Button>
      </div>
      <div className="toolbar">
        <SearchBox label="Buscar veículos" placeholder="Buscar por título, modelo ou placa" value={search} onChange={setSearch} />
        <label className="sr-only" htmlFor="vehicle-brand">
          Marca
        </label>
        <input id="vehicle-brand" className="input" placeholder="Marca" value={brand} onChange={(e) => setBrand(e.target.value)} />
        <label className="sr-only" htmlFor="vehicle-status">
          Situação
        </label>
        <select id="vehicle-status" className="select" style={{ width: 'auto' }} value={status} onChange={(e) => setStatus(e.target.value as StockStatus)}>
          <option value="ativo">Em estoque</option>
          <option value="vendido">Vendidos</option>
          <option value="arquivado">Arquivados</option>
        </select>
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
      {view === 'board' ? body : <VehiclesList params={params} status={status} onOpen={setOpenId} />}
      {creating ? <VehicleForm onClose={() => setCreating(false)} onSaved={(v) => setOpenId(v.id)} /> : null}
      <VehicleDialog id={openId} onClose={() => setOpenId(null)} />
    </>
  );
}

function VehicleCardView({ card }: { card: VehicleCard }) {
  return (
    <>
      <div className="board-card-title">
        <strong>{card.title}</strong>
        {card.plate ? <span className="plate">{card.plate}</span> : null}
      </div>
      <div className="board-card-meta">
        <span className="money">{formatMoney(card.price)}</span>
        <span className="small muted">{card.model_year ?? '—'}</span>
      </div>
      <div className="board-card-meta small muted">
        <span className="row" style={{ gap: 4 }}>
          <Gauge size={13} aria-hidden /> {card.mileage === null ? '—' : `${formatInt(card.mileage)} km`}
        </span>
        <span className="row" style={{ gap: 4 }} title="Dias em estoque">
          <CalendarClock size={13} aria-hidden /> {card.days_in_stock ?? 0} {card.days_in_stock === 1 ? 'dia' : 'dias'}
        </span>
      </div>
    </>
  );
}
