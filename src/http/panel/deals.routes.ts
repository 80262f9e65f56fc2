import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { BoardsService } from '../../domain/boards/boards.service.js';
import type { DealsService } from '../../domain/deals/deals.service.js';
import { DealCreateBody, DealListQuery, DealUpdateBody } from '../schemas/deals.schema.js';
import { Deal, DealArchived, Page } from '../schemas/responses.schema.js';
import { panelMessages, panelOf } from './panel-auth.js';
import {
  CardPage,
  Changes,
  ChangesQuery,
  DealBoardQuery,
  DealCard,
  DealColumn,
  DealColumnQuery,
  failure,
  IdParams,
  List,
  Person,
  PhaseParams,
  Success,
} from './panel.schemas.js';
import { Type } from 'typebox';

export const guarded = {
  401: failure('No session, or it expired.', ['UNAUTHORIZED', panelMessages.unauthorized]),
  403: failure(
    'The role of the signed-in user may not do this, or the CSRF token is missing or wrong.',
    ['FORBIDDEN', panelMessages.forbidden],
    ['CSRF_INVALID', panelMessages.csrf],
  ),
};
export const invalid = (...examples: Array<[string, string]>) =>
  failure('Invalid input: the same Portuguese message and error.field as the public API.', ...examples);
export const missing = (message: string) => ({ 404: failure('Unknown id (or another team’s).', ['NOT_FOUND', message]) });
export const seller = { panel: { role: 'seller' } } as const;

const tags = ['Negócios'];

/** The deals board and the deals records: every write is the deals service's (PUT /deals/:id's validation and events). */
export function dealsRoutes({ deals, boards }: { deals: DealsService; boards: BoardsService }): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/deals/board',
      {
        config: seller,
        schema: {
          tags,
          operationId: 'getDealsBoard',
          summary: 'The deals board: one column per phase (ativo deals), with count, summed value and the first cards',
          description: 'Each column is one paged, indexed read (most valuable first); count and total_value cover the whole column.',
          querystring: DealBoardQuery,
          response: { 200: Success(Type.Object({ columns: Type.Array(DealColumn) }, { additionalProperties: false })), ...guarded },
        },
      },
      async (request) => {
        const { per_column = 20, ...filters } = request.query;
        return { success: true as const, data: await boards.dealsBoard(panelOf(request).team.id, filters, per_column) };
      },
    );

    app.get(
      '/deals/board/:phase',
      {
        config: seller,
        schema: {
          tags,
          operationId: 'getDealsColumn',
          summary: 'More cards of one column of the deals board ("carregar mais")',
          params: PhaseParams,
          querystring: DealColumnQuery,
          response: { 200: Success(CardPage(DealCard)), ...guarded },
        },
      },
      async (request) => {
        const { offset = 0, limit = 20, ...filters } = request.query;
        return { success: true as const, data: await boards.dealsColumn(panelOf(request).team.id, request.params.phase, filters, offset, limit) };
      },
    );

    app.get(
      '/deals',
      {
        config: seller,
        schema: {
          tags,
          operationId: 'listPanelDeals',
          summary: 'The deals list (the API list: filters, sort, pages)',
          querystring: DealListQuery,
          response: { 200: Page(Deal), 400: invalid(['VALIDATION_ERROR', 'Status inválido']), ...guarded },
        },
      },
      async (request) => {
        const { data, pagination } = await deals.list(panelOf(request).team.id, request.query);
        return { success: true as const, data, pagination };
      },
    );

    app.post(
      '/deals',
      {
        config: seller,
        schema: {
          tags,
          operationId: 'createPanelDeal',
          summary: 'Create a deal (emits deal.created)',
          body: DealCreateBody,
          response: {
            201: Success(Deal),
            400: invalid(
              ['VALIDATION_ERROR', "Campo 'title' é obrigatório"],
              ['VALIDATION_ERROR', 'Cliente não encontrado'],
              ['VALIDATION_ERROR', 'Fase inválida'],
            ),
            ...guarded,
          },
        },
      },
      async (request, reply) => reply.status(201).send({ success: true as const, data: await deals.create(panelOf(request).team.id, request.body) }),
    );

    app.get(
      '/deals/:id',
      {
        config: seller,
        schema: {
          tags,
          operationId: 'getPanelDeal',
          summary: 'A deal',
          params: IdParams,
          response: { 200: Success(Deal), ...missing('Negócio não encontrado'), ...guarded },
        },
      },
      async (request) => ({ success: true as const, data: await deals.get(panelOf(request).team.id, request.params.id) }),
    );

    app.put(
      '/deals/:id',
      {
        config: seller,
        schema: {
          tags,
          operationId: 'updatePanelDeal',
          summary: 'Change a deal: move ({phase}), win ({status:"ganho"}), lose ({status:"perdido", loss_reason}), edit',
          description:
            'The same service as PUT /api/v1/deals/:id: deal.updated, then deal.phase_changed / deal.won / deal.lost. Answers the whole deal after the change.',
          params: IdParams,
          body: DealUpdateBody,
          response: {
            200: Success(Deal),
            400: invalid(['VALIDATION_ERROR', 'Nenhum campo para atualizar'], ['VALIDATION_ERROR', 'Fase inválida']),
            ...missing('Negócio não encontrado'),
            ...guarded,
          },
        },
      },
      async (request) => ({ success: true as const, data: (await deals.update(panelOf(request).team.id, request.params.id, request.body)).deal }),
    );

    app.delete(
      '/deals/:id',
      {
        config: seller,
        schema: {
          tags,
          operationId: 'archivePanelDeal',
          summary: 'Archive a deal (kept, status arquivado)',
          params: IdParams,
          response: { 200: Success(DealArchived), ...missing('Negócio não encontrado'), ...guarded },
        },
      },
      async (request) => {
        const { deal, archivedAt } = await deals.archive(panelOf(request).team.id, request.params.id);
        return { success: true as const, data: { id: deal.id, status: 'arquivado' as const, archived_at: archivedAt } };
      },
    );

    app.get(
      '/people',
      {
        config: seller,
        schema: {
          tags: ['Pessoas'],
          operationId: 'listPeople',
          summary: "The team's people for pickers (responsible)",
          response: { 200: List(Person), ...guarded },
        },
      },
      async (request) => ({ success: true as const, data: await boards.people(panelOf(request).team.id) }),
    );

    app.get(
      '/changes',
      {
        config: seller,
        schema: {
          tags: ['Atualizações'],
          operationId: 'getChanges',
          summary: 'What changed since a cursor (the app polls this every 3 s while visible)',
          description: `The team's event types recorded after the event \`after\` (at most ${200} events per call); without \`after\` (or an unknown one), only the cursor of the newest event.`,
          querystring: ChangesQuery,
          response: { 200: Success(Changes), ...guarded },
        },
      },
      async (request) => ({ success: true as const, data: await boards.changes(panelOf(request).team.id, request.query.after) }),
    );
  };
}
