import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DealsService } from '../../domain/deals/deals.service.js';
import { teamOf } from '../auth.js';
import { IdParams } from '../schemas/common.schema.js';
import { DealCreateBody, DealListQuery, DealUpdateBody } from '../schemas/deals.schema.js';

const read = { auth: { scope: 'deals:read' } } as const;
const write = { auth: { scope: 'deals:write' } } as const;

export function dealsRoutes(deals: DealsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/deals', { config: read, schema: { querystring: DealListQuery } }, async (request) => {
      const { data, pagination } = await deals.list(teamOf(request), request.query);
      return { success: true, data, pagination };
    });

    app.post('/deals', { config: { ...write, idempotent: true }, schema: { body: DealCreateBody } }, async (request, reply) => {
      const deal = await deals.create(teamOf(request), request.body);
      return reply.status(201).send({ success: true, data: deal });
    });

    app.get('/deals/:id', { config: read, schema: { params: IdParams } }, async (request) => ({
      success: true,
      data: await deals.get(teamOf(request), request.params.id),
    }));

    app.put('/deals/:id', { config: write, schema: { params: IdParams, body: DealUpdateBody } }, async (request) => {
      const { response } = await deals.update(teamOf(request), request.params.id, request.body);
      return { success: true, data: response };
    });

    app.delete('/deals/:id', { config: write, schema: { params: IdParams } }, async (request) => {
      const { deal, archivedAt } = await deals.archive(teamOf(request), request.params.id);
      return { success: true, data: { id: deal.id, status: 'arquivado', archived_at: archivedAt } };
    });
  };
}
