import { useState, type FormEvent } from 'react';
import { fieldError, formError } from '../api/client';
import { useChangePassword } from '../api/password';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { TextField } from '../ui/Field';
import { Alert } from '../ui/States';
import { useToast } from '../ui/Toasts';

export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const toast = useToast();
  const change = useChangePassword();

  const close = () => {
    setCurrent('');
    setNext('');
    change.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    change.mutate(
      { current_password: current, new_password: next },
      {
        onSuccess: () => {
          toast.success('Senha alterada. As outras sessões foram encerradas.');
          close();
        },
      },
    );
  };
  const err = change.error;
  const general = formError(err, ['current_password', 'new_password']);

  return (
    <Dialog open={open} onClose={close} title="Alterar senha" description="Ao trocar a senha, as sessões abertas em outros aparelhos são encerradas.">
      <form onSubmit={submit} id="change-password">
        {general ? <Alert kind="danger">{general}</Alert> : null}
        <TextField
          label="Senha atual"
          type="password"
          autoComplete="current-password"
          required
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          error={fieldError(err, 'current_password')}
        />
        <TextField
          label="Nova senha"
          type="password"
          autoComplete="new-password"
          required
          minLength={10}
          hint="Pelo menos 10 caracteres."
          value={next}
          onChange={(e) => setNext(e.target.value)}
          error={fieldError(err, 'new_password')}
        />
        <div className="form-actions">
          <Button onClick={close}>Cancelar</Button>
          <Button type="submit" variant="primary" loading={change.isPending}>
            Alterar senha
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
