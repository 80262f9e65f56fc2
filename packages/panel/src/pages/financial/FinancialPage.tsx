import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BadgeDollarSign, Plus, Wallet } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Line, ComposedChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { api, fieldError } from '../../api/client';
import type { FinancialRecord, FinancialType } from '../../api/records';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { SelectField, TextArea, TextField } from '../../ui/Field';
import { formatDay, formatMoney } from '../../ui/format';
import { Alert, EmptyState, ErrorState, Loading } from '../../ui/States';
import { useToast } from '../../ui/Toasts';
import { Pager, qs } from '../records/shared';
import { FINANCIAL_STATUS_LABELS, FINANCIAL_TYPE_LABELS, PAYMENT_METHOD_LABELS } from './labels';

export const CATEGORIES: Record<FinancialType, string[]> = {
  revenue: ['venda-veiculo', 'comissao', 'financiamento', 'seguro'],
  expense: ['aluguel', 'pessoal', 'marketing', 'tecnologia'],
  cost: ['funilaria', 'mecanica', 'higienizacao', 'documentacao'],
};
const CATEGORY_LABELS: Record<string, string> = {
  'venda-veiculo': 'Venda de veículo',
  comissao: 'Comissão',
  financiamento: 'Financiamento',
  seguro: 'Seguro',
  aluguel: 'Aluguel',
  pessoal: 'Pessoal',
  marketing: 'Marketing',
  tecnologia: 'Tecnologia',
  funilaria: 'Funilaria',
  mecanica: 'Mecânica',
  higienizacao: 'Higienização',
  documentacao: 'Documentação',
};
const categoryLabel = (c: string) => CATEGORY_LABELS[c] ?? c;

interface MoneyCount {
  count: number;
  amount: number;
}
interface Summary {
  period: { from: string; to: string };
  totals: { revenue: number; expense: number; cost: number; net: number };
  by_status: { pending: MoneyCount; overdue: MoneyCount; paid: MoneyCount; cancelled: MoneyCount };
  by_category: ({ type: FinancialType; category: string } & MoneyCount)[];
  by_month: { month: string; revenue: number; expense: number; cost: number; net: number }[];
  by_vehicle: {
    vehicle_id: string;
    title?: string;
    vehicle_title?: string;
    plate?: string | null;
    sale_revenue: number;
    purchase_price: number | null;
    costs: number;
    margin: number | null;
  }[];
}

const today = () => new Date().toISOString().slice(0, 10);
function startOfYear(): string {
  return `${new Date().getFullYear()}-01-01`;
}

export function FinancialPage() {
  const [tab, setTab] = useState<'records' | 'summary'>('records');
  useEffect(() => {
    document.title = 'Financeiro · autosales';
  }, []);
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Financeiro</h1>
          <p>Receitas, despesas e custos da loja, com o que venceu e a margem de cada veículo vendido.</p>
        </div>
      </div>
      <div className="subnav" role="tablist" aria-label="Financeiro">
        <button type="button" role="tab" aria-selected={tab === 'records'} className={tab === 'records' ? 'active' : ''} onClick={() => setTab('records')}>
          Lançamentos
        </button>
        <button type="button" role="tab" aria-selected={tab === 'summary'} className={tab === 'summary' ? 'active' : ''} onClick={() => setTab('summary')}>
          Resumo
        </button>
      </div>
      {tab === 'records' ? <Records /> : <SummaryView />}
    </>
  );
}

function Records() {
  const [type, setType] = useState('');
  const [category, setCategory] = useState('');
  const [status, setStatus] = useState('');
  const [overdue, setOverdue] = useState(false);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [creating, setCreating] = useState(false);
  const [paying, setPaying] = useState<FinancialRecord | null>(null);
  const signature = JSON.stringify([type, category, status, overdue, from, to]);
  const [paging, setPaging] = useState({ signature, page: 1 });
  const page = paging.signature === signature ? paging.page : 1;
  const list = useQuery({
    queryKey: ['financial', 'list', type, category, status, overdue, from, to, page],
    queryFn: () =>
      api.page<FinancialRecord>(`/financial${qs({ type, category, status, overdue: overdue ? 'true' : '', from, to, page, limit: 25, sort: 'due_date' })}`),
    placeholderData: (prev) => prev,
  });
  const categories = type ? (CATEGORIES[type as FinancialType] ?? []) : Object.values(CATEGORIES).flat();
  return (
    <>
      <div className="toolbar">
        <label className="sr-only" htmlFor="fin-type">
          Tipo
        </label>
        <select
          id="fin-type"
          className="select"
          value={type}
          onChange={(e) => {
            setType(e.target.value);
            setCategory('');
          }}
        >
          <option value="">Todos os tipos</option>
          {Object.entries(FINANCIAL_TYPE_LABELS).map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
        <label className="sr-only" htmlFor="fin-category">
          Categoria
        </label>
        <select id="fin-category" className="select" value={category} onChange={(e) => setCategory(e.target.value)}>
          <option value="">Todas as categorias</option>
          {categories.map((c) => (
            <option key={c} value={c}>
              {categoryLabel(c)}
            </option>
          ))}
        </select>
        <label className="sr-only" htmlFor="fin-status">
          Situação
        </label>
        <select id="fin-status" className="select" value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="">Todas as situações</option>
          {Object.entries(FINANCIAL_STATUS_LABELS).map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
        <label className="check">
          <input type="checkbox" checked={overdue} onChange={(e) => setOverdue(e.target.checked)} /> Só vencidos
        </label>
        <label className="small muted" htmlFor="fin-from">
          De
        </label>
        <input id="fin-from" type="date" className="input" value={from} onChange={(e) => setFrom(e.target.value)} />
        <label className="small muted" htmlFor="fin-to">
          até
        </label>
        <input id="fin-to" type="date" className="input" value={to} onChange={(e) => setTo(e.target.value)} />
        <span className="spacer" />
        <Button variant="primary" icon={<Plus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          Novo lançamento
        </Button>
      </div>
      <div className="card">
        {list.isPending ? (
          <Loading />
        ) : list.isError ? (
          <ErrorState error={list.error} onRetry={() => void list.refetch()} />
        ) : list.data.data.length === 0 ? (
          <EmptyState icon={Wallet} title="Nenhum lançamento">
            Registre receitas, despesas e custos, ou mude os filtros.
          </EmptyState>
        ) : (
          <>
            <div className="table-wrap">
              <table className="table responsive">
                <thead>
                  <tr>
                    <th scope="col">Lançamento</th>
                    <th scope="col">Vencimento</th>
                    <th scope="col">Valor</th>
                    <th scope="col">Situação</th>
                    <th scope="col">
                      <span className="sr-only">Ações</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.data.map((r) => (
                    <tr key={r.id} data-testid="financial-row">
                      <td className="primary-cell">
                        <strong>{r.description}</strong>
                        <div className="small muted">
                          {FINANCIAL_TYPE_LABELS[r.type]} · {categoryLabel(r.category)}
                        </div>
                      </td>
                      <td data-label="Vencimento">{formatDay(r.due_date)}</td>
                      <td data-label="Valor" className={`money ${r.type === 'revenue' ? 'positive' : 'negative'}`}>
                        {r.type === 'revenue' ? '' : '− '}
                        {formatMoney(r.amount)}
                      </td>
                      <td data-label="Situação">
                        {r.status === 'paid' ? (
                          <span className="badge badge-success">
                            Pago{r.payment_method ? ` · ${PAYMENT_METHOD_LABELS[r.payment_method] ?? r.payment_method}` : ''}
                          </span>
                        ) : r.status === 'cancelled' ? (
                          <span className="badge">Cancelado</span>
                        ) : r.is_overdue ? (
                          <span className="badge badge-danger">Vencido</span>
                        ) : (
                          <span className="badge badge-warning">Pendente</span>
                        )}
                      </td>
                      <td className="actions">
                        {r.status === 'pending' ? (
                          <Button
                            size="sm"
                            icon={<BadgeDollarSign size={15} aria-hidden />}
                            onClick={() => setPaying(r)}
                            aria-label={`Registrar pagamento de ${r.description}`}
                          >
                            Pagar
                          </Button>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager
              page={page}
              pages={list.data.pagination.pages}
              total={list.data.pagination.total}
              noun={['lançamento', 'lançamentos']}
              onPage={(p) => setPaging({ signature, page: p })}
            />
          </>
        )}
      </div>
      {creating ? <FinancialForm onClose={() => setCreating(false)} /> : null}
      {paying ? <PayDialog record={paying} onClose={() => setPaying(null)} /> : null}
    </>
  );
}

function invalidateMoney(qc: ReturnType<typeof useQueryClient>) {
  void qc.invalidateQueries({ queryKey: ['financial'] });
  void qc.invalidateQueries({ queryKey: ['clients'] });
  void qc.invalidateQueries({ queryKey: ['dashboard'] });
}

function PayDialog({ record, onClose }: { record: FinancialRecord; onClose: () => void }) {
  const [method, setMethod] = useState('pix');
  const [paidOn, setPaidOn] = useState(today());
  const qc = useQueryClient();
  const toast = useToast();
  const pay = useMutation({
    mutationFn: () =>
      api.post<FinancialRecord>(`/financial/${encodeURIComponent(record.id)}/pay`, {
        payment_method: method,
        ...(paidOn && paidOn !== today() ? { paid_at: new Date(`${paidOn}T12:00:00`).toISOString() } : {}),
      }),
    onSuccess: () => {
      invalidateMoney(qc);
      toast.success('Pagamento registrado.');
      onClose();
    },
  });
  return (
    <Dialog open onClose={onClose} title="Registrar pagamento" description={`${record.description} · ${formatMoney(record.amount)}`}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          pay.mutate();
        }}
        noValidate
      >
        {pay.error && !fieldError(pay.error, 'payment_method') && !fieldError(pay.error, 'paid_at') ? <Alert kind="danger">{pay.error.message}</Alert> : null}
        <SelectField label="Forma de pagamento" value={method} onChange={(e) => setMethod(e.target.value)} error={fieldError(pay.error, 'payment_method')}>
          {Object.entries(PAYMENT_METHOD_LABELS).map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </SelectField>
        <TextField label="Pago em" type="date" value={paidOn} onChange={(e) => setPaidOn(e.target.value)} error={fieldError(pay.error, 'paid_at')} />
        <div className="form-actions">
          <Button onClick={onClose}>Cancelar</Button>
          <Button type="submit" variant="primary" loading={pay.isPending}>
            Confirmar pagamento
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

const FORM_FIELDS = ['type', 'category', 'description', 'amount', 'due_date', 'notes'];

function FinancialForm({ onClose }: { onClose: () => void }) {
  const [type, setType] = useState<FinancialType>('revenue');
  const [category, setCategory] = useState(CATEGORIES.revenue[0] ?? '');
  const [description, setDescription] = useState('');
  const [amount, setAmount] = useState('');
  const [due, setDue] = useState(today());
  const [notes, setNotes] = useState('');
  const qc = useQueryClient();
  const toast = useToast();
  const save = useMutation({
    mutationFn: () => {
      const n = Number(amount.replace(/\./g, '').replace(',', '.'));
      return api.post<FinancialRecord>('/financial', {
        type,
        category,
        description: description.trim(),
        amount: amount.trim() === '' ? undefined : Number.isNaN(n) ? amount : n,
        due_date: due,
        notes: notes.trim() || null,
      });
    },
    onSuccess: () => {
      invalidateMoney(qc);
      toast.success('Lançamento registrado.');
      onClose();
    },
  });
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

const MONTHS = ['jan', 'fev', 'mar', 'abr', 'mai', 'jun', 'jul', 'ago', 'set', 'out', 'nov', 'dez'];
const monthLabel = (m: string) => {
  const [y, mm] = m.split('-');
  return `${MONTHS[Number(mm) - 1] ?? mm}/${(y ?? '').slice(2)}`;
};
const COLORS = { revenue: '#137a3f', expense: '#c02626', cost: '#d97706', net: '#1d4ed8' };
const tooltipMoney = (v: unknown) => formatMoney(typeof v === 'number' ? v : Number(v));

function SummaryView() {
  const [from, setFrom] = useState(startOfYear());
  const [to, setTo] = useState(today());
  const summary = useQuery({ queryKey: ['financial', 'summary', from, to], queryFn: () => api.get<Summary>(`/financial/summary${qs({ from, to })}`) });
  return (
    <div className="stack">
      <div className="toolbar" style={{ marginBottom: 0 }}>
        <label className="small muted" htmlFor="sum-from">
          Período de
        </label>
        <input id="sum-from" type="date" className="input" value={from} onChange={(e) => setFrom(e.target.value)} />
        <label className="small muted" htmlFor="sum-to">
          até
        </label>
        <input id="sum-to" type="date" className="input" value={to} onChange={(e) => setTo(e.target.value)} />
      </div>
      {summary.isPending ? (
        <Loading rows={6} />
      ) : summary.isError ? (
        <ErrorState error={summary.error} onRetry={() => void summary.refetch()} />
      ) : (
        <SummaryBody s={summary.data} />
      )}
    </div>
  );
}

function SummaryBody({ s }: { s: Summary }) {
  const months = s.by_month.map((m) => ({ ...m, label: monthLabel(m.month) }));
  const categories = s.by_category.map((c) => ({ name: categoryLabel(c.category), amount: c.amount, type: c.type }));
  return (
    <>
      <div className="stats" data-testid="financial-totals">
        <Stat label="Receitas" value={formatMoney(s.totals.revenue)} tone="positive" />
        <Stat label="Despesas" value={formatMoney(s.totals.expense)} tone="negative" />
        <Stat label="Custos" value={formatMoney(s.totals.cost)} tone="negative" />
        <Stat label="Resultado" value={formatMoney(s.totals.net)} tone={s.totals.net >= 0 ? 'positive' : 'negative'} />
        <Stat
          label="Pago"
          value={formatMoney(s.by_status.paid.amount)}
          hint={`${s.by_status.paid.count} ${s.by_status.paid.count === 1 ? 'lançamento' : 'lançamentos'}`}
        />
        <Stat
          label="Vencido"
          value={formatMoney(s.by_status.overdue.amount)}
          hint={`${s.by_status.overdue.count} ${s.by_status.overdue.count === 1 ? 'lançamento' : 'lançamentos'}`}
          tone={s.by_status.overdue.count > 0 ? 'negative' : undefined}
        />
      </div>
      <div className="grid-2">
        <div className="card">
          <div className="card-header">
            <h2>Por mês</h2>
          </div>
          <div className="chart" role="img" aria-label="Receitas, despesas, custos e resultado por mês">
            {months.length === 0 ? (
              <p className="muted small">Nenhum lançamento no período.</p>
            ) : (
              <ResponsiveContainer width="100%" height={260}>
                <ComposedChart data={months} margin={{ top: 8, right: 8, left: 8, bottom: 0 }}>
                  <CartesianGrid strokeDasharray="3 3" vertical={false} />
                  <XAxis dataKey="label" fontSize={12} />
                  <YAxis fontSize={11} tickFormatter={(v: number) => formatMoney(v, true)} width={72} />
                  <Tooltip formatter={tooltipMoney} />
                  <Legend />
                  <Bar dataKey="revenue" name="Receitas" fill={COLORS.revenue} isAnimationActive={false} />
                  <Bar dataKey="expense" name="Despesas" fill={COLORS.expense} isAnimationActive={false} />
                  <Bar dataKey="cost" name="Custos" fill={COLORS.cost} isAnimationActive={false} />
                  <Line dataKey="net" name="Resultado" stroke={COLORS.net} strokeWidth={2} isAnimationActive={false} />
                </ComposedChart>
              </ResponsiveContainer>
            )}
          </div>
        </div>
        <div className="card">
          <div className="card-header">
            <h2>Por categoria</h2>
          </div>
          <div className="chart" role="img" aria-label="Valores por categoria">
            {categories.length === 0 ? (
              <p className="muted small">Nenhum lançamento no período.</p>
            ) : (
              <ResponsiveContainer width="100%" height={Math.max(160, categories.length * 34)}>
                <BarChart data={categories} layout="vertical" margin={{ top: 4, right: 16, left: 8, bottom: 4 }}>
                  <CartesianGrid strokeDasharray="3 3" horizontal={false} />
                  <XAxis type="number" fontSize={11} tickFormatter={(v: number) => formatMoney(v, true)} />
                  <YAxis type="category" dataKey="name" fontSize={12} width={120} />
                  <Tooltip formatter={tooltipMoney} />
                  <Bar dataKey="amount" name="Valor" fill={COLORS.net} isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
            )}
          </div>
        </div>
      </div>
      <div className="card">
        <div className="card-header">
          <div>
            <h2>Margem por veículo</h2>
            <p>Receita da venda menos o preço de compra e os custos lançados no veículo.</p>
          </div>
        </div>
        {s.by_vehicle.length === 0 ? (
          <p className="card-body muted">Nenhum veículo com venda ou custo no período.</p>
        ) : (
          <div className="table-wrap">
            <table className="table responsive" data-testid="margin-table">
              <thead>
                <tr>
                  <th scope="col">Veículo</th>
                  <th scope="col">Venda</th>
                  <th scope="col">Compra</th>
                  <th scope="col">Custos</th>
                  <th scope="col">Margem</th>
                </tr>
              </thead>
              <tbody>
                {s.by_vehicle.map((v) => (
                  <tr key={v.vehicle_id}>
                    <td className="primary-cell">
                      {v.title ?? v.vehicle_title ?? <span className="mono small">{v.vehicle_id.slice(0, 8)}</span>}
                      {v.plate ? (
                        <span className="plate" style={{ marginLeft: 6 }}>
                          {v.plate}
                        </span>
                      ) : null}
                    </td>
                    <td data-label="Venda">{formatMoney(v.sale_revenue)}</td>
                    <td data-label="Compra">{formatMoney(v.purchase_price)}</td>
                    <td data-label="Custos">{formatMoney(v.costs)}</td>
                    <td data-label="Margem" className={`money ${v.margin !== null && v.margin < 0 ? 'negative' : 'positive'}`}>
                      {formatMoney(v.margin)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </>
  );
}

export function Stat({ label, value, hint, tone }: { label: string; value: string; hint?: string; tone?: 'positive' | 'negative' | undefined }) {
  return (
    <div className="card stat-card">
      <span className="small muted">{label}</span>
      <strong className={tone ?? ''}>{value}</strong>
      {hint ? <span className="small muted">{hint}</span> : null}
    </div>
  );
}
