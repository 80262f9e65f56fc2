import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { MAX_LOSS_REASON_LENGTH, MAX_LOSS_REASONS } from '../../domain/deals/loss-reasons.js';
import type { LossReasonsService } from '../../domain/deals/loss-reasons.service.js';
import type { PhasesService } from '../../domain/phases/phases.service.js';
import type { Board } from '../../domain/phases/phases.types.js';
import { panelOf } from './panel-auth.js';
import { guarded } from './panel-surface.js';
import { BoardParams, BoardPhase, failure, List, PhasesBody, Success } from './panel.schemas.js';

const tags = ['Quadros'];
const badBoard = failure(
  'Unknown board, or an invalid phase list.',
  ['VALIDATION_ERROR', 'Quadro inválido: use deals ou vehicles'],
  ['VALIDATION_ERROR', 'Fase já existe'],
);

const LossReasons = Type.Object(
  {
    reasons: Type.Array(Type.String(), {
      description: 'The team’s reasons, in order; the panel always offers "Outro" (free text) after them. Defaults until the team edits the list.',
    }),
  },
  { additionalProperties: false, title: 'LossReasons' },
);
const LossReasonsBody = Type.Object(
  { reasons: Type.Array(Type.String({ maxLength: MAX_LOSS_REASON_LENGTH * 2 }), { maxItems: MAX_LOSS_REASONS * 2 }) },
  { additionalProperties: false },
);
const badReasons = failure('An empty, too long or repeated reason.', ['VALIDATION_ERROR', "Motivo de perda repetido: 'Preço'"]);

/** Settings -> Boards: the same phases service as `autosales teams phases`, and the deals' loss reasons. */
export function boardsRoutes({ phases, lossReasons }: { phases: PhasesService; lossReasons: LossReasonsService }): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/loss-reasons',
      {
        config: { panel: { role: 'seller' } },
        schema: {
          tags,
          operationId: 'getLossReasons',
          summary: 'The loss reasons the panel offers when a deal is marked lost',
          response: { 200: Success(LossReasons), ...guarded },
        },
      },
      async (request) => ({ success: true as const, data: { reasons: await lossReasons.list(panelOf(request).team.id) } }),
    );

    app.put(
      '/loss-reasons',
      {
        config: { panel: { role: 'manager' } },
        schema: {
          tags,
          operationId: 'replaceLossReasons',
          summary: 'Replace the loss reasons (manager): cleaned, none empty or repeated; "Outro" is always offered and not kept',
          body: LossReasonsBody,
          response: { 200: Success(LossReasons), 400: badReasons, ...guarded },
        },
      },
      async (request) => ({ success: true as const, data: { reasons: await lossReasons.replace(panelOf(request).team.id, request.body.reasons) } }),
    );

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
