import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { ApiKeysService } from '../../domain/teams/api-keys.service.js';
import { financialMessages, type FinancialService } from '../../domain/financial/financial.service.js';
import { isTimeZone } from '../../domain/shared/time-zone.js';
import { validationError } from '../../domain/shared/errors.js';
import type { ApiKeyView } from '../../domain/teams/api-keys.types.js';
import { notFound } from '../../domain/shared/errors.js';
import type { TeamsService } from '../../domain/teams/teams.service.js';
import type { TeamView } from '../../domain/teams/teams.types.js';
import { userMessages, type UsersService } from '../../domain/users/users.service.js';
import type { PasswordLink } from '../../domain/users/users.types.js';
import { panelMessages, panelOf } from './panel-auth.js';
import { eventTypeItems, scopeItems } from './labels.js';
import {
  ApiKey,
  ApiKeyCreated,
  EventTypeItem,
  failure,
  IdParams,
  KeyCreateBody,
  List,
  NoContent,
  PasswordLinkAnswer,
  ScopeItem,
  Success,
  Team,
  TeamBody,
  User,
  UserCreateBody,
  UserUpdateBody,
  UserWithLink,
} from './panel.schemas.js';

export interface SettingsDeps {
  /** The time zone goes through the financial service: it also moves the overdue time of pending records. */
  financial: Pick<FinancialService, 'setTeamTimeZone'>;
  teams: TeamsService;
  users: UsersService;
  keys: ApiKeysService;
}

const unauthorized = failure('No session, or it expired.', ['UNAUTHORIZED', panelMessages.unauthorized]);
const forbidden = failure(
  'The role of the signed-in user may not do this, or the CSRF token is missing or wrong.',
  ['FORBIDDEN', panelMessages.forbidden],
  ['CSRF_INVALID', panelMessages.csrf],
);
const guarded = { 401: unauthorized, 403: forbidden };
const invalid = (...examples: Array<[string, string]>) => failure('Invalid body (first problem found).', ...examples);

/** `https://host` of the request (honours X-Forwarded-* behind TRUST_PROXY): where the panel is, for links. */
export const originOf = (request: FastifyRequest): string => `${request.protocol}://${request.host}`;
const linkUrl = (request: FastifyRequest, link: PasswordLink) => ({
  set_password_url: `${originOf(request)}/definir-senha/${link.token}`,
  set_password_expires_at: link.expires_at,
});

const teamAnswer = (team: TeamView) => ({
  id: team.id,
  name: team.name,
  plan: team.plan,
  alert_email: team.alert_email,
  time_zone: team.time_zone,
  created_at: team.created_at,
});

const keyAnswer = <T extends ApiKeyView>({ team_id: _team, ...key }: T): Omit<T, 'team_id'> => key;

/** Settings -> Team, People, API keys, and the lists their forms use (scopes, event kinds). */
export function settingsRoutes({ teams, users, keys, financial }: SettingsDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/team',
      {
        config: { panel: { role: 'seller' } },
        schema: { tags: ['Equipe'], operationId: 'getTeam', summary: 'The team', response: { 200: Success(Team), ...guarded } },
      },
      async (request) => {
        const team = await teams.find(panelOf(request).team.id);
        if (!team) throw notFound(userMessages.teamNotFound);
        return { success: true as const, data: teamAnswer(team) };
      },
    );

    app.put(
      '/team',
      {
        config: { panel: { role: 'owner' } },
        schema: {
          tags: ['Equipe'],
          operationId: 'updateTeam',
          summary: 'Change the team name, alert e-mail or time zone (owner)',
          description: 'The time zone is the one `autosales teams` and the financial records use: pending records move their overdue time with it.',
          body: TeamBody,
          response: {
            200: Success(Team),
            400: invalid(
              ['VALIDATION_ERROR', 'O nome do time é obrigatório'],
              ['VALIDATION_ERROR', 'E-mail de alerta inválido'],
              ['VALIDATION_ERROR', financialMessages.timeZoneInvalid('Marte/Olympus')],
            ),
            ...guarded,
          },
        },
      },
      async (request) => {
        const { name, alert_email, time_zone } = request.body;
        const teamId = panelOf(request).team.id;
        // Every field is checked before anything is written.
        if (time_zone !== undefined && !isTimeZone(time_zone)) throw validationError(financialMessages.timeZoneInvalid(time_zone), 'time_zone');
        let team = await teams.update(teamId, { name, alertEmail: alert_email });
        if (time_zone !== undefined && time_zone !== team.time_zone) {
          await financial.setTeamTimeZone(teamId, time_zone);
          team = (await teams.find(teamId))!;
        }
        return { success: true as const, data: teamAnswer(team) };
      },
    );

    app.get(
      '/users',
      {
        config: { panel: { role: 'seller' } },
        schema: { tags: ['Pessoas'], operationId: 'listUsers', summary: "The team's people", response: { 200: List(User), ...guarded } },
      },
      async (request) => ({ success: true as const, data: await users.list(panelOf(request).team.id) }),
    );

    app.post(
      '/users',
      {
        config: { panel: { role: 'owner' } },
        schema: {
          tags: ['Pessoas'],
          operationId: 'inviteUser',
          summary: 'Invite a person (owner): answers a one-time link to choose a password',
          body: UserCreateBody,
          response: {
            201: Success(UserWithLink),
            400: invalid(['VALIDATION_ERROR', userMessages.emailInvalid], ['VALIDATION_ERROR', userMessages.nameRequired]),
            422: failure('E-mail already used.', ['DUPLICATE_ENTRY', userMessages.emailTaken]),
            ...guarded,
          },
        },
      },
      async (request, reply) => {
        const { user, link } = await users.create({ teamId: panelOf(request).team.id, ...request.body });
        return reply.status(201).send({ success: true as const, data: { ...user, ...linkUrl(request, link!) } });
      },
    );

    app.put(
      '/users/:id',
      {
        config: { panel: { role: 'owner' } },
        schema: {
          tags: ['Pessoas'],
          operationId: 'updateUser',
          summary: 'Change name or role, deactivate or reactivate a person (owner)',
          description: 'Deactivating ends their sessions at once. The team always keeps an active owner.',
          params: IdParams,
          body: UserUpdateBody,
          response: {
            200: Success(User),
            400: invalid(['VALIDATION_ERROR', userMessages.nameRequired]),
            404: failure('Not a person of this team.', ['NOT_FOUND', userMessages.userNotFound]),
            422: failure('The last active owner cannot stop being one.', ['VALIDATION_ERROR', userMessages.lastOwner]),
            ...guarded,
          },
        },
      },
      async (request) => ({ success: true as const, data: await users.update(panelOf(request).team.id, request.params.id, request.body) }),
    );

    app.post(
      '/users/:id/password-link',
      {
        config: { panel: { role: 'owner' } },
        schema: {
          tags: ['Pessoas'],
          operationId: 'newPasswordLink',
          summary: 'A new one-time password link for a person (owner); earlier links stop working',
          params: IdParams,
          response: { 200: Success(PasswordLinkAnswer), 404: failure('Not a person of this team.', ['NOT_FOUND', userMessages.userNotFound]), ...guarded },
        },
      },
      async (request) => ({ success: true as const, data: linkUrl(request, await users.passwordLink(panelOf(request).team.id, request.params.id)) }),
    );

    app.get(
      '/keys',
      {
        config: { panel: { role: 'owner' } },
        schema: {
          tags: ['Chaves de API'],
          operationId: 'listKeys',
          summary: "The team's API keys (owner), revoked ones included",
          response: { 200: List(ApiKey), ...guarded },
        },
      },
      async (request) => ({ success: true as const, data: (await keys.list(panelOf(request).team.id)).map(keyAnswer) }),
    );

    app.post(
      '/keys',
      {
        config: { panel: { role: 'owner' } },
        schema: {
          tags: ['Chaves de API'],
          operationId: 'createKey',
          summary: 'Create an API key (owner): the key is in this answer only',
          body: KeyCreateBody,
          response: { 201: Success(ApiKeyCreated), 400: invalid(['VALIDATION_ERROR', 'Escopo inválido: x. Use: deals:read, …']), ...guarded },
        },
      },
      async (request, reply) => {
        const key = await keys.create({ teamId: panelOf(request).team.id, name: request.body.name, scopes: request.body.scopes });
        reply.header('cache-control', 'no-store');
        return reply.status(201).send({ success: true as const, data: keyAnswer(key) });
      },
    );

    app.delete(
      '/keys/:id',
      {
        config: { panel: { role: 'owner' } },
        schema: {
          tags: ['Chaves de API'],
          operationId: 'revokeKey',
          summary: 'Revoke an API key (owner): it stops working at once',
          params: IdParams,
          response: { 204: NoContent, 404: failure('Not a key of this team.', ['NOT_FOUND', 'Chave de API não encontrada']), ...guarded },
        },
      },
      async (request, reply) => {
        const key = await keys.find(request.params.id);
        if (!key || key.team_id !== panelOf(request).team.id) throw notFound('Chave de API não encontrada');
        await keys.revoke(key.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/scopes',
      {
        config: { panel: { role: 'seller' } },
        schema: {
          tags: ['Chaves de API'],
          operationId: 'listScopes',
          summary: 'API key scopes with Portuguese labels',
          response: { 200: List(ScopeItem), ...guarded },
        },
      },
      async () => ({ success: true as const, data: scopeItems() }),
    );

    app.get(
      '/event-types',
      {
        config: { panel: { role: 'seller' } },
        schema: {
          tags: ['Webhooks'],
          operationId: 'listEventTypes',
          summary: 'Event kinds with their area and Portuguese labels',
          response: { 200: List(EventTypeItem), ...guarded },
        },
      },
      async () => ({ success: true as const, data: eventTypeItems() }),
    );
  };
}
