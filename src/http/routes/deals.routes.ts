import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DealsService } from '../../domain/deals/deals.service.js';
import { readConfirmed, teamOf } from '../auth.js';
import { answerInTransaction } from '../idempotency.js';
import { BEARER, REPLAYED_HEADER, authErrors, bodyErrors, errors, ok } from '../openapi/route-docs.js';
import { IdParams, IdempotencyHeaders } from '../schemas/common.schema.js';
import { DealCreateBody, DealListQuery, DealUpdateBody } from '../schemas/deals.schema.js';
import type { Static } from 'typebox';
import type { DealUpdateResult, DealView } from '../../domain/deals/deals.types.js';
import { Deal, DealArchived, DealUpdated, Page, Success } from '../schemas/responses.schema.js';

/** GET by id and the list: the read itself confirms a cached authentication (auth.ts, `readConfirmed`). */
const confirmedRead = { auth: { scope: 'deals:read', confirmedByRead: true } } as const;
const write = { auth: { scope: 'deals:write' } } as const;
const doc = { tags: ['Deals'], security: BEARER };
const notFound = { 404: errors.notFound('Negócio não encontrado') };
/** `Fase inválida` names the field and lists the team's phases (here the default pipeline). */
const PHASE_DETAIL = { field: 'phase', details: { allowed: ['lead', 'qualificado', 'proposta', 'negociacao', 'fechamento'] } };

/** PUT always answers with these, plus every field the body sent. */
const PUT_SUMMARY = ['title', 'value', 'phase', 'priority', 'probability', 'status'] as const;

/** The PUT answer: id, the summary fields, every field sent (and the embedded client with client_id), updated_at. */
function updatedAnswer({ deal, sent }: DealUpdateResult): Static<typeof DealUpdated> {
  const fields: ReadonlyArray<keyof DealView> = ['id', ...PUT_SUMMARY, ...sent, ...(sent.includes('client_id') ? (['client'] as const) : []), 'updated_at'];
  return Object.fromEntries(fields.map((f) => [f, deal[f]])) as Static<typeof DealUpdated>;
}

export function dealsRoutes(deals: DealsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/deals',
      {
        config: confirmedRead,
        schema: {
          ...doc,
          operationId: 'listDeals',
          summary: 'List deals',
          description: 'Archived deals are left out unless `status=arquivado`. Bounds of min_value, max_value, from and to are inclusive.',
          querystring: DealListQuery,
          response: {
            ...authErrors,
            200: ok(Page(Deal), "A page of the team's deals."),
            400: errors.badRequest(['VALIDATION_ERROR', "Parâmetro 'page' deve ser um número inteiro positivo"], ['VALIDATION_ERROR', 'Status inválido']),
          },
        },
      },
      async (request) => {
        const { data, pagination } = await readConfirmed(
          request,
          (teamId) => deals.list(teamId, request.query),
          (teamId) => deals.listWithAuthEpoch(teamId, request.query),
        );
        return { success: true as const, data, pagination };
      },
    );

    app.post(
      '/deals',
      {
        config: { ...write, idempotent: true },
        schema: {
          ...doc,
          operationId: 'createDeal',
          summary: 'Create a deal',
          description: "Starts `ativo` in phase `lead` (unless given) with the phase's suggested probability. Send an Idempotency-Key to retry safely.",
          headers: IdempotencyHeaders,
          body: DealCreateBody,
          response: {
            ...authErrors,
            ...bodyErrors,
            201: ok(Success(Deal), 'The created deal (or, with Idempotent-Replayed, the stored answer of the first request).', REPLAYED_HEADER),
            400: errors.badRequest(
              ['VALIDATION_ERROR', "Campo 'title' é obrigatório", { field: 'title' }],
              ['VALIDATION_ERROR', 'Prioridade inválida', { field: 'priority' }],
              ['VALIDATION_ERROR', 'Probabilidade deve ser entre 0 e 100', { field: 'probability' }],
              ['VALIDATION_ERROR', 'Fase inválida', PHASE_DETAIL],
              ['VALIDATION_ERROR', 'Cliente não encontrado', { field: 'client_id' }],
              ['VALIDATION_ERROR', 'JSON inválido'],
            ),
            409: errors.conflict,
            422: errors.unprocessable(['VALIDATION_ERROR', 'Esta Idempotency-Key já foi usada com uma requisição diferente']),
          },
        },
      },
      async (request, reply) => {
        const answer = (deal: DealView) => ({ success: true as const, data: deal });
        const deal = await deals.create(teamOf(request), request.body, answerInTransaction(request, 201, answer));
        return reply.status(201).send(answer(deal));
      },
    );

    app.get(
      '/deals/:id',
      {
        config: confirmedRead,
        schema: {
          ...doc,
          operationId: 'getDeal',
          summary: 'Get a deal',
          params: IdParams,
          response: { ...authErrors, 200: ok(Success(Deal), 'The deal.'), ...notFound },
        },
      },
      async (request) => {
        const id = request.params.id;
        const data = await readConfirmed(
          request,
          (teamId) => deals.get(teamId, id),
          (teamId) => deals.getWithAuthEpoch(teamId, id),
        );
        return { success: true as const, data };
      },
    );

    app.put(
      '/deals/:id',
      {
        config: write,
        schema: {
          ...doc,
          operationId: 'updateDeal',
          summary: 'Update a deal',
          description:
            "Any subset of the fields. Moves phases (probability follows the phase unless sent), marks won or lost, archives or reactivates. Making the deal `ganho` while its `case_id` is the id of one of the team's vehicles in stock marks that vehicle `vendido` in the same transaction.",
          params: IdParams,
          body: DealUpdateBody,
          response: {
            ...authErrors,
            ...bodyErrors,
            200: ok(Success(DealUpdated), 'id, the summary fields, every field sent, and updated_at.'),
            400: errors.badRequest(
              ['VALIDATION_ERROR', 'Nenhum campo para atualizar'],
              ['VALIDATION_ERROR', 'Prioridade inválida', { field: 'priority' }],
              ['VALIDATION_ERROR', 'Fase inválida', PHASE_DETAIL],
            ),
            ...notFound,
          },
        },
      },
      async (request) => {
        const change = await deals.update(teamOf(request), request.params.id, request.body);
        return { success: true as const, data: updatedAnswer(change) };
      },
    );

    app.delete(
      '/deals/:id',
      {
        config: write,
        schema: {
          ...doc,
          operationId: 'archiveDeal',
          summary: 'Archive a deal',
          description: 'Soft delete: the deal becomes `arquivado` and is kept. Idempotent: archiving again answers with the original archived_at.',
          params: IdParams,
          response: { ...authErrors, ...bodyErrors, 200: ok(Success(DealArchived), 'The archived deal.'), ...notFound },
        },
      },
      async (request) => {
        const { deal, archivedAt } = await deals.archive(teamOf(request), request.params.id);
        return { success: true as const, data: { id: deal.id, status: 'arquivado' as const, archived_at: archivedAt } };
      },
    );
  };
}
