import type { AiService } from '../../domain/ai/ai.service.js';
import type { AiServing } from '../../domain/ai/ai-serving.service.js';
import cookie from '@fastify/cookie';
import type { FastifyPluginAsync } from 'fastify';
import type { ActivitiesService } from '../../domain/activities/activities.service.js';
import type { BoardsService } from '../../domain/boards/boards.service.js';
import type { ClientsService } from '../../domain/clients/clients.service.js';
import type { DealsService } from '../../domain/deals/deals.service.js';
import type { LossReasonsService } from '../../domain/deals/loss-reasons.service.js';
import type { FinancialService } from '../../domain/financial/financial.service.js';
import type { LeadPanelService } from '../../domain/leads/lead-panel.service.js';
import type { LeadsService } from '../../domain/leads/leads.service.js';
import type { PhasesService } from '../../domain/phases/phases.service.js';
import type { SignInLimiter } from '../../domain/ratelimit/sign-in-limiter.js';
import type { SessionsService } from '../../domain/sessions/sessions.service.js';
import type { ApiKeysService } from '../../domain/teams/api-keys.service.js';
import type { TeamsService } from '../../domain/teams/teams.service.js';
import type { UsersService } from '../../domain/users/users.service.js';
import type { VehiclesService } from '../../domain/vehicles/vehicles.service.js';
import type { WebhooksService } from '../../domain/webhooks/webhooks.service.js';
import { activitiesRoutes } from './activities.routes.js';
import { aiRoutes } from './ai.routes.js';
import { boardsRoutes } from './boards.routes.js';
import { changesRoutes } from './changes.routes.js';
import { clientsRoutes } from './clients.routes.js';
import { dashboardRoutes } from './dashboard.routes.js';
import { dealsRoutes } from './deals.routes.js';
import { financialRoutes } from './financial.routes.js';
import { keysRoutes } from './keys.routes.js';
import { leadsRoutes } from './leads.routes.js';
import { registerPanelAuth } from './panel-auth.js';
import { peopleRoutes } from './people.routes.js';
import { sessionRoutes } from './session.routes.js';
import { teamRoutes } from './team.routes.js';
import { usersRoutes } from './users.routes.js';
import { vehiclesRoutes } from './vehicles.routes.js';
import { webhooksRoutes } from './webhooks.routes.js';

/** What the panel's routes call: the same domain services as the public API and the CLI. */
export interface PanelDeps {
  sessions: SessionsService;
  users: UsersService;
  teams: TeamsService;
  keys: ApiKeysService;
  financial: FinancialService;
  phases: PhasesService;
  lossReasons: LossReasonsService;
  webhooks: WebhooksService;
  signInLimiter: SignInLimiter;
  /** Where people open the panel, for the links the routes answer (PUBLIC_URL or the server's own address). */
  publicUrl: () => string;
  deals: DealsService;
  boards: BoardsService;
  vehicles: VehiclesService;
  clients: ClientsService;
  activities: ActivitiesService;
  ai: AiService;
  aiServing: AiServing;
  leads: LeadsService;
  leadPanel: LeadPanelService;
}

/**
 * Everything under /panel/api (register with that prefix): cookies, session auth, roles, CSRF, and
 * one plugin per resource. Their order is the order of the panel's OpenAPI document.
 */
export function panelApi(deps: PanelDeps): FastifyPluginAsync {
  return async (app) => {
    await app.register(cookie);
    await registerPanelAuth(app, deps.sessions);
    for (const routes of [
      sessionRoutes(deps),
      teamRoutes(deps),
      usersRoutes(deps),
      keysRoutes(deps),
      webhooksRoutes(deps.webhooks),
      boardsRoutes(deps),
      leadsRoutes(deps),
      dealsRoutes(deps),
      peopleRoutes(deps),
      changesRoutes(deps),
      dashboardRoutes(deps),
      vehiclesRoutes(deps),
      clientsRoutes(deps),
      activitiesRoutes(deps),
      financialRoutes(deps),
      aiRoutes(deps),
    ]) {
      await app.register(routes);
    }
    app.get('/openapi.json', { config: { panel: { role: null } }, schema: { hide: true } }, async () => app.panelSwagger());
  };
}
