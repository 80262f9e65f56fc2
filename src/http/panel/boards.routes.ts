import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { PhasesService } from '../../domain/phases/phases.service.js';
import type { Board } from '../../domain/phases/phases.types.js';
import { panelOf } from './panel-auth.js';
import { guarded } from './panel-surface.js';
import { BoardParams, BoardPhase, failure, List, PhasesBody } from './panel.schemas.js';

const tags = ['Quadros'];
const badBoard = failure(
  'Unknown board, or an invalid phase list.',
  ['VALIDATION_ERROR', 'Quadro inválido: use deals ou vehicles'],
  ['VALIDATION_ERROR', 'Fase já existe'],
);

/** Settings -> Boards: the same phases service as `autosales teams phases`. */
export function boardsRoutes(phases: PhasesService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/boards/:board/phases',
      {
        config: { panel: { role: 'seller' } },
        schema: {
          tags,
          operationId: 'listBoardPhases',
          summary: 'The phases of a board, in order',
          params: BoardParams,
          response: { 200: List(BoardPhase), 400: badBoard, ...guarded },
        },
      },
      async (request) => ({ success: true as const, data: await phases.list(panelOf(request).team.id, request.params.board as Board) }),
    );

    app.put(
      '/boards/:board/phases',
      {
        config: { panel: { role: 'manager' } },
        schema: {
          tags,
          operationId: 'replaceBoardPhases',
          summary: 'Replace the phases of a board: labels, order, suggested probabilities (manager)',
          description: 'A phase that still has records (archived ones included) cannot be removed: 422 names it with its count.',
          params: BoardParams,
          body: PhasesBody,
          response: {
            200: List(BoardPhase),
            400: badBoard,
            422: failure('A removed phase still has records.', [
              'VALIDATION_ERROR',
              "Fase em uso não pode ser removida: 'proposta' (2 negócios). Mova esses registros para outra fase antes de removê-la.",
            ]),
            ...guarded,
          },
        },
      },
      async (request) => ({
        success: true as const,
        data: await phases.replace(panelOf(request).team.id, request.params.board as Board, request.body.phases, { typedAsLabels: true }),
      }),
    );
  };
}
