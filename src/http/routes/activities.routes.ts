import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ActivitiesService } from '../../domain/activities/activities.service.js';
import { ACTIVITY_TYPES, type ActivityCreateInput } from '../../domain/activities/activities.types.js';
import { messages } from '../../domain/shared/errors.js';
import { teamOf } from '../auth.js';
import { crudRoutes } from '../crud-routes.js';
import { REPLAYED_HEADER, errors, ok } from '../openapi/route-docs.js';
import { requireType } from '../require-type.js';
import { Activity, ActivityCreateBody, ActivityListQuery, ActivityUpdateBody } from '../schemas/agenda.schema.js';
import { Page, Success } from '../schemas/responses.schema.js';
import { previewSurface } from './preview-surface.js';

/** Activities (preview area `activities`). */
export function activitiesRoutes(activities: ActivitiesService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const routes = crudRoutes(app, previewSurface('activities', messages.activityNotFound, { idempotentCreate: true }), '/activities');
    routes.list({
      operationId: 'listActivities',
      summary: 'List activities',
      description: 'Cancelled activities are left out unless `status=cancelled`. due_from and due_to are UTC days, inclusive.',
      querystring: ActivityListQuery,
      answer: ok(Page(Activity), "A page of the team's activities."),
      read: (request) => activities.list(teamOf(request), request.query),
    });
    routes.list({
      sub: '/overdue',
      operationId: 'listOverdueActivities',
      summary: 'List overdue activities',
      description: 'Pending or in-progress activities whose due time has passed, earliest first; the list filters apply.',
      querystring: ActivityListQuery,
      answer: ok(Page(Activity), 'A page of overdue activities.'),
      read: (request) => activities.list(teamOf(request), request.query, { overdue: true }),
    });
    routes.create({
      operationId: 'createActivity',
      summary: 'Create an activity',
      description: '`type` and `title` are required, and `due_at` except for notes. Emits `activity.created`.',
      body: ActivityCreateBody,
      answer: ok(Success(Activity), 'The created activity.', REPLAYED_HEADER),
      errors: {
        400: errors.badRequest(
          ['VALIDATION_ERROR', "Campo 'type' é obrigatório. Use: task, deadline, meeting, call, email, note", { field: 'type' }],
          ['VALIDATION_ERROR', "Campo 'due_at' é obrigatório (exceto para o tipo 'note')", { field: 'due_at' }],
          ['VALIDATION_ERROR', 'Negócio não encontrado', { field: 'deal_id' }],
        ),
        422: errors.unprocessable(['VALIDATION_ERROR', 'Esta Idempotency-Key já foi usada com uma requisição diferente']),
      },
      write: (request, options) => {
        requireType(request.body, ACTIVITY_TYPES);
        return activities.create(teamOf(request), request.body as ActivityCreateInput, options);
      },
    });
    routes.get({
      operationId: 'getActivity',
      summary: 'Get an activity',
      answer: ok(Success(Activity), 'The activity.'),
      read: (request) => activities.get(teamOf(request), request.params.id),
    });
    routes.update({
      operationId: 'updateActivity',
      summary: 'Update an activity',
      description:
        'Any subset of the fields; answers the whole activity. `status` pending or in_progress (also reopens); completed completes (as /complete), cancelled cancels. Moving `due_at` re-arms `activity.due_soon` and `activity.overdue`.',
      body: ActivityUpdateBody,
      answer: ok(Success(Activity), 'The activity after the change.'),
      errors: {
        400: errors.badRequest(['VALIDATION_ERROR', 'Nenhum campo para atualizar']),
        422: errors.unprocessable(['VALIDATION_ERROR', 'Atividade cancelada não pode ser concluída', { field: 'status' }]),
      },
      write: async (request) => (await activities.update(teamOf(request), request.params.id, request.body)).activity,
    });
    routes.remove({
      operationId: 'cancelActivity',
      summary: 'Cancel an activity',
      description: 'Cancels: the activity is kept with status `cancelled` and its time-driven events are disarmed. Idempotent.',
      answer: ok(Success(Activity), 'The cancelled activity.'),
      write: async (request) => (await activities.cancel(teamOf(request), request.params.id)).activity,
    });
    routes.write('PUT', '/:id/complete', {
      operationId: 'completeActivity',
      summary: 'Complete an activity',
      description: 'Sets `completed_at` and emits `activity.completed` (once: completing again changes nothing). No body needed.',
      answer: ok(Success(Activity), 'The completed activity.'),
      errors: { 422: errors.unprocessable(['VALIDATION_ERROR', 'Atividade cancelada não pode ser concluída']) },
      write: async (request) => (await activities.complete(teamOf(request), request.params.id)).activity,
    });
  };
}
