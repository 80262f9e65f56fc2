import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AiService } from '../../domain/ai/ai.service.js';
import type { AiServing } from '../../domain/ai/ai-serving.service.js';
import type { DealsService } from '../../domain/deals/deals.service.js';
import { crudRoutes } from '../crud-routes.js';
import { nullable } from '../schemas/common.schema.js';
import { manager, missing, panelSurface, teamOf } from './panel-surface.js';
import { IdParams, Success } from './panel.schemas.js';

const closed = { additionalProperties: false } as const;
const Factor = Type.Object(
  {
    feature: Type.String(),
    text: Type.String({ examples: ['sem contato há 9 dias', 'origem: indicacao'] }),
    effect: Type.Number({ description: 'Log-odds.' }),
  },
  closed,
);
const Used = Type.Union([Type.Literal('model'), Type.Literal('phase'), Type.Literal('none')]);
const DealProbability = Type.Object(
  {
    ai_win_probability: nullable(Type.Integer({ minimum: 0, maximum: 100 })),
    used: Used,
    raising: Type.Array(Factor, { description: 'The three factors that raise the probability most (against an average deal of the team), strongest first.' }),
    lowering: Type.Array(Factor, { description: 'The three that lower it most.' }),
  },
  { ...closed, title: 'DealProbability' },
);
const Score = Type.Object(
  {
    auc: Type.Number(),
    auc_low: Type.Number(),
    auc_high: Type.Number(),
    brier: Type.Number(),
    calibration: Type.Array(Type.Object({ decile: Type.Integer(), count: Type.Integer(), predicted: Type.Number(), observed: Type.Number() }, closed)),
  },
  closed,
);
const ModelReport = Type.Object(
  {
    team_id: Type.String(),
    version: Type.Integer(),
    trained_at: Type.String(),
    closed_deals: Type.Integer(),
    training_rows: Type.Integer(),
    training_ms: Type.Integer(),
    used: Used,
    auc: nullable(Type.Number()),
    baseline_auc: nullable(Type.Number()),
    brier: nullable(Type.Number()),
    baseline_brier: nullable(Type.Number()),
    metrics: nullable(
      Type.Object(
        {
          method: Type.Union([Type.Literal('holdout'), Type.Literal('cross_validation')]),
          evaluated_deals: Type.Integer(),
          model: Score,
          baseline: Score,
          auc_difference: Type.Number(),
          auc_difference_low: Type.Number(),
          auc_difference_high: Type.Number(),
        },
        closed,
      ),
    ),
    reason: nullable(Type.String()),
  },
  { ...closed, title: 'ProbabilityModel' },
);

/** The win probability's explanations: a deal's factors (its dialog) and the team's model (Settings → Probabilidade). */
export function aiRoutes({
  deals,
  ai,
  aiServing,
}: {
  deals: Pick<DealsService, 'get'>;
  ai: Pick<AiService, 'show'>;
  aiServing: Pick<AiServing, 'explainDeal'>;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    crudRoutes(app, panelSurface({ tags: ['Negócios'], notFound: 'Negócio não encontrado' }), '/deals').read('/:id/probability', {
      operationId: 'getDealProbability',
      summary: "A deal's win probability and the three factors that raise and lower it most, in words",
      params: IdParams,
      answer: Success(DealProbability),
      errors: missing('Negócio não encontrado'),
      read: async (request) => {
        // Read as the deal itself is read (the same scope: 404 for another team's), then explained.
        const deal = await deals.get(teamOf(request), request.params.id);
        return aiServing.explainDeal(teamOf(request), deal.id);
      },
    });
    crudRoutes(app, panelSurface({ tags: ['Configurações'], read: manager }), '/ai').read('/model', {
      operationId: 'getProbabilityModel',
      summary: "The team's win-probability model: when trained, on how many deals, used or not, and its held-out metrics with the phase's",
      answer: Success(nullable(ModelReport)),
      read: (request) => ai.show(teamOf(request)),
    });
  };
}
