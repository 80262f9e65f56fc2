import { createClientsService } from '../domain/clients/clients.service.js';
import { createStoresService } from '../domain/stores/stores.service.js';
import { createDealsService } from '../domain/deals/deals.service.js';
import { createLossReasonsService } from '../domain/deals/loss-reasons.service.js';
import { createReadPlanner } from '../domain/reads/read-planner.repository.js';
import { createIdempotencyService } from '../domain/idempotency/idempotency.service.js';
import { createPhasesService } from '../domain/phases/phases.service.js';
import { systemClock, type Clock } from '../domain/shared/clock.js';
import { createApiKeysService } from '../domain/teams/api-keys.service.js';
import { createTeamsService } from '../domain/teams/teams.service.js';
import { createDeliveriesService } from '../domain/webhooks/deliveries.service.js';
import { createWebhooksService } from '../domain/webhooks/webhooks.service.js';
import { createVehiclesService } from '../domain/vehicles/vehicles.service.js';
import type { Db } from '../storage/db.js';
import { createSessionsService } from '../domain/sessions/sessions.service.js';
import type { SessionSettings } from '../domain/sessions/sessions.types.js';
import { createUsersService } from '../domain/users/users.service.js';
import type { PasswordHashing } from '../domain/users/password.js';
import { createActivitiesService } from '../domain/activities/activities.service.js';
import { createFinancialService } from '../domain/financial/financial.service.js';
import { createBoardsService } from '../domain/boards/boards.service.js';
import { createScheduleService } from '../domain/schedule/schedule.service.js';
import { createAiService } from '../domain/ai/ai.service.js';
import { createAiServing } from '../domain/ai/ai-serving.service.js';
import { createLeadPanelService } from '../domain/leads/lead-panel.service.js';
import { createLeadsService } from '../domain/leads/leads.service.js';
import { trainingRunner } from '../worker/ai-training-thread.js';

export interface ServicesOptions {
  /** The time every service reads: the system clock unless a test (or a replay) injects another. */
  clock?: Clock;
  /** false: no in-process cache of authentications (AUTH_CACHE=off). */
  authCache?: boolean;
  /** scrypt cost of new password hashes (tests lower it); DEFAULT_PASSWORD_HASHING when absent. */
  passwordHashing?: PasswordHashing;
  /** Panel session idle and absolute lifetimes; DEFAULT_SESSION_SETTINGS when absent. */
  sessionSettings?: SessionSettings;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: webhooks may name private, loopback and link-local hosts (false when absent). */
  allowPrivateWebhookTargets?: boolean;
  /** The database's URL: win-probability training opens its own connection on a worker thread (absent: in this thread). */
  databaseUrl?: string;
}

/**
 * The composition root: every domain service, wired once around one database. buildApp, the CLI
 * (src/cli/context.ts), `serve`, the delivery worker and the test harness all take their services
 * from here, so a service is built one way everywhere.
 */
export function createServices(db: Db, options: ServicesOptions = {}) {
  const clock = options.clock ?? systemClock;
  const teams = createTeamsService(db.kysely, { clock });
  const reads = createReadPlanner(db);
  const sessions = createSessionsService(db.kysely, { clock, settings: options.sessionSettings });
  const aiServing = createAiServing(db, { clock });
  const deals = createDealsService(db, { clock, reads, ai: aiServing });
  const clients = createClientsService(db, { clock, reads, ai: aiServing });
  const activities = createActivitiesService(db, { clock, reads, ai: aiServing });
  return {
    clock,
    teams,
    keys: createApiKeysService(db.kysely, {
      teams,
      clock,
      authChanges: options.authCache === false ? undefined : db.authChanges,
      committedReads: db.committedReader !== undefined,
    }),
    deals,
    clients,
    stores: createStoresService(db, { clock, reads, teams }),
    leads: createLeadsService(db, { clock, clients, deals, activities }),
    leadPanel: createLeadPanelService(db, { clock }),
    webhooks: createWebhooksService(db, { teams, clock, allowPrivateTargets: options.allowPrivateWebhookTargets }),
    idempotency: createIdempotencyService(db.kysely, { clock }),
    deliveries: createDeliveriesService(db, { clock }),
    sessions,
    users: createUsersService(db.kysely, { teams, sessions, clock, hashing: options.passwordHashing }),
    phases: createPhasesService(db),
    lossReasons: createLossReasonsService(db),
    vehicles: createVehiclesService(db, { clock, reads }),
    activities,
    financial: createFinancialService(db, { clock, reads }),
    schedule: createScheduleService(db, { clock }),
    boards: createBoardsService(db, { clock }),
    aiServing,
    ai: createAiService(db, {
      clock,
      runTraining: trainingRunner(db, options.databaseUrl),
      // A new model: forget the cached one and refresh the team's deals with it.
      afterTraining: async (teamId) => {
        aiServing.invalidate(teamId);
        await aiServing.refreshTeam(teamId);
      },
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
