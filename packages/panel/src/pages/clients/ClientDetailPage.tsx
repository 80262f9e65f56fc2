import { ArrowLeft, CalendarPlus, Pencil, Power } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useClientOverview, useToggleClient } from '../../api/clients';
import { usePhaseLabel } from '../../api/phases';
import { Button } from '../../ui/Button';
import { formatDate, formatDateTime, formatMoney } from '../../ui/format';
import { DEAL_STATUS_LABELS } from '../../ui/labels';
import { ErrorState, Loading } from '../../ui/States';
import { useToast } from '../../ui/Toasts';
import { ActivityForm } from '../agenda/ActivityForm';
import { FinancialForm } from '../financial/FinancialForm';
import { LinkedRecords } from '../financial/LinkedRecords';
import { formatDoc, showDoc } from '../../ui/masks';
import { ClientForm } from './ClientForm';

/** One client with its deals, activities and financial records. */
export function ClientDetailPage() {
  const phaseName = usePhaseLabel('deals');
  const { id = '' } = useParams();
  const [editing, setEditing] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  const [recording, setRecording] = useState(false);
  const overview = useClientOverview(id);
  const toast = useToast();
  const toggling = useToggleClient();
  const c = overview.data?.client;
  useEffect(() => {
    document.title = `${c?.name ?? 'Cliente'} · Clientes · autosales`;
  }, [c?.name]);
  const toggle = {
    ...toggling,
    mutate: () => {
      if (!c) return;
      toggling.mutate(c, {
        onSuccess: () => toast.success(c.status === 'active' ? 'Cliente desativado.' : 'Cliente reativado.'),
        onError: (err) => toast.error(err.message),
      });
    },
  };

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
            <dd className="mono">{client.type === 'PF' ? showDoc('cpf', client.cpf) : showDoc('cnpj', client.cnpj)}</dd>
            {client.type === 'PJ' ? (
              <>
                <dt>Razão social</dt>
                <dd>{client.legal_name ?? '—'}</dd>
              </>
            ) : null}
            <dt>E-mail</dt>
            <dd>{client.email ?? '—'}</dd>
            <dt>Celular</dt>
            <dd>{showDoc('phone', client.mobile_phone)}</dd>
            <dt>Telefone</dt>
            <dd>{showDoc('phone', client.phone)}</dd>
            <dt>Endereço</dt>
            <dd>
              {addr && (addr.street || addr.city)
                ? [
                    addr.street && `${addr.street}${addr.number ? `, ${addr.number}` : ''}`,
                    addr.neighborhood,
                    addr.city && `${addr.city}${addr.state ? `/${addr.state}` : ''}`,
                    addr.zip_code && `CEP ${formatDoc('cep', addr.zip_code)}`,
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
                    {phaseName(d.phase)} · {DEAL_STATUS_LABELS[d.status] ?? d.status}
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
        {/* A seller's overview has no records (Financeiro is a manager's). */}
        {financial && <LinkedRecords records={financial} onAdd={() => setRecording(true)} />}
      </div>
      {recording ? <FinancialForm links={{ client: { id: client.id, name: client.name } }} onClose={() => setRecording(false)} /> : null}
      {editing ? <ClientForm client={client} onClose={() => setEditing(false)} /> : null}
      {scheduling ? (
        <ActivityForm link={{ client: { id: client.id, name: client.name }, label: `Com ${client.name}.` }} onClose={() => setScheduling(false)} />
      ) : null}
    </>
  );
}
