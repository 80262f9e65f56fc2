import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { fieldError, formError } from '../../api/client';
import { useSaveTeam, useTeam } from '../../api/team';
import type { TeamSettings } from '../../api/types';
import { permissions, useCurrentSession } from '../../auth/session';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { Alert, ErrorState, Loading } from '../../ui/States';
import { useToast } from '../../ui/Toasts';

/** Brazil's zones first (what a store picks), then every other zone the browser knows. */
const BRAZIL_ZONES: [string, string][] = [
  ['America/Sao_Paulo', 'Brasília (São Paulo, Rio, Minas, Sul, Nordeste)'],
  ['America/Manaus', 'Amazonas (Manaus)'],
  ['America/Cuiaba', 'Mato Grosso (Cuiabá)'],
  ['America/Campo_Grande', 'Mato Grosso do Sul (Campo Grande)'],
  ['America/Porto_Velho', 'Rondônia (Porto Velho)'],
  ['America/Boa_Vista', 'Roraima (Boa Vista)'],
  ['America/Rio_Branco', 'Acre (Rio Branco)'],
  ['America/Noronha', 'Fernando de Noronha'],
  ['America/Belem', 'Pará (Belém)'],
  ['America/Fortaleza', 'Ceará (Fortaleza)'],
  ['America/Recife', 'Pernambuco (Recife)'],
  ['America/Bahia', 'Bahia (Salvador)'],
  ['America/Maceio', 'Alagoas e Sergipe'],
  ['America/Araguaina', 'Tocantins (Palmas)'],
];

function otherZones(): string[] {
  const brazil = new Set(BRAZIL_ZONES.map(([z]) => z));
  try {
    return Intl.supportedValuesOf('timeZone').filter((z) => !brazil.has(z));
  } catch {
    return ['UTC'];
  }
}

export function TeamSettingsPage() {
  const { user } = useCurrentSession();
  const can = permissions(user.role);
  const team = useTeam();
  useEffect(() => {
    document.title = 'Equipe · Configurações · autosales';
  }, []);
  return (
    <div className="card">
      <div className="card-header">
        <div>
          <h2>Equipe</h2>
          <p>O nome da loja no painel, para onde vão os alertas e o fuso horário usado nas datas e na agenda.</p>
        </div>
      </div>
      {team.isPending ? (
        <Loading rows={3} />
      ) : team.isError ? (
        <ErrorState error={team.error} onRetry={() => void team.refetch()} />
      ) : (
        <TeamForm initial={team.data} readOnly={!can.editTeam} />
      )}
    </div>
  );
}

function TeamForm({ initial, readOnly }: { initial: TeamSettings; readOnly: boolean }) {
  const [name, setName] = useState(initial.name);
  const [alertEmail, setAlertEmail] = useState(initial.alert_email ?? '');
  const [timeZone, setTimeZone] = useState(initial.time_zone ?? 'America/Sao_Paulo');
  // The server answers time_zone once teams carry one; until then the panel neither shows nor sends it.
  const withZone = initial.time_zone !== undefined;
  const others = useMemo(() => otherZones(), []);
  const toast = useToast();
  const save = useSaveTeam({ onSuccess: () => toast.success('Dados da equipe salvos.') });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ name: name.trim(), alert_email: alertEmail.trim() || null, ...(withZone ? { time_zone: timeZone } : {}) });
  };
  const err = save.error;
  const general = formError(err, ['name', 'alert_email', 'time_zone']);
  const knownZone = BRAZIL_ZONES.some(([z]) => z === timeZone) || others.includes(timeZone);

  return (
    <form className="card-body" onSubmit={submit} noValidate style={{ maxWidth: 560 }}>
      {readOnly ? (
        <div style={{ marginBottom: 16 }}>
          <Alert kind="info">Só o proprietário da loja pode alterar estes dados.</Alert>
        </div>
      ) : null}
      {general ? (
        <div style={{ marginBottom: 16 }}>
          <Alert kind="danger">{general}</Alert>
        </div>
      ) : null}
      <TextField
        label="Nome da loja"
        required
        maxLength={200}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={fieldError(err, 'name')}
        disabled={readOnly}
      />
      <TextField
        label="E-mail de alertas"
        type="email"
        placeholder="alertas@sualoja.com.br"
        hint="Recebe os avisos do sistema, como um webhook que parou de responder. Deixe vazio para não receber."
        value={alertEmail}
        onChange={(e) => setAlertEmail(e.target.value)}
        error={fieldError(err, 'alert_email')}
        disabled={readOnly}
      />
      {withZone ? (
        <SelectField
          label="Fuso horário"
          value={timeZone}
          onChange={(e) => setTimeZone(e.target.value)}
          error={fieldError(err, 'time_zone')}
          disabled={readOnly}
          hint="Usado para os horários da agenda e os vencimentos."
        >
          <optgroup label="Brasil">
            {BRAZIL_ZONES.map(([z, label]) => (
              <option key={z} value={z}>
                {label}
              </option>
            ))}
          </optgroup>
          <optgroup label="Outros">
            {knownZone ? null : <option value={timeZone}>{timeZone}</option>}
            {others.map((z) => (
              <option key={z} value={z}>
                {z.replaceAll('_', ' ')}
              </option>
            ))}
          </optgroup>
        </SelectField>
      ) : null}
      {readOnly ? null : (
        <div className="form-actions" style={{ justifyContent: 'flex-start' }}>
          <Button type="submit" variant="primary" loading={save.isPending}>
            Salvar
          </Button>
        </div>
      )}
    </form>
  );
}
