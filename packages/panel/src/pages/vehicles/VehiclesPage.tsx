import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Archive, BadgeCheck, CalendarClock, CalendarPlus, Car, Gauge, Pencil, Plus } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { api, fieldError } from '../../api/client';
import type { Vehicle, VehicleCard } from '../../api/records';
import { Button } from '../../ui/Button';
import { Board } from '../../ui/board/Board';
import { useBoard } from '../../ui/board/useBoard';
import { Dialog } from '../../ui/Dialog';
import { SelectField, TextArea, TextField } from '../../ui/Field';
import { formatDateTime, formatInt, formatMoney, phaseLabel } from '../../ui/format';
import { Alert, EmptyState, ErrorState, Loading } from '../../ui/States';
import { useToast } from '../../ui/Toasts';
import { ActivityForm } from '../agenda/AgendaPage';
import { useBoardPhases } from '../deals/DealForm';
import { SearchBox, useDebounced } from '../records/shared';

const STATUS_LABELS = { ativo: 'Em estoque', vendido: 'Vendido', arquivado: 'Arquivado' } as const;

export function VehiclesPage() {
  const [search, setSearch] = useState('');
  const [brand, setBrand] = useState('');
  const [creating, setCreating] = useState(false);
  const [openId, setOpenId] = useState<string | null>(null);
  const params = { search: useDebounced(search.trim()), brand: useDebounced(brand.trim()) };
  const { board, move, loadMore, loadingMore } = useBoard<VehicleCard>({ area: 'vehicles', params, valueOf: (c) => c.price, titleOf: (c) => c.title });
  useEffect(() => {
    document.title = 'Veículos · autosales';
  }, []);

  let body;
  if (board.isPending) body = <Loading rows={6} label="Carregando o quadro…" />;
  else if (board.isError) body = <ErrorState error={board.error} onRetry={() => void board.refetch()} />;
  else
    body = (
      <>
        {board.data.columns.every((c) => c.count === 0) && !params.search && !params.brand ? (
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
      </div>
      {body}
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

function VehicleDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const [editing, setEditing] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  const vehicle = useQuery({
    queryKey: ['vehicles', 'one', id],
    queryFn: () => api.get<Vehicle>(`/vehicles/${encodeURIComponent(id ?? '')}`),
    enabled: id !== null,
  });
  const phases = useBoardPhases('vehicles');
  const qc = useQueryClient();
  const toast = useToast();
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['vehicles'] });
    void qc.invalidateQueries({ queryKey: ['dashboard'] });
  };
  const change = useMutation({
    mutationFn: ({ body }: { body: Record<string, unknown>; done: string }) => api.put<Vehicle>(`/vehicles/${encodeURIComponent(id ?? '')}`, body),
    onSuccess: (v, { done }) => {
      qc.setQueryData(['vehicles', 'one', id], v);
      refresh();
      toast.success(done);
    },
    onError: (err) => toast.error(err.message),
  });
  const archive = useMutation({
    mutationFn: () => api.delete(`/vehicles/${encodeURIComponent(id ?? '')}`),
    onSuccess: () => {
      refresh();
      toast.success('Veículo arquivado.');
      onClose();
    },
    onError: (err) => toast.error(err.message),
  });
  const v = vehicle.data;
  return (
    <>
      <Dialog open={id !== null && !editing && !scheduling} onClose={onClose} title={v?.title ?? 'Veículo'} wide>
        {vehicle.isPending ? (
          <Loading />
        ) : vehicle.isError ? (
          <ErrorState error={vehicle.error} onRetry={() => void vehicle.refetch()} />
        ) : v ? (
          <div className="stack">
            <div className="row">
              <span className={`badge ${v.status === 'vendido' ? 'badge-success' : ''}`}>{STATUS_LABELS[v.status]}</span>
              {v.plate ? <span className="plate">{v.plate}</span> : null}
            </div>
            <dl className="kv">
              <dt>Preço</dt>
              <dd>{formatMoney(v.price)}</dd>
              <dt>Preço de compra</dt>
              <dd>{formatMoney(v.purchase_price)}</dd>
              <dt>Marca / modelo</dt>
              <dd>
                {v.brand} {v.model} {v.version ?? ''}
              </dd>
              <dt>Ano</dt>
              <dd>
                {v.manufacture_year ?? '—'}/{v.model_year ?? '—'}
              </dd>
              <dt>Quilometragem</dt>
              <dd>{v.mileage === null ? '—' : `${formatInt(v.mileage)} km`}</dd>
              <dt>RENAVAM</dt>
              <dd className="mono">{v.renavam ?? '—'}</dd>
              <dt>Chassi</dt>
              <dd className="mono">{v.chassis ?? '—'}</dd>
              {v.sold_at ? (
                <>
                  <dt>Vendido em</dt>
                  <dd>{formatDateTime(v.sold_at)}</dd>
                </>
              ) : null}
            </dl>
            {v.status === 'ativo' ? (
              <div className="field">
                <label className="label" htmlFor="vehicle-move">
                  Fase
                </label>
                <select
                  id="vehicle-move"
                  className="select"
                  value={v.phase}
                  disabled={change.isPending}
                  onChange={(e) => change.mutate({ body: { phase: e.target.value }, done: `Movido para ${phaseLabel(e.target.value)}.` })}
                >
                  {phases.data?.map((p) => (
                    <option key={p.name} value={p.name}>
                      {phaseLabel(p.name)}
                    </option>
                  ))}
                </select>
              </div>
            ) : (
              <p className="small muted">Fase: {phaseLabel(v.phase)}</p>
            )}
            <div className="row">
              {v.status === 'ativo' ? (
                <Button
                  variant="primary"
                  icon={<BadgeCheck size={16} aria-hidden />}
                  loading={change.isPending}
                  onClick={() => change.mutate({ body: { status: 'vendido' }, done: 'Veículo marcado como vendido.' })}
                >
                  Marcar como vendido
                </Button>
              ) : v.status === 'vendido' ? (
                <Button onClick={() => change.mutate({ body: { status: 'ativo' }, done: 'Veículo de volta ao estoque.' })}>Voltar ao estoque</Button>
              ) : null}
              <Button icon={<Pencil size={16} aria-hidden />} onClick={() => setEditing(true)}>
                Editar
              </Button>
              <Button icon={<CalendarPlus size={16} aria-hidden />} onClick={() => setScheduling(true)}>
                Nova atividade
              </Button>
              <span className="spacer" />
              {v.status !== 'arquivado' ? (
                <Button variant="danger-ghost" icon={<Archive size={16} aria-hidden />} loading={archive.isPending} onClick={() => archive.mutate()}>
                  Arquivar
                </Button>
              ) : null}
            </div>
          </div>
        ) : null}
      </Dialog>
      {editing && v ? <VehicleForm vehicle={v} onClose={() => setEditing(false)} /> : null}
      {scheduling && v ? <ActivityForm link={{ vehicle_id: v.id, label: `Ligada ao veículo ${v.title}.` }} onClose={() => setScheduling(false)} /> : null}
    </>
  );
}

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
const NUMERIC = new Set<FieldName>(['manufacture_year', 'model_year', 'mileage', 'price', 'purchase_price']);

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
      return [f, v === null || v === undefined ? '' : String(v)];
    }),
  ) as Record<FieldName, string>;
  if (!vehicle) initial.condition = 'seminovo';
  const [form, setForm] = useState(initial);
  const set = (f: FieldName) => (e: { target: { value: string } }) => setForm((s) => ({ ...s, [f]: e.target.value }));
  const phases = useBoardPhases('vehicles');
  const qc = useQueryClient();
  const toast = useToast();
  const save = useMutation({
    mutationFn: () => {
      const body: Record<string, unknown> = {};
      for (const f of FIELDS) {
        const text = form[f];
        if (f === 'phase' && text === '') continue;
        if (!vehicle && text.trim() === '') continue;
        body[f] = NUMERIC.has(f) ? toNumber(text) : text.trim() === '' ? null : text.trim();
      }
      return vehicle ? api.put<Vehicle>(`/vehicles/${encodeURIComponent(vehicle.id)}`, body) : api.post<Vehicle>('/vehicles', body);
    },
    onSuccess: (v) => {
      void qc.invalidateQueries({ queryKey: ['vehicles'] });
      void qc.invalidateQueries({ queryKey: ['dashboard'] });
      toast.success(vehicle ? 'Veículo salvo.' : `${v.title} entrou no estoque.`);
      onClose();
      onSaved?.(v);
    },
  });
  const err = save.error;
  const general = err && !FIELDS.some((f) => fieldError(err, f)) ? err.message : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const text = (f: FieldName, label: string, extra: Record<string, unknown> = {}) => (
    <TextField label={label} value={form[f]} onChange={set(f)} error={fieldError(err, f)} {...extra} />
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
          {text('plate', 'Placa', { placeholder: 'ABC1D23', autoCapitalize: 'characters', hint: 'Padrão antigo ou Mercosul.' })}
          {text('renavam', 'RENAVAM', { inputMode: 'numeric', hint: '11 dígitos.' })}
          {text('chassis', 'Chassi', { autoCapitalize: 'characters', hint: '17 caracteres (VIN).' })}
          {text('mileage', 'Quilometragem (km)', { inputMode: 'numeric' })}
          {text('manufacture_year', 'Ano de fabricação', { inputMode: 'numeric' })}
          {text('model_year', 'Ano do modelo', { inputMode: 'numeric' })}
          {text('price', 'Preço de venda (R$)', { inputMode: 'decimal' })}
          {text('purchase_price', 'Preço de compra (R$)', { inputMode: 'decimal' })}
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
                {p.name}
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
