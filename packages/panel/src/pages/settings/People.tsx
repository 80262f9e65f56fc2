import { Link2, UserPlus, Users } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { fieldError, formError } from '../../api/client';
import type { InvitedMember, Member, Role } from '../../api/types';
import { useInviteUser, useNewPasswordLink, useUpdateUser, useUsers } from '../../api/users';
import { ROLE_LABELS, useCurrentSession } from '../../auth/session';
import { Button } from '../../ui/Button';
import { SecretBox } from '../../ui/CopyButton';
import { Dialog } from '../../ui/Dialog';
import { SelectField, TextField } from '../../ui/Field';
import { formatDate, initials } from '../../ui/format';
import { Alert, EmptyState, ErrorState, Loading } from '../../ui/States';
import { useToast } from '../../ui/Toasts';

const ROLES: Role[] = ['owner', 'manager', 'seller'];
const ROLE_HELP: Record<Role, string> = {
  owner: 'tudo, inclusive integrações e pessoas',
  manager: 'registros, quadros e fases',
  seller: 'registros (negócios, clientes, agenda)',
};

export function PeoplePage() {
  const { user: me } = useCurrentSession();
  const users = useUsers();
  const [inviting, setInviting] = useState(false);
  const [deactivating, setDeactivating] = useState<Member | null>(null);
  const [link, setLink] = useState<{ name: string; url: string } | null>(null);
  const toast = useToast();
  const update = useUpdateUser({
    onSuccess: (u, { body }) => {
      setDeactivating(null);
      if (body.role) toast.success(`${u.name} agora é ${ROLE_LABELS[u.role].toLowerCase()}.`);
      else toast.success(u.active ? `${u.name} foi reativado.` : `${u.name} foi desativado e saiu de todas as sessões.`);
    },
    onError: (err) => toast.error(err.message),
  });
  const newLink = useNewPasswordLink({
    onSuccess: (answer, u) => setLink({ name: u.name, url: answer.set_password_url }),
    onError: (err) => toast.error(err.message),
  });
  useEffect(() => {
    document.title = 'Pessoas · Configurações · autosales';
  }, []);

  const inviteButton = (
    <Button variant="primary" icon={<UserPlus size={16} aria-hidden />} onClick={() => setInviting(true)}>
      Convidar pessoa
    </Button>
  );

  let body;
  if (users.isPending) body = <Loading />;
  else if (users.isError) body = <ErrorState error={users.error} onRetry={() => void users.refetch()} />;
  else if (users.data.length === 0)
    body = (
      <EmptyState icon={Users} title="Ninguém por aqui" action={inviteButton}>
        Convide vendedores e gerentes para usar o painel.
      </EmptyState>
    );
  else
    body = (
      <div className="table-wrap">
        <table className="table responsive">
          <thead>
            <tr>
              <th scope="col">Pessoa</th>
              <th scope="col">Papel</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="sr-only">Ações</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.data.map((u) => {
              const self = u.id === me.id;
              return (
                <tr key={u.id} data-testid="person-row">
                  <td className="primary-cell">
                    <div className="row" style={{ flexWrap: 'nowrap' }}>
                      <span className="avatar" aria-hidden>
                        {initials(u.name)}
                      </span>
                      <div style={{ minWidth: 0 }}>
                        <strong>{u.name}</strong>
                        {self ? <span className="muted small"> (você)</span> : null}
                        <div className="small muted truncate">{u.email}</div>
                      </div>
                    </div>
                  </td>
                  <td data-label="Papel">
                    {self ? (
                      ROLE_LABELS[u.role]
                    ) : (
                      <>
                        <label className="sr-only" htmlFor={`role-${u.id}`}>
                          Papel de {u.name}
                        </label>
                        <select
                          id={`role-${u.id}`}
                          className="select"
                          style={{ width: 'auto', height: 32 }}
                          value={u.role}
                          disabled={!u.active || update.isPending}
                          onChange={(e) => update.mutate({ id: u.id, body: { role: e.target.value as Role } })}
                        >
                          {ROLES.map((r) => (
                            <option key={r} value={r}>
                              {ROLE_LABELS[r]}
                            </option>
                          ))}
                        </select>
                      </>
                    )}
                  </td>
                  <td data-label="Status">
                    {!u.active ? (
                      <span className="badge">Desativado</span>
                    ) : u.has_password === false ? (
                      <span className="badge badge-warning">Convite pendente</span>
                    ) : (
                      <span className="badge badge-success">Ativo</span>
                    )}
                    {!u.active && u.deactivated_at ? (
                      <div className="small muted">desde {formatDate(u.deactivated_at)}</div>
                    ) : u.created_at ? (
                      <div className="small muted">desde {formatDate(u.created_at)}</div>
                    ) : null}
                  </td>
                  <td className="actions">
                    {!self && u.active && u.has_password === false ? (
                      <Button
                        size="sm"
                        variant="ghost"
                        loading={newLink.isPending && newLink.variables.id === u.id}
                        onClick={() => newLink.mutate(u)}
                        aria-label={`Gerar novo link de acesso para ${u.name}`}
                      >
                        Novo link
                      </Button>
                    ) : null}
                    {self ? null : u.active ? (
                      <Button size="sm" variant="danger-ghost" onClick={() => setDeactivating(u)} aria-label={`Desativar ${u.name}`}>
                        Desativar
                      </Button>
                    ) : (
                      <Button size="sm" onClick={() => update.mutate({ id: u.id, body: { active: true } })} aria-label={`Reativar ${u.name}`}>
                        Reativar
                      </Button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    );

  return (
    <div className="card">
      <div className="card-header">
        <div>
          <h2>Pessoas</h2>
          <p>Quem usa o painel e o que cada um pode fazer.</p>
        </div>
        {users.data && users.data.length > 0 ? inviteButton : null}
      </div>
      {body}
      <InviteDialog open={inviting} onClose={() => setInviting(false)} />
      <Dialog
        open={link !== null}
        onClose={() => setLink(null)}
        title="Novo link de acesso"
        description={`Envie este link para ${link?.name ?? ''}. Ele vale uma vez só; os links anteriores deixam de valer.`}
        footer={
          <Button variant="primary" onClick={() => setLink(null)}>
            Pronto
          </Button>
        }
      >
        {link ? <SecretBox value={new URL(link.url, window.location.origin).toString()} label="Link para definir a senha" /> : null}
      </Dialog>
      <Dialog
        open={deactivating !== null}
        onClose={() => setDeactivating(null)}
        title={`Desativar ${deactivating?.name ?? ''}?`}
        description="A pessoa sai de todas as sessões e não consegue mais entrar. Os registros dela continuam na loja, e dá para reativar depois."
        footer={
          <>
            <Button onClick={() => setDeactivating(null)}>Cancelar</Button>
            <Button variant="danger" loading={update.isPending} onClick={() => deactivating && update.mutate({ id: deactivating.id, body: { active: false } })}>
              Desativar
            </Button>
          </>
        }
      />
    </div>
  );
}

function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('seller');
  const [invited, setInvited] = useState<InvitedMember | null>(null);
  const invite = useInviteUser({ onSuccess: (u) => setInvited(u) });
  const close = () => {
    setName('');
    setEmail('');
    setRole('seller');
    setInvited(null);
    invite.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate({ name: name.trim(), email: email.trim(), role });
  };
  const err = invite.error;
  const general = formError(err, ['name', 'email', 'role']);

  if (invited)
    return (
      <Dialog
        open={open}
        onClose={close}
        title="Convite criado"
        description={`Envie este link para ${invited.name} (por WhatsApp ou e-mail). Com ele, a pessoa define a senha e entra no painel. O link vale uma vez só.`}
        footer={
          <Button variant="primary" onClick={close}>
            Pronto
          </Button>
        }
      >
        {invited.set_password_url ? (
          <SecretBox value={new URL(invited.set_password_url, window.location.origin).toString()} label="Link para definir a senha" />
        ) : (
          <Alert kind="info" icon={<Link2 size={16} aria-hidden />}>
            A pessoa foi adicionada.
          </Alert>
        )}
      </Dialog>
    );

  return (
    <Dialog open={open} onClose={close} title="Convidar pessoa" description="A pessoa recebe um link para definir a própria senha.">
      <form onSubmit={submit} noValidate>
        {general ? <Alert kind="danger">{general}</Alert> : null}
        <TextField label="Nome" required autoFocus value={name} onChange={(e) => setName(e.target.value)} error={fieldError(err, 'name')} autoComplete="off" />
        <TextField
          label="E-mail"
          type="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={fieldError(err, 'email')}
          autoComplete="off"
        />
        <SelectField label="Papel" value={role} onChange={(e) => setRole(e.target.value as Role)} error={fieldError(err, 'role')} hint={ROLE_HELP[role]}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </SelectField>
        <div className="form-actions">
          <Button onClick={close}>Cancelar</Button>
          <Button type="submit" variant="primary" loading={invite.isPending}>
            Convidar
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
