import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { ActivitiesService } from '../../domain/activities/activities.service.js';
import type { FinancialService } from '../../domain/financial/financial.service.js';
import { AppError, messages } from '../../domain/shared/errors.js';
import type { TeamsService } from '../../domain/teams/teams.service.js';
import type { WebhooksService } from '../../domain/webhooks/webhooks.service.js';
import { teamOf } from '../auth.js';
import { activitiesRoutes } from './activities.routes.js';
import { financialRoutes } from './financial.routes.js';
import { webhooksRoutes } from './webhooks.routes.js';

export interface PreviewServices {
  teams: Pick<TeamsService, 'previewEnabled'>;
  activities: ActivitiesService;
  financial: FinancialService;
  webhooks: Pick<WebhooksService, 'create' | 'list' | 'updateForTeam' | 'removeForTeam'>;
}

/**
 * The contract's announced endpoints (activities, financial, webhooks), served to a team only when an
 * operator turned its preview on. The gate runs before validation, so neither a query string nor a
 * body can change the 501.
 */
export function previewRoutes(s: PreviewServices): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('preValidation', async (request: FastifyRequest) => {
      const preview = request.routeOptions.config.preview;
      if (!preview) return;
      const teamId = teamOf(request);
      if (!(await s.teams.previewEnabled(teamId, preview.area))) throw new AppError(501, 'NOT_IMPLEMENTED', messages.notImplemented);
      if (!request.auth?.scopes.has(preview.scope)) throw new AppError(403, 'FORBIDDEN', messages.forbidden);
    });
    await app.register(activitiesRoutes(s.activities));
    await app.register(financialRoutes(s.financial));
    await app.register(webhooksRoutes(s.webhooks));
  };
}
