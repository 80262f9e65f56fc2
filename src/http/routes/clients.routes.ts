import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ClientsService } from '../../domain/clients/clients.service.js';
import { teamOf } from '../auth.js';
import { ClientCreateBody, ClientListQuery, ClientUpdateBody } from '../schemas/clients.schema.js';
import { IdParams } from '../schemas/common.schema.js';

const read = { auth: { scope: 'clients:read' } } as const;
const write = { auth: { scope: 'clients:write' } } as const;

export function clientsRoutes(clients: ClientsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/clients', { config: read, schema: { querystring: ClientListQuery } }, async (request) => {
      const { data, pagination } = await clients.list(teamOf(request), request.query);
      return { success: true, data, pagination };
    });

    app.post('/clients', { config: { ...write, idempotent: true }, schema: { body: ClientCreateBody } }, async (request, reply) => {
      const client = await clients.create(teamOf(request), request.body);
      return reply.status(201).send({ success: true, data: client });
    });

    app.get('/clients/:id', { config: read, schema: { params: IdParams } }, async (request) => ({
      success: true,
      data: await clients.get(teamOf(request), request.params.id),
    }));

    app.put('/clients/:id', { config: write, schema: { params: IdParams, body: ClientUpdateBody } }, async (request) => {
      const { response } = await clients.update(teamOf(request), request.params.id, request.body);
      return { success: true, data: response };
    });

    app.delete('/clients/:id', { config: write, schema: { params: IdParams } }, async (request) => {
      const { client, deactivatedAt } = await clients.deactivate(teamOf(request), request.params.id);
      return { success: true, data: { id: client.id, status: 'inactive', deactivated_at: deactivatedAt } };
    });
  };
}
