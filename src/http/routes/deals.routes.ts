import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import type { DealsService } from '../../domain/deals/deals.service.js';
import type { DealUpdateResult, DealView } from '../../domain/deals/deals.types.js';
import { teamOf } from '../auth.js';
import { crudRoutes } from '../crud-routes.js';
import { REPLAYED_HEADER, errors, ok } from '../openapi/route-docs.js';
import { DealCreateBody, DealListQuery, DealUpdateBody } from '../schemas/deals.schema.js';
import { Deal, DealArchived, DealUpdated, Page, Success } from '../schemas/responses.schema.js';
import { apiSurface } from './api-surface.js';

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
    const routes = crudRoutes(app, apiSurface('deals', 'Deals', 'Negócio não encontrado'), '/deals');
    routes.list({
      operationId: 'listDeals',
      summary: 'List deals',
      description: 'Archived deals are left out unless `status=arquivado`. Bounds of min_value, max_value, from and to are inclusive.',
      querystring: DealListQuery,
      answer: ok(Page(Deal), "A page of the team's deals."),
      errors: {
        400: errors.badRequest(['VALIDATION_ERROR', "Parâmetro 'page' deve ser um número inteiro positivo"], ['VALIDATION_ERROR', 'Status inválido']),
      },
      read: async (request) => {
        const { data, pagination } = await deals.list(teamOf(request), request.query);
        return { data, pagination };
      },
    });
    routes.create({
      operationId: 'createDeal',
      summary: 'Create a deal',
      description: "Starts `ativo` in phase `lead` (unless given) with the phase's suggested probability. Send an Idempotency-Key to retry safely.",
      body: DealCreateBody,
      answer: ok(Success(Deal), 'The created deal (or, with Idempotent-Replayed, the stored answer of the first request).', REPLAYED_HEADER),
      errors: {
        400: errors.badRequest(
          ['VALIDATION_ERROR', "Campo 'title' é obrigatório", { field: 'title' }],
          ['VALIDATION_ERROR', 'Prioridade inválida', { field: 'priority' }],
          ['VALIDATION_ERROR', 'Probabilidade deve ser entre 0 e 100', { field: 'probability' }],
          ['VALIDATION_ERROR', 'Fase inválida', PHASE_DETAIL],
          ['VALIDATION_ERROR', 'Cliente não encontrado', { field: 'client_id' }],
          ['VALIDATION_ERROR', 'JSON inválido'],
        ),
        422: errors.unprocessable(['VALIDATION_ERROR', 'Esta Idempotency-Key já foi usada com uma requisição diferente']),
      },
      write: (request, options) => deals.create(teamOf(request), request.body, options),
    });
    routes.get({
      operationId: 'getDeal',
      summary: 'Get a deal',
      answer: ok(Success(Deal), 'The deal.'),
      read: (request) => {
        const id = request.params.id;
        return deals.get(teamOf(request), id);
      },
    });
    routes.update({
      operationId: 'updateDeal',
      summary: 'Update a deal',
      description:
        "Any subset of the fields. Moves phases (probability follows the phase unless sent), marks won or lost, archives or reactivates. Making the deal `ganho` while its `case_id` is the id of one of the team's vehicles in stock marks that vehicle `vendido` in the same transaction.",
      body: DealUpdateBody,
      answer: ok(Success(DealUpdated), 'id, the summary fields, every field sent, and updated_at.'),
      errors: {
        400: errors.badRequest(
          ['VALIDATION_ERROR', 'Nenhum campo para atualizar'],
          ['VALIDATION_ERROR', 'Prioridade inválida', { field: 'priority' }],
          ['VALIDATION_ERROR', 'Fase inválida', PHASE_DETAIL],
        ),
      },
      write: async (request) => updatedAnswer(await deals.update(teamOf(request), request.params.id, request.body)),
    });
    routes.remove({
      operationId: 'archiveDeal',
      summary: 'Archive a deal',
      description: 'Soft delete: the deal becomes `arquivado` and is kept. Idempotent: archiving again answers with the original archived_at.',
      answer: ok(Success(DealArchived), 'The archived deal.'),
      write: async (request) => {
        const { deal, archivedAt } = await deals.archive(teamOf(request), request.params.id);
        return { id: deal.id, status: 'arquivado' as const, archived_at: archivedAt };
      },
    });
  };
}
