import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../domain/shared/errors.js';
import type { ApiKeysService } from '../../domain/teams/api-keys.service.js';
import type { ApiKeyView } from '../../domain/teams/api-keys.types.js';
import { crudRoutes } from '../crud-routes.js';
import { scopeItems } from './labels.js';
import { invalidBody, manager, owner, panelSurface, seller, teamOf } from './panel-surface.js';
import { ApiKey, ApiKeyCreated, failure, KeyCreateBody, List, NoContent, ScopeItem, Success } from './panel.schemas.js';

const tags = ['Chaves de API'];
const keyAnswer = <T extends ApiKeyView>({ team_id: _team, ...key }: T): Omit<T, 'team_id'> => key;

/** Settings -> API keys (owner; managers read them), and the scopes their form offers. */
export function keysRoutes({ keys }: { keys: ApiKeysService }): FastifyPluginAsyncTypebox {
  return async (app) => {
    // Managers see the keys (read-only); owners create and revoke them.
    const routes = crudRoutes(app, panelSurface({ tags, read: manager, write: owner }), '/keys');
    routes.list({
      operationId: 'listKeys',
      summary: "The team's API keys (manager: read-only), revoked ones included",
      answer: List(ApiKey),
      read: async (request) => ({ data: (await keys.list(teamOf(request))).map(keyAnswer) }),
    });
    routes.create({
      operationId: 'createKey',
      summary: 'Create an API key (owner): the key is in this answer only',
      body: KeyCreateBody,
      answer: Success(ApiKeyCreated),
      errors: { 400: invalidBody(['VALIDATION_ERROR', 'Escopo inválido: x. Use: deals:read, …']) },
      write: async (request, _options, reply) => {
        const key = await keys.create({ teamId: teamOf(request), name: request.body.name, scopes: request.body.scopes });
        reply.header('cache-control', 'no-store');
        return keyAnswer(key);
      },
    });
    routes.remove({
      operationId: 'revokeKey',
      summary: 'Revoke an API key (owner): it stops working at once',
      status: 204,
      answer: NoContent,
      errors: { 404: failure('Not a key of this team.', ['NOT_FOUND', 'Chave de API não encontrada']) },
      write: async (request) => {
        const key = await keys.find(request.params.id);
        if (!key || key.team_id !== teamOf(request)) throw notFound('Chave de API não encontrada');
        await keys.revoke(key.id);
      },
    });
    crudRoutes(app, panelSurface({ tags, read: seller }), '/scopes').list({
      operationId: 'listScopes',
      summary: 'API key scopes with Portuguese labels',
      answer: List(ScopeItem),
      read: async () => ({ data: scopeItems() }),
    });
  };
}
