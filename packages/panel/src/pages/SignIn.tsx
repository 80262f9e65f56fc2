import { LogIn } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { fieldError } from '../api/client';
import { useSession, useSignIn } from '../auth/session';
import { Brand } from '../ui/Brand';
import { Button } from '../ui/Button';
import { TextField } from '../ui/Field';
import { FullPageLoading } from '../ui/FullPage';
import { Alert } from '../ui/States';

/** Only paths inside the panel: `?voltar=https://elsewhere` must not become an open redirect. */
function safeBack(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/';
}

export function SignInPage() {
  const session = useSession();
  const signIn = useSignIn();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const back = safeBack(params.get('voltar'));
  const signedOut = (location.state as { signedOut?: boolean } | null)?.signedOut === true;

  useEffect(() => {
    document.title = 'Entrar · autosales';
  }, []);

  if (session.isPending) return <FullPageLoading />;
  if (session.data && !signIn.isPending) return <Navigate to={back} replace />;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    signIn.mutate({ email: email.trim(), password }, { onSuccess: () => void navigate(back, { replace: true }) });
  };
  const err = signIn.error;
  const emailErr = fieldError(err, 'email');
  const passwordErr = fieldError(err, 'password');
  const general = err && !emailErr && !passwordErr ? err.message : null;

  return (
    <div className="auth">
      <main className="card auth-card">
        <Brand to="/entrar" />
        <h1>Entrar no painel</h1>
        <p className="lead">Use o e-mail e a senha da sua conta na loja.</p>
        <form onSubmit={submit} noValidate={false} aria-describedby={general ? 'signin-error' : undefined}>
          <div className="stack">
            {signedOut && !err ? <Alert kind="success">Você saiu do painel.</Alert> : null}
            {general ? (
              <div id="signin-error">
                <Alert kind="danger">{general}</Alert>
              </div>
            ) : null}
            <div>
              <TextField
                label="E-mail"
                type="email"
                name="email"
                autoComplete="username"
                inputMode="email"
                required
                autoFocus
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                error={emailErr}
              />
              <TextField
                label="Senha"
                type="password"
                name="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                error={passwordErr}
              />
            </div>
            <Button type="submit" variant="primary" block loading={signIn.isPending} icon={<LogIn size={16} aria-hidden />}>
              Entrar
            </Button>
          </div>
        </form>
        <p className="auth-foot">Esqueceu a senha? Peça ao proprietário da loja um novo link de acesso.</p>
      </main>
    </div>
  );
}
