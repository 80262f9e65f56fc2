import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ClientsService } from '../../domain/clients/clients.service.js';
import type { Static } from 'typebox';
import type { ClientUpdateResult } from '../../domain/clients/clients.types.js';
import { teamOf } from '../auth.js';
import { crudRoutes } from '../crud-routes.js';
import { REPLAYED_HEADER, errors, ok } from '../openapi/route-docs.js';
import { ClientCreateBody, ClientListQuery, ClientUpdateBody } from '../schemas/clients.schema.js';
import { Client, ClientDeactivated, ClientListItem, ClientUpdated, Page, Success } from '../schemas/responses.schema.js';
import { clientFieldProblems } from '../../domain/clients/client-field-rules.js';
import { apiSurface } from './api-surface.js';

/** The PUT answer: id, every field sent (municipal_registration is write-only: never), status when it reactivated the client, updated_at. */
function updatedAnswer({ state, sent, previous }: ClientUpdateResult): Static<typeof ClientUpdated> {
  const fields = ['id', ...sent.filter((f) => f !== 'municipal_registration'), ...('status' in previous ? (['status'] as const) : []), 'updated_at'] as const;
  return Object.fromEntries(fields.map((f) => [f, state[f]])) as Static<typeof ClientUpdated>;
}

const duplicate = (...extra: Array<[string, string]>) =>
  errors.unprocessable(['DUPLICATE_ENTRY', 'CPF já cadastrado', { field: 'cpf' }], ['DUPLICATE_ENTRY', 'CNPJ já cadastrado', { field: 'cnpj' }], ...extra);

export function clientsRoutes(clients: ClientsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const routes = crudRoutes(app, apiSurface('clients', 'Clients', 'Cliente não encontrado'), '/clients');
    routes.list({
      operationId: 'listClients',
      summary: 'List clients',
      description:
        'Inactive clients are left out unless `status=inactive`. `search` matches name, e-mail, CPF or CNPJ, ignoring case, accents and punctuation.',
      querystring: ClientListQuery,
      answer: ok(Page(ClientListItem), "A page of the team's clients (list fields only)."),
      errors: {
        400: errors.badRequest(['VALIDATION_ERROR', "Parâmetro 'limit' deve ser um número inteiro positivo"], ['VALIDATION_ERROR', 'Segmento inválido']),
      },
      read: async (request) => {
        const { data, pagination } = await clients.list(teamOf(request), request.query);
        return { data, pagination };
      },
    });
    routes.create({
      operationId: 'createClient',
      fieldRules: clientFieldProblems,
      summary: 'Create a client',
      description:
        '`type` decides the fields: PF (cpf, rg, birth_date, gender, …) or PJ (cnpj, legal_name, trade_name, …). CPF/CNPJ are check-digit validated and unique in the team.',
      body: ClientCreateBody,
      answer: ok(Success(Client), 'The created client (or, with Idempotent-Replayed, the stored answer of the first request).', REPLAYED_HEADER),
      errors: {
        400: errors.badRequest(
          ['VALIDATION_ERROR', "Campo 'name' é obrigatório", { field: 'name' }],
          ['VALIDATION_ERROR', "Campo 'type' é obrigatório. Use: PF ou PJ", { field: 'type' }],
          ['VALIDATION_ERROR', 'CPF inválido', { field: 'cpf' }],
          ['VALIDATION_ERROR', 'CNPJ inválido', { field: 'cnpj' }],
        ),
        422: duplicate(['VALIDATION_ERROR', 'Esta Idempotency-Key já foi usada com uma requisição diferente']),
      },
      write: (request, options) => clients.create(teamOf(request), request.body, options),
    });
    routes.get({
      operationId: 'getClient',
      summary: 'Get a client',
      answer: ok(Success(Client), 'The full client record.'),
      read: (request) => {
        const id = request.params.id;
        return clients.get(teamOf(request), id);
      },
    });
    routes.update({
      operationId: 'updateClient',
      fieldRules: clientFieldProblems,
      summary: 'Update a client',
      description: 'Any subset of the create fields; `address` may be partial (merged). Any valid PUT reactivates an inactive client.',
      body: ClientUpdateBody,
      answer: ok(Success(ClientUpdated), 'id, every field sent, status when reactivated, and updated_at.'),
      errors: { 400: errors.badRequest(['VALIDATION_ERROR', 'Nenhum campo para atualizar'], ['VALIDATION_ERROR', 'CPF inválido']), 422: duplicate() },
      write: async (request) => updatedAnswer(await clients.update(teamOf(request), request.params.id, request.body)),
    });
    routes.remove({
      operationId: 'deactivateClient',
      summary: 'Deactivate a client',
      description: 'Soft delete: the client becomes `inactive` and is kept. Idempotent: deactivating again answers with the original deactivated_at.',
      answer: ok(Success(ClientDeactivated), 'The deactivated client.'),
      write: async (request) => {
        const { client, deactivatedAt } = await clients.deactivate(teamOf(request), request.params.id);
        return { id: client.id, status: 'inactive' as const, deactivated_at: deactivatedAt };
      },
    });
  };
}
