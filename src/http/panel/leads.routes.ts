import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { distributionMessages } from '../../domain/leads/lead-distribution.js';
import type { LeadsService } from '../../domain/leads/leads.service.js';
import { LEAD_DISTRIBUTIONS, MAX_RESPONSE_MINUTES } from '../../domain/leads/leads.types.js';
import { userMessages, type UsersService } from '../../domain/users/users.service.js';
import { crudRoutes } from '../crud-routes.js';
import { nullable } from '../schemas/common.schema.js';
import { invalidBody, manager, panelSurface, teamOf } from './panel-surface.js';
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

export interface LeadsRoutesDeps {
  leads: Pick<LeadsService, 'settings' | 'updateSettings'>;
  users: Pick<UsersService, 'update'>;
}

/** Settings -> Leads (managers and owners): the same services as `autosales teams settings` and the people's flag. */
export function leadsRoutes({ leads, users }: LeadsRoutesDeps): FastifyPluginAsyncTypebox {
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
  };
}
