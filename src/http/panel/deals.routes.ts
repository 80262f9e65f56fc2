import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { BoardsService } from '../../domain/boards/boards.service.js';
import type { DealsService } from '../../domain/deals/deals.service.js';
import { crudRoutes } from '../crud-routes.js';
import { DealCreateBody, DealListQuery, DealUpdateBody } from '../schemas/deals.schema.js';
import { Deal, DealArchived, Page } from '../schemas/responses.schema.js';
import { invalid, panelSurface, teamOf } from './panel-surface.js';
import { CardPage, DealBoardQuery, DealCard, DealColumn, DealColumnQuery, PhaseParams, Success } from './panel.schemas.js';

/** The deals board and the deals records: every write is the deals service's (PUT /deals/:id's validation and events). */
export function dealsRoutes({ deals, boards }: { deals: DealsService; boards: BoardsService }): FastifyPluginAsyncTypebox {
  return async (app) => {
    const routes = crudRoutes(app, panelSurface({ tags: ['Negócios'], notFound: 'Negócio não encontrado' }), '/deals');
    routes.read('/board', {
      operationId: 'getDealsBoard',
      summary: 'The deals board: one column per phase (ativo deals), with count, summed value and the first cards',
      description: 'Each column is one paged, indexed read (most valuable first); count and total_value cover the whole column.',
      querystring: DealBoardQuery,
      answer: Success(Type.Object({ columns: Type.Array(DealColumn) }, { additionalProperties: false })),
      read: (request) => {
        const { per_column = 20, ...filters } = request.query;
        return boards.dealsBoard(teamOf(request), filters, per_column);
      },
    });
    routes.read('/board/:phase', {
      operationId: 'getDealsColumn',
      summary: 'More cards of one column of the deals board ("carregar mais")',
      params: PhaseParams,
      querystring: DealColumnQuery,
      answer: Success(CardPage(DealCard)),
      read: (request) => {
        const { offset = 0, limit = 20, ...filters } = request.query;
        return boards.dealsColumn(teamOf(request), request.params.phase, filters, offset, limit);
      },
    });
    routes.list({
      operationId: 'listPanelDeals',
      summary: 'The deals list (the API list: filters, sort, pages)',
      querystring: DealListQuery,
      answer: Page(Deal),
      errors: { 400: invalid(['VALIDATION_ERROR', 'Status inválido']) },
      read: async (request) => {
        const { data, pagination } = await deals.list(teamOf(request), request.query);
        return { data, pagination };
      },
    });
    routes.create({
      operationId: 'createPanelDeal',
      summary: 'Create a deal (emits deal.created)',
      body: DealCreateBody,
      answer: Success(Deal),
      errors: {
        400: invalid(
          ['VALIDATION_ERROR', "Campo 'title' é obrigatório"],
          ['VALIDATION_ERROR', 'Cliente não encontrado'],
          ['VALIDATION_ERROR', 'Fase inválida'],
        ),
      },
      write: (request) => deals.create(teamOf(request), request.body),
    });
    routes.get({
      operationId: 'getPanelDeal',
      summary: 'A deal',
      answer: Success(Deal),
      read: (request) => deals.get(teamOf(request), request.params.id),
    });
    routes.update({
      operationId: 'updatePanelDeal',
      summary: 'Change a deal: move ({phase}), win ({status:"ganho"}), lose ({status:"perdido", loss_reason}), edit',
      description:
        'The same service as PUT /api/v1/deals/:id: deal.updated, then deal.phase_changed / deal.won / deal.lost. Answers the whole deal after the change.',
      body: DealUpdateBody,
      answer: Success(Deal),
      errors: { 400: invalid(['VALIDATION_ERROR', 'Nenhum campo para atualizar'], ['VALIDATION_ERROR', 'Fase inválida']) },
      write: async (request) => (await deals.update(teamOf(request), request.params.id, request.body)).deal,
    });
    routes.remove({
      operationId: 'archivePanelDeal',
      summary: 'Archive a deal (kept, status arquivado)',
      answer: Success(DealArchived),
      write: async (request) => {
        const { deal, archivedAt } = await deals.archive(teamOf(request), request.params.id);
        return { id: deal.id, status: 'arquivado' as const, archived_at: archivedAt };
      },
    });
  };
}
