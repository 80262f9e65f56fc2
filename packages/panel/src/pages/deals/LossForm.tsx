import { ThumbsDown } from 'lucide-react';
import { useState } from 'react';
import { fieldError } from '../../api/client';
import { useSaveDeal } from '../../api/deals';
import { useLossReasons } from '../../api/loss-reasons';
import type { Deal } from '../../api/types';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { Alert } from '../../ui/States';
import { useToast } from '../../ui/Toasts';

const OTHER = '__outro__';

/** Marking a deal lost: one of the team's reasons (Settings -> Quadros) or "Outro" with free text; never empty. */
export function LossForm({ deal, onBack, onDone }: { deal: Deal; onBack: () => void; onDone: () => void }) {
  const reasons = useLossReasons();
  const [choice, setChoice] = useState('');
  const [other, setOther] = useState('');
  const [missing, setMissing] = useState<string>();
  const save = useSaveDeal();
  const toast = useToast();
  const reason = (choice === OTHER ? other : choice).trim();
  const submit = () => {
    if (!reason) {
      setMissing(choice === OTHER ? 'Escreva o motivo da perda' : 'Escolha o motivo da perda');
      return;
    }
    setMissing(undefined);
    save.mutate(
      { id: deal.id, body: { status: 'perdido', loss_reason: reason } },
      {
        onSuccess: () => {
          toast.success('Negócio marcado como perdido.');
          onDone();
        },
      },
    );
  };
  const serverError = fieldError(save.error, 'loss_reason');
  return (
    <form
      className="card card-body"
      aria-label="Marcar como perdido"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {save.error && !serverError ? <Alert kind="danger">{save.error.message}</Alert> : null}
      <SelectField
        label="Motivo da perda"
        value={choice}
        onChange={(e) => {
          setChoice(e.target.value);
          setMissing(undefined);
        }}
        error={choice === OTHER ? undefined : (missing ?? serverError)}
      >
        <option value="" disabled>
          {reasons.isPending ? 'Carregando…' : 'Escolha um motivo'}
        </option>
        {reasons.data?.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
        <option value={OTHER}>Outro</option>
      </SelectField>
      {choice === OTHER ? (
        <TextField
          label="Qual foi o motivo?"
          autoFocus
          maxLength={500}
          value={other}
          onChange={(e) => setOther(e.target.value)}
          error={missing ?? serverError}
        />
      ) : null}
      <div className="form-actions">
        <Button onClick={onBack}>Voltar</Button>
        <Button type="submit" variant="danger" icon={<ThumbsDown size={16} aria-hidden />} loading={save.isPending}>
          Marcar como perdido
        </Button>
      </div>
    </form>
  );
}
