import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { BoardsService } from '../../domain/boards/boards.service.js';
import { crudRoutes } from '../crud-routes.js';
import { panelSurface, teamOf } from './panel-surface.js';
import { Changes, ChangesQuery, Success } from './panel.schemas.js';

/** The change feed the app polls to refresh what it shows. */
export function changesRoutes({ boards }: { boards: Pick<BoardsService, 'changes'> }): FastifyPluginAsyncTypebox {
  return async (app) => {
    crudRoutes(app, panelSurface({ tags: ['Atualizações'] }), '/changes').read('', {
      operationId: 'getChanges',
      summary: 'What changed since a cursor (the app polls this every 3 s while visible)',
      description: `The team's event types recorded after the event \`after\` (at most ${200} events per call); without \`after\` (or an unknown one), only the cursor of the newest event.`,
      querystring: ChangesQuery,
      answer: Success(Changes),
      read: (request) => boards.changes(teamOf(request), request.query.after),
    });
  };
}
