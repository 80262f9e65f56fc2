import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { BoardsService } from '../../domain/boards/boards.service.js';
import { crudRoutes } from '../crud-routes.js';
import { panelSurface, teamOf } from './panel-surface.js';
import { List, Person } from './panel.schemas.js';

/** The team's people as the record forms' pickers show them (Settings -> People is users.routes.ts). */
export function peopleRoutes({ boards }: { boards: Pick<BoardsService, 'people'> }): FastifyPluginAsyncTypebox {
  return async (app) => {
    crudRoutes(app, panelSurface({ tags: ['Pessoas'] }), '/people').list({
      operationId: 'listPeople',
      summary: "The team's people for pickers (responsible)",
      answer: List(Person),
      read: async (request) => ({ data: await boards.people(teamOf(request)) }),
    });
  };
}
