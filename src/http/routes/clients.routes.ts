import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ClientsService } from '../../domain/clients/clients.service.js';
import { readConfirmed, teamOf } from '../auth.js';
import { answerInTransaction } from '../idempotency.js';
import { BEARER, REPLAYED_HEADER, authErrors, bodyErrors, errors, ok } from '../openapi/route-docs.js';
import { ClientCreateBody, ClientListQuery, ClientUpdateBody } from '../schemas/clients.schema.js';
import { IdParams, IdempotencyHeaders } from '../schemas/common.schema.js';
import type { Static } from 'typebox';
import type { ClientUpdateResult, ClientView } from '../../domain/clients/clients.types.js';
import { Client, ClientDeactivated, ClientListItem, ClientUpdated, Page, Success } from '../schemas/responses.schema.js';

/** GET by id and the list: the read itself confirms a cached authentication (auth.ts, `readConfirmed`). */
const confirmedRead = { auth: { scope: 'clients:read', confirmedByRead: true } } as const;
const write = { auth: { scope: 'clients:write' } } as const;
const doc = { tags: ['Clients'], security: BEARER };
const notFound = { 404: errors.notFound('Cliente não encontrado') };
/** The PUT answer: id, every field sent (municipal_registration is write-only: never), status when it reactivated the client, updated_at. */
function updatedAnswer({ state, sent, previous }: ClientUpdateResult): Static<typeof ClientUpdated> {
  const fields = ['id', ...sent.filter((f) => f !== 'municipal_registration'), ...('status' in previous ? (['status'] as const) : []), 'updated_at'] as const;
  return Object.fromEntries(fields.map((f) => [f, state[f]])) as Static<typeof ClientUpdated>;
}

const duplicate = (...extra: Array<[string, string]>) =>
  errors.unprocessable(['DUPLICATE_ENTRY', 'CPF já cadastrado', { field: 'cpf' }], ['DUPLICATE_ENTRY', 'CNPJ já cadastrado', { field: 'cnpj' }], ...extra);

export function clientsRoutes(clients: ClientsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/clients',
      {
        config: confirmedRead,
        schema: {
          ...doc,
          operationId: 'listClients',
          summary: 'List clients',
          description:
            'Inactive clients are left out unless `status=inactive`. `search` matches name, e-mail, CPF or CNPJ, ignoring case, accents and punctuation.',
          querystring: ClientListQuery,
          response: {
            ...authErrors,
            200: ok(Page(ClientListItem), "A page of the team's clients (list fields only)."),
            400: errors.badRequest(['VALIDATION_ERROR', "Parâmetro 'limit' deve ser um número inteiro positivo"], ['VALIDATION_ERROR', 'Segmento inválido']),
          },
        },
      },
      async (request) => {
        const { data, pagination } = await readConfirmed(
          request,
          (teamId) => clients.list(teamId, request.query),
          (teamId) => clients.listWithAuthEpoch(teamId, request.query),
        );
        return { success: true as const, data, pagination };
      },
    );

    app.post(
      '/clients',
      {
        config: { ...write, idempotent: true },
        schema: {
          ...doc,
          operationId: 'createClient',
          summary: 'Create a client',
          description:
            '`type` decides the fields: PF (cpf, rg, birth_date, gender, …) or PJ (cnpj, legal_name, trade_name, …). CPF/CNPJ are check-digit validated and unique in the team.',
          headers: IdempotencyHeaders,
          body: ClientCreateBody,
          response: {
            ...authErrors,
            ...bodyErrors,
            201: ok(Success(Client), 'The created client (or, with Idempotent-Replayed, the stored answer of the first request).', REPLAYED_HEADER),
            400: errors.badRequest(
              ['VALIDATION_ERROR', "Campo 'name' é obrigatório", { field: 'name' }],
              ['VALIDATION_ERROR', "Campo 'type' é obrigatório. Use: PF ou PJ", { field: 'type' }],
              ['VALIDATION_ERROR', 'CPF inválido', { field: 'cpf' }],
              ['VALIDATION_ERROR', 'CNPJ inválido', { field: 'cnpj' }],
            ),
            409: errors.conflict,
            422: duplicate(['VALIDATION_ERROR', 'Esta Idempotency-Key já foi usada com uma requisição diferente']),
          },
        },
      },
      async (request, reply) => {
        const answer = (client: ClientView) => ({ success: true as const, data: client });
        const client = await clients.create(teamOf(request), request.body, answerInTransaction(request, 201, answer));
        return reply.status(201).send(answer(client));
      },
    );

    app.get(
      '/clients/:id',
      {
        config: confirmedRead,
        schema: {
          ...doc,
          operationId: 'getClient',
          summary: 'Get a client',
          params: IdParams,
          response: { ...authErrors, 200: ok(Success(Client), 'The full client record.'), ...notFound },
        },
      },
      async (request) => {
        const id = request.params.id;
        const data = await readConfirmed(
          request,
          (teamId) => clients.get(teamId, id),
          (teamId) => clients.getWithAuthEpoch(teamId, id),
        );
        return { success: true as const, data };
      },
    );

    app.put(
      '/clients/:id',
      {
        config: write,
        schema: {
          ...doc,
          operationId: 'updateClient',
          summary: 'Update a client',
          description: 'Any subset of the create fields; `address` may be partial (merged). Any valid PUT reactivates an inactive client.',
          params: IdParams,
          body: ClientUpdateBody,
          response: {
            ...authErrors,
            ...bodyErrors,
            200: ok(Success(ClientUpdated), 'id, every field sent, status when reactivated, and updated_at.'),
            400: errors.badRequest(['VALIDATION_ERROR', 'Nenhum campo para atualizar'], ['VALIDATION_ERROR', 'CPF inválido']),
            ...notFound,
            422: duplicate(),
          },
        },
      },
      async (request) => {
        const change = await clients.update(teamOf(request), request.params.id, request.body);
        return { success: true as const, data: updatedAnswer(change) };
      },
    );

    app.delete(
      '/clients/:id',
      {
        config: write,
        schema: {
          ...doc,
          operationId: 'deactivateClient',
          summary: 'Deactivate a client',
          description: 'Soft delete: the client becomes `inactive` and is kept. Idempotent: deactivating again answers with the original deactivated_at.',
          params: IdParams,
          response: { ...authErrors, ...bodyErrors, 200: ok(Success(ClientDeactivated), 'The deactivated client.'), ...notFound },
        },
      },
      async (request) => {
        const { client, deactivatedAt } = await clients.deactivate(teamOf(request), request.params.id);
        return { success: true as const, data: { id: client.id, status: 'inactive' as const, deactivated_at: deactivatedAt } };
      },
    );
  };
}
