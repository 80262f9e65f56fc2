import cookie from '@fastify/cookie';
import type { FastifyPluginAsync } from 'fastify';
import type { SignInLimiter } from '../../domain/ratelimit/sign-in-limiter.js';
import type { SessionsService } from '../../domain/sessions/sessions.service.js';
import type { TeamsService } from '../../domain/teams/teams.service.js';
import type { UsersService } from '../../domain/users/users.service.js';
import { registerPanelAuth } from './panel-auth.js';
import { sessionRoutes } from './session.routes.js';
import { settingsRoutes } from './settings.routes.js';
import { webhooksRoutes } from './webhooks.routes.js';
import type { ApiKeysService } from '../../domain/teams/api-keys.service.js';
import type { WebhooksService } from '../../domain/webhooks/webhooks.service.js';
import type { FinancialService } from '../../domain/financial/financial.service.js';
import type { PhasesService } from '../../domain/phases/phases.service.js';
import { boardsRoutes } from './boards.routes.js';
import { dealsRoutes } from './deals.routes.js';
import { recordsRoutes } from './records.routes.js';
import type { VehiclesService } from '../../domain/vehicles/vehicles.service.js';
import type { ClientsService } from '../../domain/clients/clients.service.js';
import type { ActivitiesService } from '../../domain/activities/activities.service.js';
import type { DealsService } from '../../domain/deals/deals.service.js';
import type { BoardsService } from '../../domain/boards/boards.service.js';

/** What the panel's routes call: the same domain services as the public API and the CLI. */
export interface PanelDeps {
  sessions: SessionsService;
  users: UsersService;
  teams: TeamsService;
  keys: ApiKeysService;
  financial: FinancialService;
  phases: PhasesService;
  webhooks: WebhooksService;
  signInLimiter: SignInLimiter;
  deals: DealsService;
  boards: BoardsService;
  vehicles: VehiclesService;
  clients: ClientsService;
  activities: ActivitiesService;
}

/** Everything under /panel/api (register with that prefix): cookies, session auth, roles, CSRF, the routes. */
export function panelApi(deps: PanelDeps): FastifyPluginAsync {
  return async (app) => {
    await app.register(cookie);
    await registerPanelAuth(app, deps.sessions);
    await app.register(sessionRoutes(deps));
    await app.register(settingsRoutes(deps));
    await app.register(webhooksRoutes(deps.webhooks));
    await app.register(boardsRoutes(deps.phases));
    await app.register(dealsRoutes(deps));
    await app.register(recordsRoutes(deps));
    app.get('/openapi.json', { config: { panel: { role: null } }, schema: { hide: true } }, async () => app.panelSwagger());
  };
}
