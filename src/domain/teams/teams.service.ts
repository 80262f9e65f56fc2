import type { DbExecutor } from '../../storage/executor.js';
import { notFound, validationError } from '../shared/errors.js';
import { canonicalId, newId } from '../shared/ids.js';
import { isoNow, type Clock } from '../shared/clock.js';
import { toApiTimestamp } from '../shared/time.js';
import type { TeamRow } from '../../storage/database.js';
import * as repo from './teams.repository.js';
import { PLANS, PREVIEW_AREAS, type CreateTeamInput, type Phase, type Plan, type PreviewArea, type TeamView, type UpdateTeamInput } from './teams.types.js';
import { DEFAULT_TIME_ZONE } from '../shared/time-zone.js';

/** The contract's default pipeline with its suggested win probabilities. */
export const DEFAULT_PHASES: Phase[] = [
  { name: 'lead', position: 1, probability: 10 },
  { name: 'qualificado', position: 2, probability: 25 },
  { name: 'proposta', position: 3, probability: 50 },
  { name: 'negociacao', position: 4, probability: 75 },
  { name: 'fechamento', position: 5, probability: 90 },
];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function createTeamsService(db: DbExecutor, { clock }: { clock: Clock }) {
  async function view(team: TeamRow): Promise<TeamView> {
    return {
      id: team.id,
      name: team.name,
      plan: team.plan,
      alert_email: team.alert_email,
      phases: await repo.listPhases(db, team.id),
      created_at: toApiTimestamp(team.created_at),
      time_zone: team.time_zone,
      preview: (await repo.listPreviews(db, team.id)) as PreviewArea[],
    };
  }

  return {
    async create(input: CreateTeamInput): Promise<TeamView> {
      const name = input.name.trim();
      if (!name) throw validationError('O nome do time é obrigatório');
      const plan = input.plan ?? 'starter';
      if (!(PLANS as readonly string[]).includes(plan)) throw validationError(`Plano inválido: use ${PLANS.join(', ')}`);
      if (input.alertEmail && !EMAIL.test(input.alertEmail)) throw validationError('E-mail de alerta inválido');
      const team = {
        id: newId(),
        name,
        plan: plan as Plan,
        alert_email: input.alertEmail ?? null,
        created_at: isoNow(clock),
        time_zone: DEFAULT_TIME_ZONE,
        lead_distribution: 'round_robin',
        lead_user_id: null,
        lead_response_minutes: 15,
        loss_reasons: null,
        // DECISIONS "Stores": a new Autoshopping team keeps one client book per store.
        client_book: plan === 'autoshopping' ? 'per_store' : 'shared',
        seller_visibility: 'all',
      } satisfies TeamRow;
      await repo.insertTeam(db, team, DEFAULT_PHASES);
      return view(team);
    },

    async list(): Promise<TeamView[]> {
      return Promise.all((await repo.listTeams(db)).map(view));
    },

    /** The oldest team named exactly `name`, or null (names are not unique). */
    async findByName(name: string): Promise<TeamView | null> {
      const team = await repo.findOldestTeamByName(db, name);
      return team ? view(team) : null;
    },

    /**
     * Turns preview areas on or off for a team (`autosales teams preview`); answers the team after it.
     * Unknown area names are refused with the accepted list.
     */
    async setPreview(id: string, change: { enable?: string[]; disable?: string[] }): Promise<TeamView> {
      const canonical = canonicalId(id);
      const team = canonical ? await repo.findTeam(db, canonical) : undefined;
      if (!team) throw notFound('Time não encontrado');
      const unknown = [...(change.enable ?? []), ...(change.disable ?? [])].filter((a) => !(PREVIEW_AREAS as readonly string[]).includes(a));
      if (unknown.length) throw validationError(`Área de preview inválida: ${unknown.join(', ')}. Use: ${PREVIEW_AREAS.join(', ')}`);
      await repo.enablePreviews(db, team.id, change.enable ?? [], isoNow(clock));
      await repo.disablePreviews(db, team.id, change.disable ?? []);
      return view(team);
    },

    /** Whether a preview area is on for a team (checked on every request to an announced path). */
    async previewEnabled(teamId: string, area: PreviewArea): Promise<boolean> {
      return (await repo.listPreviews(db, teamId)).includes(area);
    },

    /** Name and alert e-mail (the panel's Settings -> Team); the same checks as creation. */
    async update(id: string, input: UpdateTeamInput): Promise<TeamView> {
      const canonical = canonicalId(id);
      const team = canonical ? await repo.findTeam(db, canonical) : undefined;
      if (!team) throw notFound('Time não encontrado');
      const patch: { name?: string; alert_email?: string | null } = {};
      if (input.name !== undefined) {
        const name = input.name.trim();
        if (!name) throw validationError('O nome do time é obrigatório', 'name');
        patch.name = name;
      }
      if (input.alertEmail !== undefined) {
        const email = input.alertEmail?.trim() || null;
        if (email && !EMAIL.test(email)) throw validationError('E-mail de alerta inválido', 'alert_email');
        patch.alert_email = email;
      }
      return view((await repo.updateTeam(db, team.id, patch))!);
    },

    /** The team, or null for an unknown or malformed id. */
    async find(id: string): Promise<TeamView | null> {
      const canonical = canonicalId(id);
      const team = canonical ? await repo.findTeam(db, canonical) : undefined;
      return team ? view(team) : null;
    },
  };
}

export type TeamsService = ReturnType<typeof createTeamsService>;
