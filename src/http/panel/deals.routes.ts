import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { BoardsService } from '../../domain/boards/boards.service.js';
import type { DealsService } from '../../domain/deals/deals.service.js';
import { crudRoutes } from '../crud-routes.js';
import { DealCreateBody, DealListQuery, DealUpdateBody } from '../schemas/deals.schema.js';
import { Deal, DealArchived, Page } from '../schemas/responses.schema.js';
import { checkPanelLoss, lossMessages } from '../../domain/deals/loss-reasons.js';
import { winMessages } from '../../domain/deals/deals.types.js';
import { invalid, panelSurface, roleOf, teamOf } from './panel-surface.js';
import { PanelVehicle, panelVehicle } from './vehicles.routes.js';
import { CardPage, DealBoardQuery, DealCard, DealColumn, DealColumnQuery, PhaseParams, Success } from './panel.schemas.js';

const WinBody = Type.Object(
  {
    vehicle_id: Type.Union([Type.String({ maxLength: 100 }), Type.Null()], { description: 'The car sold (in stock), or null for none.' }),
    value: Type.Number({ minimum: 0, maximum: 1e12, description: 'The final value (becomes the deal’s value).' }),
  },
  { additionalProperties: false },
);

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
      errors: {
        400: invalid(
          ['VALIDATION_ERROR', 'Nenhum campo para atualizar'],
          ['VALIDATION_ERROR', 'Fase inválida'],
          ['VALIDATION_ERROR', lossMessages.reasonRequired],
        ),
      },
      write: async (request) => {
        // The panel asks for a reason when a deal is lost (the API keeps the contract's free text).
        checkPanelLoss(request.body);
        return (await deals.update(teamOf(request), request.params.id, request.body)).deal;
      },
    });
    routes.write('POST', '/:id/win', {
      operationId: 'winPanelDeal',
      summary: 'Win a deal: the car sold (its case_id becomes it) and the final value; the car becomes vendido in the same transaction',
      description:
        'Emits deal.updated and deal.won, then vehicle.updated and vehicle.sold. vehicle_id null wins the deal without a car. The panel then offers to record the sale’s revenue (POST /financial).',
      body: WinBody,
      answer: Success(Type.Object({ deal: Deal, vehicle: Type.Union([PanelVehicle, Type.Null()]) }, { additionalProperties: false })),
      errors: {
        400: invalid(['VALIDATION_ERROR', winMessages.vehicleNotFound], ['VALIDATION_ERROR', "Campo 'value' deve ter no máximo duas casas decimais"]),
        422: invalid(['VALIDATION_ERROR', winMessages.vehicleNotInStock], ['VALIDATION_ERROR', winMessages.notActive]),
      },
      write: async (request) => {
        const { deal, vehicle } = await deals.win(teamOf(request), request.params.id, request.body);
        return { deal, vehicle: vehicle === null ? null : panelVehicle(roleOf(request), boards.now())(vehicle) };
      },
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
