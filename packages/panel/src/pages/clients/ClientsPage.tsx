import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, CalendarPlus, Pencil, Power, UserPlus, Users } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, fieldError } from '../../api/client';
import { DEAL_STATUS_LABELS, type Client, type ClientOverview } from '../../api/records';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { TextArea, TextField } from '../../ui/Field';
import { formatDate, formatDateTime, formatDay, formatMoney, phaseLabel } from '../../ui/format';
import { Alert, EmptyState, ErrorState, Loading } from '../../ui/States';
import { useToast } from '../../ui/Toasts';
import { ActivityForm } from '../agenda/AgendaPage';
import { FINANCIAL_STATUS_LABELS, FINANCIAL_TYPE_LABELS } from '../financial/labels';
import { Pager, qs, SearchBox, useDebounced } from '../records/shared';

export function ClientsPage() {
  const [search, setSearch] = useState('');
  const [type, setType] = useState('');
  const [status, setStatus] = useState('active');
  const [creating, setCreating] = useState(false);
  const term = useDebounced(search.trim());
  const signature = JSON.stringify([term, type, status]);
  const [paging, setPaging] = useState({ signature, page: 1 });
  const page = paging.signature === signature ? paging.page : 1;
  const navigate = useNavigate();
  const list = useQuery({
    queryKey: ['clients', 'list', term, type, status, page],
    queryFn: () => api.page<Client>(`/clients${qs({ search: term, type, status, page, limit: 25, sort: 'name' })}`),
    placeholderData: (prev) => prev,
  });
  useEffect(() => {
    document.title = 'Clientes · autosales';
  }, []);

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Clientes</h1>
          <p>Pessoas e empresas que compram na loja. Busque por nome, e-mail, CPF ou CNPJ (com ou sem pontuação).</p>
        </div>
        <Button variant="primary" icon={<UserPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          Novo cliente
        </Button>
      </div>
      <div className="toolbar">
        <SearchBox label="Buscar clientes" placeholder="Nome, e-mail, CPF ou CNPJ" value={search} onChange={setSearch} />
        <label className="sr-only" htmlFor="client-type">
          Tipo
        </label>
        <select id="client-type" className="select" value={type} onChange={(e) => setType(e.target.value)}>
          <option value="">Pessoas e empresas</option>
          <option value="PF">Pessoa física</option>
          <option value="PJ">Pessoa jurídica</option>
        </select>
        <label className="sr-only" htmlFor="client-status">
          Situação
        </label>
        <select id="client-status" className="select" value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="active">Ativos</option>
          <option value="inactive">Desativados</option>
          <option value="">Todos</option>
        </select>
      </div>
      <div className="card">
        {list.isPending ? (
          <Loading />
        ) : list.isError ? (
          <ErrorState error={list.error} onRetry={() => void list.refetch()} />
        ) : list.data.data.length === 0 ? (
          <EmptyState icon={Users} title={term ? 'Nenhum cliente encontrado' : 'Nenhum cliente ainda'}>
            {term ? 'Confira a grafia ou busque pelo CPF/CNPJ.' : 'Cadastre um cliente ou receba leads pela API.'}
          </EmptyState>
        ) : (
          <>
            <div className="table-wrap">
              <table className="table responsive">
                <thead>
                  <tr>
                    <th scope="col">Cliente</th>
                    <th scope="col">CPF/CNPJ</th>
                    <th scope="col">Telefone</th>
                    <th scope="col">Situação</th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.data.map((c) => (
                    <tr key={c.id} className="clickable" data-testid="client-row" onClick={() => void navigate(`/clientes/${c.id}`)}>
                      <td className="primary-cell">
                        <Link className="link-strong" to={`/clientes/${c.id}`} onClick={(e) => e.stopPropagation()}>
                          {c.name}
                        </Link>
                        <div className="small muted">{c.email ?? '—'}</div>
                      </td>
                      <td data-label="CPF/CNPJ" className="mono">
                        {(c.type === 'PF' ? c.cpf : c.cnpj) ?? '—'} <span className="badge badge-plain">{c.type}</span>
                      </td>
                      <td data-label="Telefone">{c.mobile_phone ?? c.phone ?? '—'}</td>
                      <td data-label="Situação">
                        {c.status === 'active' ? <span className="badge badge-success">Ativo</span> : <span className="badge">Desativado</span>}
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
              noun={['cliente', 'clientes']}
              onPage={(p) => setPaging({ signature, page: p })}
            />
          </>
        )}
      </div>
      {creating ? <ClientForm onClose={() => setCreating(false)} onSaved={(c) => void navigate(`/clientes/${c.id}`)} /> : null}
    </>
  );
}

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

/** PF/PJ form: CPF or CNPJ, contact and address; the server checks the digits and answers on the field. */
export function ClientForm({ client, onClose, onSaved }: { client?: Client; onClose: () => void; onSaved?: (c: Client) => void }) {
  const [type, setType] = useState<'PF' | 'PJ'>(client?.type ?? 'PF');
  const [form, setForm] = useState<Record<Base, string>>(() => Object.fromEntries(BASE.map((f) => [f, client?.[f] ?? ''])) as Record<Base, string>);
  const [address, setAddress] = useState<Record<string, string>>(() =>
    Object.fromEntries(ADDRESS.map(([f]) => [f, client?.address?.[f as keyof NonNullable<Client['address']>] ?? ''])),
  );
  const qc = useQueryClient();
  const toast = useToast();
  const save = useMutation({
    mutationFn: () => {
      const body: Record<string, unknown> = { type };
      const own = type === 'PF' ? ['cpf'] : ['cnpj', 'legal_name', 'trade_name'];
      for (const f of BASE) {
        if ((f === 'cpf' || f === 'cnpj' || f === 'legal_name' || f === 'trade_name') && !own.includes(f)) continue;
        const v = form[f].trim();
        if (v !== '' || client) body[f] = v === '' ? null : v;
      }
      const addr = Object.fromEntries(Object.entries(address).map(([k, v]) => [k, v.trim() === '' ? null : v.trim()]));
      if (Object.values(addr).some((v) => v !== null) || client?.address) body.address = addr;
      return client ? api.put<Client>(`/clients/${encodeURIComponent(client.id)}`, body) : api.post<Client>('/clients', body);
    },
    onSuccess: (c) => {
      void qc.invalidateQueries({ queryKey: ['clients'] });
      toast.success(client ? 'Cliente salvo.' : `${c.name} cadastrado.`);
      onClose();
      onSaved?.(c);
    },
  });
  const err = save.error;
  const errOf = (f: string) => fieldError(err, f) ?? fieldError(err, `address.${f}`);
  const known = [...BASE, 'type', 'address', ...ADDRESS.map(([f]) => f), ...ADDRESS.map(([f]) => `address.${f}`)];
  const general = err && !known.some((f) => fieldError(err, f)) ? err.message : null;
  const text = (f: Base, label: string, extra: Record<string, unknown> = {}) => (
    <TextField label={label} value={form[f]} onChange={(e) => setForm((s) => ({ ...s, [f]: e.target.value }))} error={fieldError(err, f)} {...extra} />
  );
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
          {type === 'PF'
            ? text('cpf', 'CPF', { inputMode: 'numeric', placeholder: '000.000.000-00' })
            : text('cnpj', 'CNPJ', { placeholder: '00.000.000/0000-00' })}
          {text('email', 'E-mail', { type: 'email' })}
          {type === 'PJ' ? text('legal_name', 'Razão social') : null}
          {type === 'PJ' ? text('trade_name', 'Nome fantasia') : null}
          {text('mobile_phone', 'Celular', { inputMode: 'tel' })}
          {text('phone', 'Telefone', { inputMode: 'tel' })}
        </div>
        <h3 className="form-section">Endereço</h3>
        <div className="grid-2">
          {ADDRESS.map(([f, label]) => (
            <TextField key={f} label={label} value={address[f] ?? ''} onChange={(e) => setAddress((a) => ({ ...a, [f]: e.target.value }))} error={errOf(f)} />
          ))}
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

/** One client with its deals, activities and financial records. */
export function ClientDetailPage() {
  const { id = '' } = useParams();
  const [editing, setEditing] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  const overview = useQuery({ queryKey: ['clients', 'overview', id], queryFn: () => api.get<ClientOverview>(`/clients/${encodeURIComponent(id)}/overview`) });
  const qc = useQueryClient();
  const toast = useToast();
  const c = overview.data?.client;
  useEffect(() => {
    document.title = `${c?.name ?? 'Cliente'} · Clientes · autosales`;
  }, [c?.name]);
  const toggle = useMutation({
    mutationFn: async () => {
      if (!c) return;
      if (c.status === 'active') await api.delete(`/clients/${encodeURIComponent(c.id)}`);
      else await api.post<Client>(`/clients/${encodeURIComponent(c.id)}/reactivate`);
    },
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['clients'] });
      toast.success(c?.status === 'active' ? 'Cliente desativado.' : 'Cliente reativado.');
    },
    onError: (err) => toast.error(err.message),
  });

  if (overview.isPending) return <Loading rows={8} />;
  if (overview.isError) return <ErrorState error={overview.error} onRetry={() => void overview.refetch()} />;
  const { deals, activities, financial } = overview.data;
  const client = overview.data.client;
  const addr = client.address;
  return (
    <>
      <Link to="/clientes" className="back-link">
        <ArrowLeft size={15} aria-hidden /> Clientes
      </Link>
      <div className="page-header">
        <div>
          <h1>{client.name}</h1>
          <p className="row">
            <span className="badge badge-plain">{client.type === 'PF' ? 'Pessoa física' : 'Pessoa jurídica'}</span>
            {client.status === 'active' ? <span className="badge badge-success">Ativo</span> : <span className="badge">Desativado</span>}
            <span className="small muted">cliente desde {formatDate(client.created_at)}</span>
          </p>
        </div>
        <div className="row">
          <Button icon={<CalendarPlus size={16} aria-hidden />} onClick={() => setScheduling(true)}>
            Nova atividade
          </Button>
          <Button icon={<Pencil size={16} aria-hidden />} onClick={() => setEditing(true)}>
            Editar
          </Button>
          <Button
            variant={client.status === 'active' ? 'danger-ghost' : 'secondary'}
            icon={<Power size={16} aria-hidden />}
            loading={toggle.isPending}
            onClick={() => toggle.mutate()}
          >
            {client.status === 'active' ? 'Desativar' : 'Reativar'}
          </Button>
        </div>
      </div>
      <div className="grid-2" style={{ alignItems: 'start' }}>
        <div className="card card-body">
          <dl className="kv">
            <dt>{client.type === 'PF' ? 'CPF' : 'CNPJ'}</dt>
            <dd className="mono">{(client.type === 'PF' ? client.cpf : client.cnpj) ?? '—'}</dd>
            {client.type === 'PJ' ? (
              <>
                <dt>Razão social</dt>
                <dd>{client.legal_name ?? '—'}</dd>
              </>
            ) : null}
            <dt>E-mail</dt>
            <dd>{client.email ?? '—'}</dd>
            <dt>Celular</dt>
            <dd>{client.mobile_phone ?? '—'}</dd>
            <dt>Telefone</dt>
            <dd>{client.phone ?? '—'}</dd>
            <dt>Endereço</dt>
            <dd>
              {addr && (addr.street || addr.city)
                ? [
                    addr.street && `${addr.street}${addr.number ? `, ${addr.number}` : ''}`,
                    addr.neighborhood,
                    addr.city && `${addr.city}${addr.state ? `/${addr.state}` : ''}`,
                    addr.zip_code,
                  ]
                    .filter(Boolean)
                    .join(' · ')
                : '—'}
            </dd>
          </dl>
          {client.notes ? (
            <p className="muted small" style={{ marginTop: 12 }}>
              {client.notes}
            </p>
          ) : null}
        </div>
        <div className="card">
          <div className="card-header">
            <h2>Negócios</h2>
            <Link to="/negocios" className="small">
              Ver funil
            </Link>
          </div>
          {deals.length === 0 ? (
            <p className="card-body muted">Nenhum negócio com este cliente.</p>
          ) : (
            <ul className="plain-list">
              {deals.map((d) => (
                <li key={d.id}>
                  <strong>{d.title}</strong>
                  <span className="small muted">
                    {phaseLabel(d.phase)} · {DEAL_STATUS_LABELS[d.status]}
                  </span>
                  <span className="money">{formatMoney(d.value)}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="card">
          <div className="card-header">
            <h2>Atividades</h2>
            <Link to="/agenda" className="small">
              Abrir agenda
            </Link>
          </div>
          {activities.length === 0 ? (
            <p className="card-body muted">Nenhuma atividade.</p>
          ) : (
            <ul className="plain-list">
              {activities.map((a) => (
                <li key={a.id}>
                  <strong>{a.title}</strong>
                  <span className="small muted">{a.status === 'completed' ? `concluída ${formatDateTime(a.completed_at)}` : formatDateTime(a.due_at)}</span>
                  {a.is_overdue ? <span className="badge badge-danger">Atrasada</span> : null}
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="card">
          <div className="card-header">
            <h2>Financeiro</h2>
            <Link to="/financeiro" className="small">
              Abrir financeiro
            </Link>
          </div>
          {financial.length === 0 ? (
            <p className="card-body muted">Nenhum lançamento.</p>
          ) : (
            <ul className="plain-list">
              {financial.map((f) => (
                <li key={f.id}>
                  <strong>{f.description}</strong>
                  <span className="small muted">
                    {FINANCIAL_TYPE_LABELS[f.type]} · {FINANCIAL_STATUS_LABELS[f.status]} · vence {formatDay(f.due_date)}
                  </span>
                  <span className="money">{formatMoney(f.amount)}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
      {editing ? <ClientForm client={client} onClose={() => setEditing(false)} /> : null}
      {scheduling ? (
        <ActivityForm link={{ client: { id: client.id, name: client.name }, label: `Com ${client.name}.` }} onClose={() => setScheduling(false)} />
      ) : null}
    </>
  );
}
