import type { DbExecutor, Trx } from '../../storage/executor.js';
import { notFound, validationError } from '../shared/errors.js';
import { canonicalId } from '../shared/ids.js';
import * as repo from './leads.repository.js';
import {
  DEFAULT_RESPONSE_MINUTES,
  LEAD_DISTRIBUTIONS,
  MAX_RESPONSE_MINUTES,
  type LeadDistribution,
  type LeadSettings,
  type LeadSettingsInput,
} from './leads.types.js';

export const distributionMessages = {
  modeInvalid: `Distribuição inválida: use ${LEAD_DISTRIBUTIONS.join(', ')}`,
  fixedNeedsUser: "A distribuição 'fixed' precisa de um usuário ativo do time",
  minutesInvalid: `A meta de resposta deve ser um número inteiro de 1 a ${MAX_RESPONSE_MINUTES} minutos`,
  teamNotFound: 'Time não encontrado',
} as const;

type SettingsRow = Awaited<ReturnType<typeof repo.findLeadSettings>>;

/** The round-robin's pool: a store's people, or '' for the team's leads without a store. */
const poolOf = (storeId: string | null): string => storeId ?? '';

/**
 * The responsible of a new lead's deal (DECISIONS.md, Leads): `none` nobody, `fixed` its user while
 * active, `round_robin` the next active user who takes leads after the pool's last one (by id, wrapping).
 * The pool's cursor is locked first, so concurrent leads take consecutive turns: ten leads among five
 * sellers give two each. Nobody to take it: unassigned.
 */
export async function pickResponsible(trx: Trx, teamId: string, settings: SettingsRow, storeId: string | null): Promise<string | null> {
  const mode = settings?.lead_distribution ?? 'round_robin';
  if (mode === 'none') return null;
  if (mode === 'fixed') {
    const userId = settings?.lead_user_id ?? null;
    return userId && (await repo.findActiveUser(trx, teamId, userId)) ? userId : null;
  }
  const pool = poolOf(storeId);
  const last = await repo.takeTurn(trx, teamId, pool);
  const takers = (await repo.listLeadTakers(trx, teamId)).map((u) => u.id);
  if (takers.length === 0) return null;
  const next = (last === null ? undefined : takers.find((id) => id > last)) ?? takers[0]!;
  await repo.setTurnUser(trx, teamId, pool, next);
  return next;
}

export function toLeadSettings(row: NonNullable<SettingsRow>): LeadSettings {
  return { distribution: row.lead_distribution, user_id: row.lead_user_id, response_minutes: row.lead_response_minutes ?? DEFAULT_RESPONSE_MINUTES };
}

/** A team's lead settings. */
export async function readLeadSettings(db: DbExecutor, teamId: string): Promise<LeadSettings> {
  const id = canonicalId(teamId);
  const row = id ? await repo.findLeadSettings(db, id) : undefined;
  if (!row) throw notFound(distributionMessages.teamNotFound);
  return toLeadSettings(row);
}

/** Changes any of the settings; `fixed` needs an active user of the team (the one sent, or the one kept). */
export async function writeLeadSettings(db: DbExecutor, teamId: string, input: LeadSettingsInput): Promise<LeadSettings> {
  const current = await readLeadSettings(db, teamId);
  const next: LeadSettings = { ...current };
  if (input.distribution !== undefined) {
    if (!(LEAD_DISTRIBUTIONS as readonly string[]).includes(input.distribution)) {
      throw validationError(distributionMessages.modeInvalid, 'distribution', { allowed: [...LEAD_DISTRIBUTIONS] });
    }
    next.distribution = input.distribution as LeadDistribution;
  }
  if (input.user_id !== undefined) next.user_id = input.user_id === null || input.user_id === '' ? null : (canonicalId(input.user_id) ?? input.user_id);
  if (input.response_minutes !== undefined) {
    const m = input.response_minutes;
    if (!Number.isInteger(m) || m < 1 || m > MAX_RESPONSE_MINUTES) throw validationError(distributionMessages.minutesInvalid, 'response_minutes');
    next.response_minutes = m;
  }
  if (next.user_id !== null && !(await repo.findActiveUser(db, canonicalId(teamId)!, next.user_id))) {
    throw validationError(distributionMessages.fixedNeedsUser, 'user_id');
  }
  if (next.distribution === 'fixed' && next.user_id === null) throw validationError(distributionMessages.fixedNeedsUser, 'user_id');
  await repo.updateLeadSettings(db, canonicalId(teamId)!, {
    lead_distribution: next.distribution,
    lead_user_id: next.user_id,
    lead_response_minutes: next.response_minutes,
  });
  return next;
}
