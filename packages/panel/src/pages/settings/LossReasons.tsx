import { useId, useState } from 'react';
import { fieldError } from '../../api/client';
import { useLossReasons, useSaveLossReasons } from '../../api/loss-reasons';
import { Button } from '../../ui/Button';
import { TextArea } from '../../ui/Field';
import { ErrorState, Loading } from '../../ui/States';
import { useToast } from '../../ui/Toasts';

const linesOf = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** Settings -> Quadros: the reasons offered when a deal is lost, one per line; "Outro" (free text) is always offered after them. */
export function LossReasonsEditor() {
  const headingId = useId();
  const reasons = useLossReasons();
  const save = useSaveLossReasons();
  const toast = useToast();
  // What the person typed; null while they have not touched the saved list.
  const [draft, setDraft] = useState<string | null>(null);
  const saved = reasons.data?.join('\n') ?? '';
  const text = draft ?? saved;
  const setText = setDraft;
  const dirty = linesOf(text).join('\n') !== saved;
  return (
    <section className="card" aria-labelledby={headingId} data-testid="loss-reasons">
      <div className="card-header">
        <div>
          <h2 id={headingId}>Motivos de perda</h2>
          <p>O que o painel oferece ao marcar um negócio como perdido. “Outro”, com o motivo escrito, vem sempre depois deles.</p>
        </div>
      </div>
      {reasons.isPending ? (
        <Loading rows={3} />
      ) : reasons.isError ? (
        <ErrorState error={reasons.error} onRetry={() => void reasons.refetch()} />
      ) : (
        <form
          className="card-body"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate(linesOf(text), {
              onSuccess: () => {
                setDraft(null);
                toast.success('Motivos de perda salvos.');
              },
            });
          }}
        >
          <TextArea
            label="Motivos (um por linha)"
            rows={Math.min(12, Math.max(4, linesOf(text).length + 1))}
            value={text}
            onChange={(e) => setText(e.target.value)}
            error={fieldError(save.error, 'reasons') ?? save.error?.message}
          />
          <div className="form-actions">
            <Button
              disabled={!dirty || save.isPending}
              onClick={() => {
                setDraft(null);
                save.reset();
              }}
            >
              Descartar
            </Button>
            <Button type="submit" variant="primary" loading={save.isPending} disabled={!dirty}>
              Salvar motivos
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
