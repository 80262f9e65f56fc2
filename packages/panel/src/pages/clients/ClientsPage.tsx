import { UserPlus, Users } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useClientList } from '../../api/clients';
import type { ClientFilters } from '../../api/types';
import { Button } from '../../ui/Button';
import { EmptyState, ListState } from '../../ui/States';
import { Pager, SearchBox, useDebounced, usePage } from '../records/shared';
import { showDoc } from '../../ui/masks';
import { ClientForm } from './ClientForm';

export function ClientsPage() {
  const [search, setSearch] = useState('');
  const [type, setType] = useState('');
  const [status, setStatus] = useState('active');
  const [creating, setCreating] = useState(false);
  const term = useDebounced(search.trim());
  const [page, setPage] = usePage(term, type, status);
  const navigate = useNavigate();
  const list = useClientList({
    search: term,
    type: type as ClientFilters['type'],
    status: status as ClientFilters['status'],
    page,
    limit: 25,
    sort: 'name',
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
        <ListState
          query={list}
          empty={
            <EmptyState icon={Users} title={term ? 'Nenhum cliente encontrado' : 'Nenhum cliente ainda'}>
              {term ? 'Confira a grafia ou busque pelo CPF/CNPJ.' : 'Cadastre um cliente ou receba leads pela API.'}
            </EmptyState>
          }
        >
          {(result) => (
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
                    {result.data.map((c) => (
                      <tr key={c.id} className="clickable" data-testid="client-row" onClick={() => void navigate(`/clientes/${c.id}`)}>
                        <td className="primary-cell">
                          <Link className="link-strong" to={`/clientes/${c.id}`} onClick={(e) => e.stopPropagation()}>
                            {c.name}
                          </Link>
                          <div className="small muted">{c.email ?? '—'}</div>
                        </td>
                        <td data-label="CPF/CNPJ" className="mono">
                          {c.type === 'PF' ? showDoc('cpf', c.cpf) : showDoc('cnpj', c.cnpj)} <span className="badge badge-plain">{c.type}</span>
                        </td>
                        <td data-label="Telefone">{showDoc('phone', c.mobile_phone ?? c.phone)}</td>
                        <td data-label="Situação">
                          {c.status === 'active' ? <span className="badge badge-success">Ativo</span> : <span className="badge">Desativado</span>}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager page={page} pagination={result.pagination} noun={['cliente', 'clientes']} onPage={setPage} />
            </>
          )}
        </ListState>
      </div>
      {creating ? <ClientForm onClose={() => setCreating(false)} onSaved={(c) => void navigate(`/clientes/${c.id}`)} /> : null}
    </>
  );
}
