import { Link2Off } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, fieldError } from '../api/client';
import { usePasswordLink, useUsePasswordLink } from '../api/password';
import { useAdoptSession } from '../auth/session';
import { Brand } from '../ui/Brand';
import { Button } from '../ui/Button';
import { TextField } from '../ui/Field';
import { Alert, EmptyState, ErrorState, Loading } from '../ui/States';

export function SetPasswordPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const adopt = useAdoptSession();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const link = usePasswordLink(token);
  const save = useUsePasswordLink(token);

  useEffect(() => {
    document.title = 'Definir senha · autosales';
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (password !== confirm) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    save.mutate(password, {
      onSuccess: (s) => {
        adopt(s, (key) => key[0] === 'password-links');
        void navigate('/', { replace: true });
      },
    });
  };

  let body;
  if (link.isPending) body = <Loading rows={3} />;
  else if (link.isError && link.error instanceof ApiError && link.error.status === 404)
    body = (
      <EmptyState icon={Link2Off} title="Link inválido ou expirado">
        Este link de acesso já foi usado ou expirou. Peça ao proprietário da loja um novo convite. <Link to="/entrar">Ir para a página de entrada</Link>
      </EmptyState>
    );
  else if (link.isError) body = <ErrorState error={link.error} onRetry={() => void link.refetch()} />;
  else {
    const err = save.error;
    const pwErr = fieldError(err, 'password');
    body = (
      <>
        <h1>Defina sua senha</h1>
        <p className="lead">
          Olá, {link.data.name}. Crie a senha da conta <strong>{link.data.email}</strong>.
        </p>
        <form onSubmit={submit}>
          <div className="stack">
            {err && !pwErr ? <Alert kind="danger">{err.message}</Alert> : null}
            <div>
              <input type="email" autoComplete="username" value={link.data.email} readOnly hidden />
              <TextField
                label="Nova senha"
                type="password"
                autoComplete="new-password"
                required
                minLength={10}
                autoFocus
                hint="Pelo menos 10 caracteres. Uma frase fácil de lembrar funciona bem."
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                error={pwErr}
              />
              <TextField
                label="Repita a senha"
                type="password"
                autoComplete="new-password"
                required
                value={confirm}
                onChange={(e) => setConfirm(e.target.value)}
                error={mismatch ? 'As duas senhas não são iguais.' : undefined}
              />
            </div>
            <Button type="submit" variant="primary" block loading={save.isPending}>
              Salvar senha e entrar
            </Button>
          </div>
        </form>
      </>
    );
  }

  return (
    <div className="auth">
      <main className="card auth-card">
        <Brand to="/entrar" />
        {body}
      </main>
    </div>
  );
}
