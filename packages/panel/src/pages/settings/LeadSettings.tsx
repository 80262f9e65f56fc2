import { useEffect, useState, type FormEvent } from 'react';
import { fieldError } from '../../api/client';
import { useLeadSettings, useSaveLeadSettings, useSetTakesLeads } from '../../api/leads';
import type { LeadSettings, Member } from '../../api/types';
import { useUsers } from '../../api/users';
import { ROLE_LABELS } from '../../auth/session';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { Alert, ErrorState, Loading } from '../../ui/States';
import { useToast } from '../../ui/Toasts';

type Mode = LeadSettings['distribution'];

const MODES: Array<{ value: Mode; label: string; help: string }> = [
  { value: 'round_robin', label: 'Rodízio', help: 'Cada lead vai para a próxima pessoa da vez entre as que recebem leads.' },
  { value: 'fixed', label: 'Uma pessoa', help: 'Todos os leads vão para a mesma pessoa.' },
  { value: 'none', label: 'Ninguém', help: 'Os leads chegam sem responsável; um gerente distribui.' },
];

/** Settings -> Leads: how leads find their responsible, the response target and who takes leads. */
export function LeadSettingsPage() {
  const settings = useLeadSettings();
  const users = useUsers();
  useEffect(() => {
    document.title = 'Leads · Configurações · autosales';
  }, []);
  return (
    <>
      <div className="card" data-testid="lead-settings">
        <div className="card-header">
          <div>
            <h2>Distribuição de leads</h2>
            <p>Quem recebe os leads que chegam pela API (site, portais, WhatsApp) e em quanto tempo devem ser respondidos.</p>
          </div>
        </div>
        {settings.isPending || users.isPending ? (
          <Loading rows={3} />
        ) : settings.isError ? (
          <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />
        ) : users.isError ? (
          <ErrorState error={users.error} onRetry={() => void users.refetch()} />
        ) : (
          <LeadSettingsForm initial={settings.data} people={users.data.filter((u) => u.active)} />
        )}
      </div>
      {users.data ? <LeadTakers people={users.data.filter((u) => u.active)} /> : null}
    </>
  );
}

function LeadSettingsForm({ initial, people }: { initial: LeadSettings; people: Member[] }) {
  const [mode, setMode] = useState<Mode>(initial.distribution);
  const [userId, setUserId] = useState(initial.user_id ?? '');
  const [minutes, setMinutes] = useState(String(initial.response_minutes));
  const toast = useToast();
  const save = useSaveLeadSettings({ onSuccess: () => toast.success('Distribuição de leads salva.') });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ distribution: mode, user_id: mode === 'fixed' ? userId || null : null, response_minutes: Number(minutes) });
  };
  const err = save.error;
  const general = err && !['distribution', 'user_id', 'response_minutes'].some((f) => fieldError(err, f)) ? err.message : null;
  return (
    <form className="card-body" onSubmit={submit} noValidate style={{ maxWidth: 620 }}>
      {general ? (
        <div style={{ marginBottom: 16 }}>
          <Alert kind="danger">{general}</Alert>
        </div>
      ) : null}
      <fieldset>
        <legend className="label">Distribuição</legend>
        <div className="radio-cards">
          {MODES.map((m) => (
            <label className="check radio-card" key={m.value}>
              <input type="radio" name="distribution" value={m.value} checked={mode === m.value} onChange={() => setMode(m.value)} />
              <span>
                {m.label}
                <small>{m.help}</small>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {mode === 'fixed' ? (
        <SelectField label="Pessoa que recebe os leads" value={userId} onChange={(e) => setUserId(e.target.value)} error={fieldError(err, 'user_id')}>
          <option value="">Escolha uma pessoa…</option>
          {people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name} ({ROLE_LABELS[p.role]})
            </option>
          ))}
        </SelectField>
      ) : null}
      <TextField
        label="Meta de resposta (minutos)"
        type="number"
        min={1}
        max={1440}
        step={1}
        inputMode="numeric"
        hint="A ligação “Responder lead” vence nesse prazo; depois dele o lead aparece como atrasado no quadro."
        value={minutes}
        onChange={(e) => setMinutes(e.target.value)}
        error={fieldError(err, 'response_minutes')}
        style={{ maxWidth: 160 }}
      />
      <div className="form-actions" style={{ justifyContent: 'flex-start' }}>
        <Button type="submit" variant="primary" loading={save.isPending}>
          Salvar
        </Button>
      </div>
    </form>
  );
}

/** Who is in the round-robin: on by default for sellers, off for managers and owners. */
function LeadTakers({ people }: { people: Member[] }) {
  const toast = useToast();
  const set = useSetTakesLeads({
    onSuccess: (u) => toast.success(u.takes_leads ? `${u.name} passa a receber leads.` : `${u.name} deixa de receber leads.`),
    onError: (e) => toast.error(e.message),
  });
  return (
    <div className="card" style={{ marginTop: 16 }} data-testid="lead-takers">
      <div className="card-header">
        <div>
          <h2>Quem recebe leads</h2>
          <p>As pessoas ativas marcadas entram no rodízio. Pessoas desativadas nunca recebem.</p>
        </div>
      </div>
      <div className="card-body event-groups" style={{ marginTop: 0 }}>
        {people.map((p) => (
          <label className="check" key={p.id}>
            <input
              type="checkbox"
              checked={p.takes_leads}
              disabled={set.isPending && set.variables.id === p.id}
              onChange={(e) => set.mutate({ id: p.id, takes_leads: e.target.checked })}
            />
            <span>
              {p.name}
              <small>{ROLE_LABELS[p.role]}</small>
            </span>
          </label>
        ))}
      </div>
    </div>
  );
}
