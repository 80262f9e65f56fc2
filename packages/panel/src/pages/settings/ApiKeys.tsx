import { KeyRound, Plus, TriangleAlert } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { fieldError } from '../../api/client';
import { useApiKeys, useCreateApiKey, useRevokeApiKey, useScopes } from '../../api/keys';
import type { ApiKey, CreatedApiKey } from '../../api/types';
import { Button } from '../../ui/Button';
import { SecretBox } from '../../ui/CopyButton';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/Field';
import { formatDate, formatRelative } from '../../ui/format';
import { Alert, EmptyState, ErrorState, Loading } from '../../ui/States';
import { useToast } from '../../ui/Toasts';

export function ApiKeysPage() {
  const keys = useApiKeys();
  const scopes = useScopes();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const toast = useToast();
  const revoke = useRevokeApiKey({
    onSuccess: () => {
      setRevoking(null);
      toast.success('Chave revogada. Ela deixa de funcionar imediatamente.');
    },
  });
  useEffect(() => {
    document.title = 'Chaves de API · Configurações · autosales';
  }, []);

  const scopeLabel = new Map((scopes.data ?? []).map((s) => [s.scope, s.label]));
  const newButton = (
    <Button variant="primary" icon={<Plus size={16} aria-hidden />} onClick={() => setCreating(true)}>
      Nova chave
    </Button>
  );
  // Revoked keys stay listed (what was used, and when) but after the live ones.
  const list = [...(keys.data ?? [])].sort((a, b) => Number(a.revoked_at !== null) - Number(b.revoked_at !== null));

  let body;
  if (keys.isPending) body = <Loading />;
  else if (keys.isError) body = <ErrorState error={keys.error} onRetry={() => void keys.refetch()} />;
  else if (list.length === 0)
    body = (
      <EmptyState icon={KeyRound} title="Nenhuma chave de API" action={newButton}>
        Uma chave de API deixa outro sistema (site, ERP, integração) ler e gravar dados da loja pela API, só com os escopos que você escolher.
      </EmptyState>
    );
  else
    body = (
      <div className="table-wrap">
        <table className="table responsive">
          <thead>
            <tr>
              <th scope="col">Nome</th>
              <th scope="col">Escopos</th>
              <th scope="col">Criada em</th>
              <th scope="col">Último uso</th>
              <th scope="col">
                <span className="sr-only">Ações</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((k) => (
              <tr key={k.id} data-testid="key-row">
                <td className="primary-cell">
                  <div className="row">
                    <strong>{k.name ?? 'Sem nome'}</strong>
                    {k.revoked_at ? <span className="badge badge-danger">Revogada</span> : null}
                  </div>
                  <div className="small muted mono">{k.prefix}…</div>
                </td>
                <td data-label="Escopos" style={{ maxWidth: 320 }}>
                  <span>
                    {k.scopes.map((s) => (
                      <span className="chip" key={s} title={s}>
                        {scopeLabel.get(s) ?? s}
                      </span>
                    ))}
                  </span>
                </td>
                <td data-label="Criada em" className="nowrap">
                  {formatDate(k.created_at)}
                </td>
                <td data-label="Último uso" className="nowrap">
                  {k.last_used_at ? formatRelative(k.last_used_at) : <span className="muted">Nunca usada</span>}
                </td>
                <td className="actions">
                  {k.revoked_at ? (
                    <span className="small muted">em {formatDate(k.revoked_at)}</span>
                  ) : (
                    <Button size="sm" variant="danger-ghost" onClick={() => setRevoking(k)} aria-label={`Revogar a chave ${k.name ?? k.prefix}`}>
                      Revogar
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );

  return (
    <div className="card">
      <div className="card-header">
        <div>
          <h2>Chaves de API</h2>
          <p>Cada integração com a sua chave e só os escopos de que precisa. A chave aparece uma única vez, na criação.</p>
        </div>
        {list.length > 0 ? newButton : null}
      </div>
      {body}
      <CreateKeyDialog open={creating} onClose={() => setCreating(false)} scopes={scopes} />
      <Dialog
        open={revoking !== null}
        onClose={() => {
          setRevoking(null);
          revoke.reset();
        }}
        title={`Revogar a chave "${revoking?.name ?? revoking?.prefix ?? ''}"?`}
        description="Os sistemas que usam esta chave passam a receber 401 imediatamente. Não dá para desfazer."
        footer={
          <>
            <Button onClick={() => setRevoking(null)}>Cancelar</Button>
            <Button variant="danger" loading={revoke.isPending} onClick={() => revoking && revoke.mutate(revoking.id)}>
              Revogar chave
            </Button>
          </>
        }
      >
        {revoke.error ? <Alert kind="danger">{revoke.error.message}</Alert> : null}
      </Dialog>
    </div>
  );
}

function CreateKeyDialog({ open, onClose, scopes }: { open: boolean; onClose: () => void; scopes: ReturnType<typeof useScopes> }) {
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [scopeErr, setScopeErr] = useState<string | null>(null);
  const create = useCreateApiKey({ onSuccess: (k) => setCreated(k) });
  const close = () => {
    setName('');
    setChosen(new Set());
    setCreated(null);
    setScopeErr(null);
    create.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (chosen.size === 0) {
      setScopeErr('Escolha pelo menos um escopo.');
      return;
    }
    setScopeErr(null);
    create.mutate({ name: name.trim(), scopes: [...chosen] });
  };
  const err = create.error;
  const scopesErr = scopeErr ?? fieldError(err, 'scopes');

  if (created)
    return (
      <Dialog
        open={open}
        onClose={close}
        title="Chave criada"
        description="Copie a chave agora: por segurança, ela não aparece de novo. Se perder, crie outra e revogue esta."
        footer={
          <Button variant="primary" onClick={close}>
            Já copiei
          </Button>
        }
      >
        <div className="stack">
          <SecretBox value={created.key} label="Chave de API" />
          <Alert kind="warning" icon={<TriangleAlert size={16} aria-hidden />}>
            Guarde a chave em um lugar seguro, como o cofre de senhas da loja. Quem tiver a chave age em nome da loja nos escopos escolhidos.
          </Alert>
        </div>
      </Dialog>
    );

  return (
    <Dialog open={open} onClose={close} title="Nova chave de API" description="Dê um nome que diga onde a chave é usada, e só os escopos necessários." wide>
      <form onSubmit={submit} noValidate>
        {err && !fieldError(err, 'name') && !fieldError(err, 'scopes') ? <Alert kind="danger">{err.message}</Alert> : null}
        <TextField
          label="Nome"
          required
          maxLength={100}
          placeholder="Ex.: Site da loja"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={fieldError(err, 'name')}
          autoFocus
        />
        <fieldset style={{ marginTop: 16 }} aria-describedby={scopesErr ? 'scopes-error' : undefined}>
          <legend className="label">Escopos</legend>
          {scopes.isPending ? (
            <Loading rows={3} />
          ) : scopes.isError ? (
            <ErrorState error={scopes.error} onRetry={() => void scopes.refetch()} />
          ) : (
            <div className="event-groups" style={{ marginTop: 0 }}>
              {scopes.data.map((s) => (
                <label className="check" key={s.scope}>
                  <input
                    type="checkbox"
                    checked={chosen.has(s.scope)}
                    onChange={(e) => {
                      const next = new Set(chosen);
                      if (e.target.checked) next.add(s.scope);
                      else next.delete(s.scope);
                      setChosen(next);
                    }}
                  />
                  <span>
                    {s.label}
                    <small className="mono">{s.scope}</small>
                  </span>
                </label>
              ))}
            </div>
          )}
          {scopesErr ? (
            <p className="field-error" id="scopes-error" role="alert" style={{ marginTop: 8 }}>
              {scopesErr}
            </p>
          ) : null}
        </fieldset>
        <div className="form-actions">
          <Button onClick={close}>Cancelar</Button>
          <Button type="submit" variant="primary" loading={create.isPending}>
            Criar chave
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
