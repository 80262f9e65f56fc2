import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { distributionMessages } from '../../domain/leads/lead-distribution.js';
import { leadPanelMessages, type LeadPanelService } from '../../domain/leads/lead-panel.service.js';
import type { LeadsService } from '../../domain/leads/leads.service.js';
import { LEAD_DISTRIBUTIONS, MAX_RESPONSE_MINUTES } from '../../domain/leads/leads.types.js';
import { userMessages, type UsersService } from '../../domain/users/users.service.js';
import { crudRoutes } from '../crud-routes.js';
import { nullable } from '../schemas/common.schema.js';
import { panelOf } from './panel-auth.js';
import { invalidBody, manager, panelSurface, seller, teamOf } from './panel-surface.js';
import { failure, Success, User } from './panel.schemas.js';

const closed = { additionalProperties: false } as const;

const LeadSettings = Type.Object(
  {
    distribution: Type.Enum([...LEAD_DISTRIBUTIONS], {
      description: 'round_robin (in turn among the active people who take leads), fixed (one person) or none (unassigned; a manager distributes).',
    }),
    user_id: nullable(Type.String({ format: 'uuid', description: "The person who receives every lead with 'fixed'." })),
    response_minutes: Type.Integer({
      minimum: 1,
      maximum: MAX_RESPONSE_MINUTES,
      description: 'Minutes after arrival the "Responder lead" call is due; past it a lead is late.',
    }),
  },
  { ...closed, title: 'LeadSettings' },
);
// Strings and numbers as sent: the domain answers the same messages as `autosales teams settings`.
const LeadSettingsBody = Type.Object(
  {
    distribution: Type.Optional(Type.String({ maxLength: 40 })),
    user_id: Type.Optional(nullable(Type.String({ maxLength: 100 }))),
    response_minutes: Type.Optional(Type.Number()),
  },
  closed,
);
const TakesLeadsBody = Type.Object({ takes_leads: Type.Boolean() }, closed);

const Named = Type.Object({ id: Type.String(), name: Type.String() }, closed);
const WaitingLead = Type.Object(
  {
    deal_id: Type.String({ format: 'uuid' }),
    title: Type.String(),
    value: nullable(Type.Number()),
    phase: Type.String(),
    client: nullable(Named),
    responsible: nullable(Named),
    received_at: Type.String({ format: 'date-time' }),
    waiting_minutes: Type.Integer({ minimum: 0, description: "Whole minutes since the lead arrived, by the server's clock." }),
    late: Type.Boolean({ description: 'Waiting for the response target or longer.' }),
  },
  { ...closed, title: 'WaitingLead' },
);
const WaitingLeads = Type.Object({ response_minutes: Type.Integer(), items: Type.Array(WaitingLead) }, closed);
const WaitingQuery = Type.Object(
  {
    responsible_id: Type.Optional(Type.String({ maxLength: 100 })),
    source: Type.Optional(Type.String({ maxLength: 100 })),
    search: Type.Optional(Type.String({ maxLength: 200 })),
  },
  closed,
);
const LeadNotice = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    deal_id: Type.String({ format: 'uuid' }),
    title: Type.String(),
    client_name: nullable(Type.String()),
    source: nullable(Type.String()),
    received_at: Type.String({ format: 'date-time' }),
    waiting_minutes: Type.Integer({ minimum: 0, description: "Whole minutes since the lead arrived, by the server's clock." }),
  },
  { ...closed, title: 'LeadNotice' },
);
const LeadNotices = Type.Object({ count: Type.Integer({ minimum: 0 }), items: Type.Array(LeadNotice) }, closed);
const SellerLeadStats = Type.Object(
  {
    responsible: nullable(Named),
    received: Type.Integer(),
    answered: Type.Integer(),
    answered_within_target: Type.Integer(),
    median_response_minutes: nullable(Type.Number()),
    within_target_rate: nullable(Type.Number({ description: 'Percent of the leads whose outcome is known (answered, or waiting past the target).' })),
  },
  { ...closed, title: 'SellerLeadStats' },
);
const LeadStats = Type.Object(
  { from: Type.String({ format: 'date' }), to: Type.String({ format: 'date' }), response_minutes: Type.Integer(), sellers: Type.Array(SellerLeadStats) },
  closed,
);
const StatsQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ format: 'date', description: 'First day (team time zone); the month’s first by default.' })),
    to: Type.Optional(Type.String({ format: 'date', description: 'Last day, included; today by default.' })),
  },
  closed,
);

export interface LeadsRoutesDeps {
  leads: Pick<LeadsService, 'settings' | 'updateSettings'>;
  users: Pick<UsersService, 'update'>;
  leadPanel: LeadPanelService;
}

/**
 * Settings -> Leads (managers and owners): the same services as `autosales teams settings` and the
 * people's flag. For everyone: the board's waiting leads, one's unseen lead notices, Início's response times.
 */
export function leadsRoutes({ leads, users, leadPanel }: LeadsRoutesDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const settings = crudRoutes(app, panelSurface({ tags: ['Leads'], read: manager, write: manager }), '/leads');
    settings.read('/settings', {
      operationId: 'getLeadSettings',
      summary: 'How leads are distributed, to whom when fixed, and the response target (manager)',
      answer: Success(LeadSettings),
      read: (request) => leads.settings(teamOf(request)),
    });
    settings.write('PUT', '/settings', {
      operationId: 'updateLeadSettings',
      summary: 'Change the distribution, the fixed person or the response target (manager)',
      description: "Absent fields keep their value. 'fixed' needs an active person of the team.",
      body: LeadSettingsBody,
      answer: Success(LeadSettings),
      errors: {
        400: invalidBody(
          ['VALIDATION_ERROR', distributionMessages.modeInvalid],
          ['VALIDATION_ERROR', distributionMessages.fixedNeedsUser],
          ['VALIDATION_ERROR', distributionMessages.minutesInvalid],
        ),
      },
      write: (request) => leads.updateSettings(teamOf(request), request.body),
    });
    settings.write('PUT', '/people/:id', {
      operationId: 'setTakesLeads',
      summary: 'Whether a person takes leads in the round-robin (manager)',
      body: TakesLeadsBody,
      answer: Success(User),
      errors: {
        400: invalidBody(['VALIDATION_ERROR', "Campo 'takes_leads' deve ser verdadeiro ou falso (boolean)"]),
        404: failure('Not a person of this team.', ['NOT_FOUND', userMessages.userNotFound]),
      },
      write: (request) => users.update(teamOf(request), request.params.id, { takes_leads: request.body.takes_leads }),
    });
    const forEveryone = crudRoutes(app, panelSurface({ tags: ['Leads'], read: seller, write: seller }), '/leads');
    forEveryone.read('/waiting', {
      operationId: 'listWaitingLeads',
      summary: 'The lead deals nobody answered yet, oldest first, with their waiting time (the top of the deals board)',
      description: 'Same filters as the board. Answered: a completed activity or a phase change on the deal.',
      querystring: WaitingQuery,
      answer: Success(WaitingLeads),
      read: (request) => leadPanel.waiting(teamOf(request), request.query),
    });
    forEveryone.read('/notices', {
      operationId: 'listLeadNotices',
      summary: 'The leads assigned to the signed-in person that they have not opened yet (the header badge)',
      answer: Success(LeadNotices),
      read: (request) => leadPanel.notices(teamOf(request), panelOf(request).user.id),
    });
    forEveryone.write('POST', '/:id/seen', {
      operationId: 'markLeadSeen',
      summary: 'Mark one of my lead notices seen (opening it)',
      answer: Success(Type.Object({ seen: Type.Literal(true) }, closed)),
      errors: { 404: failure('Not a lead assigned to the signed-in person.', ['NOT_FOUND', leadPanelMessages.noticeNotFound]) },
      write: async (request) => {
        await leadPanel.markSeen(teamOf(request), panelOf(request).user.id, request.params.id);
        return { seen: true as const };
      },
    });
    forEveryone.read('/stats', {
      operationId: 'getLeadStats',
      summary: 'Per responsible: leads received in the period, median response time, share answered within the target (Início)',
      querystring: StatsQuery,
      answer: Success(LeadStats),
      errors: { 400: invalidBody(['VALIDATION_ERROR', leadPanelMessages.periodInvalid]) },
      read: (request) => leadPanel.responseStats(teamOf(request), request.query),
    });
  };
}
