import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ActivitiesService } from '../../domain/activities/activities.service.js';
import type { BoardsService } from '../../domain/boards/boards.service.js';
import type { ClientsService } from '../../domain/clients/clients.service.js';
import type { DealsService } from '../../domain/deals/deals.service.js';
import type { FinancialService } from '../../domain/financial/financial.service.js';
import { crudRoutes } from '../crud-routes.js';
import { ClientCreateBody, ClientListQuery, ClientUpdateBody } from '../schemas/clients.schema.js';
import { Client, ClientDeactivated, ClientListItem, Deal, Page } from '../schemas/responses.schema.js';
import { seesMoneyOfTheStore } from '../../domain/users/role-rules.js';
import { invalid, panelSurface, roleOf, teamOf } from './panel-surface.js';
import { Success } from './panel.schemas.js';
import { clientFieldProblems } from '../../domain/clients/client-field-rules.js';
import { AgendaActivity, agendaRows, overdueFlag, PanelFinancialRecord } from './record-flags.js';

const ClientOverview = Type.Object(
  {
    client: Client,
    deals: Type.Array(Deal, { description: "The client's first 20 deals, newest first." }),
    activities: Type.Array(AgendaActivity, { description: "The client's first 20 activities by due time." }),
    financial: Type.Optional(
      Type.Array(PanelFinancialRecord, { description: "The client's first 20 records by due date; absent for a seller (Financeiro is a manager's)." }),
    ),
  },
  { additionalProperties: false },
);

const errors = invalid(['VALIDATION_ERROR', 'CPF inválido'], ['VALIDATION_ERROR', 'CNPJ inválido']);
const duplicates = { 422: invalid(['DUPLICATE_ENTRY', 'CPF já cadastrado']) };

export interface ClientsRoutesDeps {
  clients: ClientsService;
  /** The overview's other records and their flags. */
  deals: Pick<DealsService, 'list'>;
  activities: Pick<ActivitiesService, 'list' | 'named'>;
  financial: Pick<FinancialService, 'list'>;
  boards: Pick<BoardsService, 'now' | 'timeZone'>;
}

/** The client records and a client's overview: every write is the clients service's. */
export function clientsRoutes({ clients, deals, activities, financial, boards }: ClientsRoutesDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const routes = crudRoutes(app, panelSurface({ tags: ['Clientes'], notFound: 'Cliente não encontrado' }), '/clients');
    routes.list({
      operationId: 'listPanelClients',
      summary: 'The clients list: search by name, e-mail, CPF/CNPJ (with or without punctuation)',
      querystring: ClientListQuery,
      answer: Page(ClientListItem),
      errors: { 400: invalid(['VALIDATION_ERROR', 'Status inválido']) },
      read: (request) => clients.list(teamOf(request), request.query),
    });
    routes.create({
      operationId: 'createPanelClient',
      fieldRules: clientFieldProblems,
      summary: 'Register a client (PF or PJ)',
      body: ClientCreateBody,
      answer: Success(Client),
      errors: { 400: errors, ...duplicates },
      write: (request) => clients.create(teamOf(request), request.body),
    });
    routes.get({
      operationId: 'getPanelClient',
      summary: 'A client',
      answer: Success(Client),
      read: (request) => clients.get(teamOf(request), request.params.id),
    });
    routes.update({
      operationId: 'updatePanelClient',
      fieldRules: clientFieldProblems,
      summary: 'Change a client (any valid change also reactivates it). Answers the whole client.',
      body: ClientUpdateBody,
      answer: Success(Client),
      errors: { 400: errors, ...duplicates },
      write: async (request) => (await clients.update(teamOf(request), request.params.id, request.body)).client,
    });
    routes.remove({
      operationId: 'deactivatePanelClient',
      summary: 'Deactivate a client (kept, status inactive)',
      answer: Success(ClientDeactivated),
      write: async (request) => {
        const { client, deactivatedAt } = await clients.deactivate(teamOf(request), request.params.id);
        return { id: client.id, status: 'inactive' as const, deactivated_at: deactivatedAt };
      },
    });
    routes.write('POST', '/:id/reactivate', {
      operationId: 'reactivatePanelClient',
      summary: 'Reactivate an inactive client (the client service reactivates on a PUT; this one sends its current name)',
      answer: Success(Client),
      write: async (request) => {
        const current = await clients.get(teamOf(request), request.params.id);
        return (await clients.update(teamOf(request), current.id, { name: current.name })).client;
      },
    });
    routes.read('/:id/overview', {
      operationId: 'getClientOverview',
      summary: 'A client with its deals, activities and financial records (first 20 of each)',
      answer: Success(ClientOverview),
      read: async (request) => {
        const team = teamOf(request);
        const client = await clients.get(team, request.params.id);
        const money = seesMoneyOfTheStore(roleOf(request));
        const [dealPage, activityPage, financialPage] = await Promise.all([
          deals.list(team, { client_id: client.id, limit: 20 }),
          activities.list(team, { client_id: client.id, limit: 20, sort: 'due_at' }),
          money ? financial.list(team, { client_id: client.id, limit: 20, sort: 'due_date' }) : null,
        ]);
        return {
          client,
          deals: dealPage.data,
          activities: await agendaRows(activities, boards, team, activityPage.data),
          ...(financialPage && { financial: financialPage.data.map(await overdueFlag(boards, team)) }),
        };
      },
    });
  };
}
