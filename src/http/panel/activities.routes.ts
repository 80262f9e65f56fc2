import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ActivitiesService } from '../../domain/activities/activities.service.js';
import { ACTIVITY_TYPES, type ActivityCreateInput, type ActivityView } from '../../domain/activities/activities.types.js';
import type { BoardsService } from '../../domain/boards/boards.service.js';
import { dayIn, endOfDay, startOfDay } from '../../domain/shared/time-zone.js';
import { crudRoutes } from '../crud-routes.js';
import { requireType } from '../require-type.js';
import { ActivityCreateBody, ActivityListQuery, ActivityUpdateBody } from '../schemas/agenda.schema.js';
import { Page } from '../schemas/responses.schema.js';
import { invalid, panelSurface, teamOf } from './panel-surface.js';
import { Success } from './panel.schemas.js';
import { AgendaActivity, agendaRows } from './record-flags.js';

const AGENDA_VIEWS = ['today', 'overdue', 'upcoming', 'all'] as const;
const AgendaQuery = Type.Object({
  ...ActivityListQuery.properties,
  view: Type.Optional(
    Type.Enum([...AGENDA_VIEWS], {
      description:
        'today (due today, team time zone), overdue (open, past due), upcoming (due after today, open), all (by due time unless `sort` says). Default all.',
    }),
  ),
});
const cancelledCannotComplete = { 422: invalid(['VALIDATION_ERROR', 'Atividade cancelada não pode ser concluída']) };

/** The agenda: the activities service's records with the panel's due flags. */
export function activitiesRoutes({
  activities,
  boards,
}: {
  activities: ActivitiesService;
  boards: Pick<BoardsService, 'now' | 'timeZone'>;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    const routes = crudRoutes(app, panelSurface({ tags: ['Agenda'], notFound: 'Atividade não encontrada' }), '/activities');
    /** One activity as the agenda answers it. */
    const one = async (request: FastifyRequest, activity: ActivityView) => (await agendaRows(activities, boards, teamOf(request), [activity]))[0]!;
    routes.list({
      operationId: 'listAgenda',
      summary: 'The agenda: activities of today, overdue, upcoming or all (by responsible, deal, client, vehicle)',
      querystring: AgendaQuery,
      answer: Page(AgendaActivity),
      errors: { 400: invalid(['VALIDATION_ERROR', 'Status inválido']) },
      read: async (request) => {
        const { view = 'all', ...q } = request.query;
        const team = teamOf(request);
        const zone = await boards.timeZone(team);
        const today = dayIn(boards.now(), zone);
        const answer =
          view === 'overdue'
            ? await activities.list(team, q, { overdue: true })
            : view === 'today'
              ? await activities.list(
                  team,
                  { sort: 'due_at', ...q },
                  { dueFrom: startOfDay(today, zone).toISOString(), dueBefore: endOfDay(today, zone).toISOString() },
                )
              : view === 'upcoming'
                ? await activities.list(team, { sort: 'due_at', ...q, status: q.status ?? 'pending' }, { dueFrom: endOfDay(today, zone).toISOString() })
                : await activities.list(team, { sort: 'due_at', ...q });
        return { data: await agendaRows(activities, boards, team, answer.data), pagination: answer.pagination };
      },
    });
    routes.create({
      operationId: 'createPanelActivity',
      summary: 'Create an activity (from a deal, client or vehicle with deal_id / client_id / vehicle_id)',
      body: ActivityCreateBody,
      answer: Success(AgendaActivity),
      errors: {
        400: invalid(['VALIDATION_ERROR', "Campo 'due_at' é obrigatório (exceto para o tipo 'note')"], ['VALIDATION_ERROR', 'Negócio não encontrado']),
      },
      write: async (request) => {
        requireType(request.body, ACTIVITY_TYPES);
        const activity = await activities.create(teamOf(request), request.body as ActivityCreateInput);
        return one(request, activity);
      },
    });
    routes.get({
      operationId: 'getPanelActivity',
      summary: 'An activity',
      answer: Success(AgendaActivity),
      read: async (request) => one(request, await activities.get(teamOf(request), request.params.id)),
    });
    routes.update({
      operationId: 'updatePanelActivity',
      summary: 'Change an activity',
      body: ActivityUpdateBody,
      answer: Success(AgendaActivity),
      errors: { 400: invalid(['VALIDATION_ERROR', 'Nenhum campo para atualizar']), ...cancelledCannotComplete },
      write: async (request) => one(request, (await activities.update(teamOf(request), request.params.id, request.body)).activity),
    });
    routes.remove({
      operationId: 'cancelPanelActivity',
      summary: 'Cancel an activity (kept, status cancelled)',
      answer: Success(AgendaActivity),
      write: async (request) => one(request, (await activities.cancel(teamOf(request), request.params.id)).activity),
    });
    routes.write('POST', '/:id/complete', {
      operationId: 'completePanelActivity',
      summary: 'Complete an activity (emits activity.completed once)',
      answer: Success(AgendaActivity),
      errors: cancelledCannotComplete,
      write: async (request) => one(request, (await activities.complete(teamOf(request), request.params.id)).activity),
    });
  };
}
