import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { nullable } from '../schemas/common.schema.js';
import type { ActivitiesService } from '../../domain/activities/activities.service.js';
import { ACTIVITY_TYPES, OPEN_ACTIVITY_STATUSES, type ActivityCreateInput, type ActivityView } from '../../domain/activities/activities.types.js';
import type { BoardsService } from '../../domain/boards/boards.service.js';
import type { ClientsService } from '../../domain/clients/clients.service.js';
import type { DealsService } from '../../domain/deals/deals.service.js';
import type { FinancialService } from '../../domain/financial/financial.service.js';
import {
  FINANCIAL_CATEGORIES,
  FINANCIAL_TYPES,
  PAYMENT_METHODS,
  type FinancialCreateInput,
  type FinancialView,
} from '../../domain/financial/financial.types.js';
import { dayIn, endOfDay, startOfDay } from '../../domain/shared/time-zone.js';
import { DUE_SOON_MS } from '../../domain/schedule/schedule.types.js';
import type { VehiclesService } from '../../domain/vehicles/vehicles.service.js';
import { requireType } from '../routes/preview.routes.js';
import {
  Activity,
  ActivityCreateBody,
  ActivityListQuery,
  ActivityUpdateBody,
  FinancialCreateBody,
  FinancialListQuery,
  FinancialRecord,
  FinancialSummary,
  FinancialUpdateBody,
  SummaryQuery,
} from '../schemas/agenda.schema.js';
import { ClientCreateBody, ClientListQuery, ClientUpdateBody } from '../schemas/clients.schema.js';
import { Client, ClientDeactivated, ClientListItem, Deal, Page, Vehicle, VehicleArchived } from '../schemas/responses.schema.js';
import { VehicleCreateBody, VehicleListQuery, VehicleUpdateBody } from '../schemas/vehicles.schema.js';
import { guarded, invalid, missing, seller } from './deals.routes.js';
import { panelOf } from './panel-auth.js';
import { CardPage, IdParams, PhaseParams, Success, VehicleBoardQuery, VehicleCard, VehicleColumn, VehicleColumnQuery } from './panel.schemas.js';

export interface RecordsDeps {
  boards: BoardsService;
  deals: DealsService;
  vehicles: VehiclesService;
  clients: ClientsService;
  activities: ActivitiesService;
  financial: FinancialService;
}

const closed = { additionalProperties: false } as const;
const teamOf = (request: FastifyRequest) => panelOf(request).team.id;
const ok = <T>(data: T) => ({ success: true as const, data });

const AgendaActivity = Type.Object(
  {
    ...Activity.properties,
    is_overdue: Type.Boolean({ description: 'Open and past its due time.' }),
    is_due_soon: Type.Boolean({ description: 'Open and due within the next 24 hours.' }),
  },
  { ...closed, title: 'AgendaActivity' },
);
const PanelFinancialRecord = Type.Object(
  { ...FinancialRecord.properties, is_overdue: Type.Boolean({ description: 'Pending and its due date has passed (team time zone).' }) },
  { ...closed, title: 'PanelFinancialRecord' },
);
const AGENDA_VIEWS = ['today', 'overdue', 'upcoming', 'all'] as const;
const AgendaQuery = Type.Object({
  ...ActivityListQuery.properties,
  view: Type.Optional(
    Type.Enum([...AGENDA_VIEWS], {
      description: 'today (due today, team time zone), overdue (open, past due), upcoming (due after today, open), all. Default all.',
    }),
  ),
});
const PanelFinancialQuery = Type.Object({
  ...FinancialListQuery.properties,
  overdue: Type.Optional(Type.Boolean({ description: 'Only pending records past their due date.' })),
  from: Type.Optional(Type.String({ format: 'date', description: 'First due date (inclusive).' })),
  to: Type.Optional(Type.String({ format: 'date', description: 'Last due date (inclusive).' })),
});
const PayBody = Type.Object(
  {
    payment_method: Type.Enum([...PAYMENT_METHODS]),
    paid_at: Type.Optional(Type.String({ format: 'date-time', maxLength: 64, description: 'Default: now.' })),
  },
  closed,
);
const Categories = Type.Object(
  {
    revenue: Type.Array(Type.String()),
    expense: Type.Array(Type.String()),
    cost: Type.Array(Type.String()),
    payment_methods: Type.Array(Type.String()),
  },
  closed,
);
const ClientOverview = Type.Object(
  {
    client: Client,
    deals: Type.Array(Deal, { description: "The client's first 20 deals, newest first." }),
    activities: Type.Array(AgendaActivity, { description: "The client's first 20 activities by due time." }),
    financial: Type.Array(PanelFinancialRecord, { description: "The client's first 20 records by due date." }),
  },
  closed,
);

const MoneyCount = Type.Object({ count: Type.Integer(), value: Type.Number() }, closed);
const Dashboard = Type.Object(
  {
    pipeline: Type.Array(Type.Object({ phase: Type.String(), count: Type.Integer(), total_value: Type.Number() }, closed), {
      description: 'ativo deals per phase.',
    }),
    won_this_month: MoneyCount,
    lost_this_month: MoneyCount,
    conversion_rate: nullable(Type.Number({ description: 'Percent (one decimal) of the deals closed this month that were won; null when none closed.' })),
    stock: Type.Array(Type.Object({ phase: Type.String(), count: Type.Integer() }, closed), { description: 'Vehicles in stock (ativo) per phase.' }),
    average_days_in_stock: nullable(Type.Number({ description: 'Mean days since the vehicles in stock were registered (one decimal).' })),
    overdue_activities: Type.Integer(),
    overdue_receivables: Type.Object({ count: Type.Integer(), amount: Type.Number() }, closed),
  },
  { ...closed, title: 'Dashboard' },
);

const vehicleErrors = invalid(['VALIDATION_ERROR', 'Placa inválida'], ['VALIDATION_ERROR', 'RENAVAM inválido'], ['VALIDATION_ERROR', 'Chassi inválido']);
const vehicleDuplicates = {
  422: invalid(['DUPLICATE_ENTRY', 'Placa já cadastrada'], ['DUPLICATE_ENTRY', 'Chassi já cadastrado'], ['DUPLICATE_ENTRY', 'RENAVAM já cadastrado']),
};
const clientErrors = invalid(['VALIDATION_ERROR', 'CPF inválido'], ['VALIDATION_ERROR', 'CNPJ inválido']);
const clientDuplicates = { 422: invalid(['DUPLICATE_ENTRY', 'CPF já cadastrado']) };

/** Vehicles (board and records), clients, the agenda and the financial records of the panel: every read and write is the records' own service. */
export function recordsRoutes(s: RecordsDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const withAgenda = (_request: FastifyRequest) => {
      const now = s.boards.now();
      return (a: ActivityView) => {
        const open = (OPEN_ACTIVITY_STATUSES as readonly string[]).includes(a.status) && a.due_at !== null;
        const due = open ? new Date(a.due_at!).getTime() : NaN;
        return { ...a, is_overdue: open && due < now.getTime(), is_due_soon: open && due >= now.getTime() && due - now.getTime() <= DUE_SOON_MS };
      };
    };
    const withOverdue = async (request: FastifyRequest) => {
      const today = dayIn(s.boards.now(), await s.boards.timeZone(teamOf(request)));
      return (r: FinancialView) => ({ ...r, is_overdue: r.status === 'pending' && r.due_date < today });
    };

    app.get(
      '/dashboard',
      {
        config: seller,
        schema: {
          tags: ['Início'],
          operationId: 'getDashboard',
          summary: 'The home page: pipeline by phase, deals won and lost this month, conversion, stock, overdue activities and receivables',
          description: "Months are the team time zone's. A deal counts as won or lost in the month of its last change (no closing date is stored).",
          response: { 200: Success(Dashboard), ...guarded },
        },
      },
      async (request) => ok(await s.boards.dashboard(teamOf(request))),
    );

    // ---- Vehicles ----------------------------------------------------------------------------
    const vtags = ['Veículos'];
    app.get(
      '/vehicles/board',
      {
        config: seller,
        schema: {
          tags: vtags,
          operationId: 'getVehiclesBoard',
          summary: 'The vehicle board: one column per phase (vehicles in stock, status ativo), longest in stock first',
          querystring: VehicleBoardQuery,
          response: { 200: Success(Type.Object({ columns: Type.Array(VehicleColumn) }, closed)), ...guarded },
        },
      },
      async (request) => {
        const { per_column = 20, ...filters } = request.query;
        return ok(await s.boards.vehiclesBoard(teamOf(request), filters, per_column));
      },
    );
    app.get(
      '/vehicles/board/:phase',
      {
        config: seller,
        schema: {
          tags: vtags,
          operationId: 'getVehiclesColumn',
          summary: 'More cards of one column of the vehicle board',
          params: PhaseParams,
          querystring: VehicleColumnQuery,
          response: { 200: Success(CardPage(VehicleCard)), ...guarded },
        },
      },
      async (request) => {
        const { offset = 0, limit = 20, ...filters } = request.query;
        return ok(await s.boards.vehiclesColumn(teamOf(request), request.params.phase, filters, offset, limit));
      },
    );
    app.get(
      '/vehicles',
      {
        config: seller,
        schema: {
          tags: vtags,
          operationId: 'listPanelVehicles',
          summary: 'The vehicles list (the API list)',
          querystring: VehicleListQuery,
          response: { 200: Page(Vehicle), 400: invalid(['VALIDATION_ERROR', 'Status inválido']), ...guarded },
        },
      },
      async (request) => ({ success: true as const, ...(await s.vehicles.list(teamOf(request), request.query)) }),
    );
    app.post(
      '/vehicles',
      {
        config: seller,
        schema: {
          tags: vtags,
          operationId: 'createPanelVehicle',
          summary: 'Register a vehicle (emits vehicle.created)',
          body: VehicleCreateBody,
          response: { 201: Success(Vehicle), 400: vehicleErrors, ...vehicleDuplicates, ...guarded },
        },
      },
      async (request, reply) => reply.status(201).send(ok(await s.vehicles.create(teamOf(request), request.body))),
    );
    app.get(
      '/vehicles/:id',
      {
        config: seller,
        schema: {
          tags: vtags,
          operationId: 'getPanelVehicle',
          summary: 'A vehicle',
          params: IdParams,
          response: { 200: Success(Vehicle), ...missing('Veículo não encontrado'), ...guarded },
        },
      },
      async (request) => ok(await s.vehicles.get(teamOf(request), request.params.id)),
    );
    app.put(
      '/vehicles/:id',
      {
        config: seller,
        schema: {
          tags: vtags,
          operationId: 'updatePanelVehicle',
          summary: 'Change a vehicle: move ({phase}), mark sold ({status:"vendido"}), edit. Answers the whole vehicle.',
          params: IdParams,
          body: VehicleUpdateBody,
          response: { 200: Success(Vehicle), 400: vehicleErrors, ...vehicleDuplicates, ...missing('Veículo não encontrado'), ...guarded },
        },
      },
      async (request) => ok((await s.vehicles.update(teamOf(request), request.params.id, request.body)).vehicle),
    );
    app.delete(
      '/vehicles/:id',
      {
        config: seller,
        schema: {
          tags: vtags,
          operationId: 'archivePanelVehicle',
          summary: 'Archive a vehicle',
          params: IdParams,
          response: { 200: Success(VehicleArchived), ...missing('Veículo não encontrado'), ...guarded },
        },
      },
      async (request) => {
        const { vehicle, archivedAt } = await s.vehicles.archive(teamOf(request), request.params.id);
        return ok({ id: vehicle.id, status: 'arquivado' as const, archived_at: archivedAt });
      },
    );

    // ---- Clients -----------------------------------------------------------------------------
    const ctags = ['Clientes'];
    app.get(
      '/clients',
      {
        config: seller,
        schema: {
          tags: ctags,
          operationId: 'listPanelClients',
          summary: 'The clients list: search by name, e-mail, CPF/CNPJ (with or without punctuation)',
          querystring: ClientListQuery,
          response: { 200: Page(ClientListItem), 400: invalid(['VALIDATION_ERROR', 'Status inválido']), ...guarded },
        },
      },
      async (request) => ({ success: true as const, ...(await s.clients.list(teamOf(request), request.query)) }),
    );
    app.post(
      '/clients',
      {
        config: seller,
        schema: {
          tags: ctags,
          operationId: 'createPanelClient',
          summary: 'Register a client (PF or PJ)',
          body: ClientCreateBody,
          response: { 201: Success(Client), 400: clientErrors, ...clientDuplicates, ...guarded },
        },
      },
      async (request, reply) => reply.status(201).send(ok(await s.clients.create(teamOf(request), request.body))),
    );
    app.get(
      '/clients/:id',
      {
        config: seller,
        schema: {
          tags: ctags,
          operationId: 'getPanelClient',
          summary: 'A client',
          params: IdParams,
          response: { 200: Success(Client), ...missing('Cliente não encontrado'), ...guarded },
        },
      },
      async (request) => ok(await s.clients.get(teamOf(request), request.params.id)),
    );
    app.put(
      '/clients/:id',
      {
        config: seller,
        schema: {
          tags: ctags,
          operationId: 'updatePanelClient',
          summary: 'Change a client (any valid change also reactivates it). Answers the whole client.',
          params: IdParams,
          body: ClientUpdateBody,
          response: { 200: Success(Client), 400: clientErrors, ...clientDuplicates, ...missing('Cliente não encontrado'), ...guarded },
        },
      },
      async (request) => ok((await s.clients.update(teamOf(request), request.params.id, request.body)).client),
    );
    app.delete(
      '/clients/:id',
      {
        config: seller,
        schema: {
          tags: ctags,
          operationId: 'deactivatePanelClient',
          summary: 'Deactivate a client (kept, status inactive)',
          params: IdParams,
          response: { 200: Success(ClientDeactivated), ...missing('Cliente não encontrado'), ...guarded },
        },
      },
      async (request) => {
        const { client, deactivatedAt } = await s.clients.deactivate(teamOf(request), request.params.id);
        return ok({ id: client.id, status: 'inactive' as const, deactivated_at: deactivatedAt });
      },
    );
    app.post(
      '/clients/:id/reactivate',
      {
        config: seller,
        schema: {
          tags: ctags,
          operationId: 'reactivatePanelClient',
          summary: 'Reactivate an inactive client (the client service reactivates on a PUT; this one sends its current name)',
          params: IdParams,
          response: { 200: Success(Client), ...missing('Cliente não encontrado'), ...guarded },
        },
      },
      async (request) => {
        const current = await s.clients.get(teamOf(request), request.params.id);
        return ok((await s.clients.update(teamOf(request), current.id, { name: current.name })).client);
      },
    );
    app.get(
      '/clients/:id/overview',
      {
        config: seller,
        schema: {
          tags: ctags,
          operationId: 'getClientOverview',
          summary: 'A client with its deals, activities and financial records (first 20 of each)',
          params: IdParams,
          response: { 200: Success(ClientOverview), ...missing('Cliente não encontrado'), ...guarded },
        },
      },
      async (request) => {
        const team = teamOf(request);
        const client = await s.clients.get(team, request.params.id);
        const [deals, activities, financial] = await Promise.all([
          s.deals.list(team, { client_id: client.id, limit: 20 }),
          s.activities.list(team, { client_id: client.id, limit: 20, sort: 'due_at' }),
          s.financial.list(team, { client_id: client.id, limit: 20, sort: 'due_date' }),
        ]);
        return ok({
          client,
          deals: deals.data,
          activities: activities.data.map(withAgenda(request)),
          financial: financial.data.map(await withOverdue(request)),
        });
      },
    );

    // ---- Agenda ------------------------------------------------------------------------------
    const atags = ['Agenda'];
    const activityMissing = missing('Atividade não encontrada');
    app.get(
      '/activities',
      {
        config: seller,
        schema: {
          tags: atags,
          operationId: 'listAgenda',
          summary: 'The agenda: activities of today, overdue, upcoming or all (by responsible, deal, client, vehicle)',
          querystring: AgendaQuery,
          response: { 200: Page(AgendaActivity), 400: invalid(['VALIDATION_ERROR', 'Status inválido']), ...guarded },
        },
      },
      async (request) => {
        const { view = 'all', ...q } = request.query;
        const zone = await s.boards.timeZone(teamOf(request));
        const today = dayIn(s.boards.now(), zone);
        const open = q.status ?? undefined;
        const answer =
          view === 'overdue'
            ? await s.activities.list(teamOf(request), q, { overdue: true })
            : view === 'today'
              ? await s.activities.list(
                  teamOf(request),
                  { sort: 'due_at', ...q },
                  { dueFrom: startOfDay(today, zone).toISOString(), dueBefore: endOfDay(today, zone).toISOString() },
                )
              : view === 'upcoming'
                ? await s.activities.list(
                    teamOf(request),
                    { sort: 'due_at', ...q, status: open ?? 'pending' },
                    { dueFrom: endOfDay(today, zone).toISOString() },
                  )
                : await s.activities.list(teamOf(request), q);
        return { success: true as const, data: answer.data.map(withAgenda(request)), pagination: answer.pagination };
      },
    );
    app.post(
      '/activities',
      {
        config: seller,
        schema: {
          tags: atags,
          operationId: 'createPanelActivity',
          summary: 'Create an activity (from a deal, client or vehicle with deal_id / client_id / vehicle_id)',
          body: ActivityCreateBody,
          response: {
            201: Success(AgendaActivity),
            400: invalid(['VALIDATION_ERROR', "Campo 'due_at' é obrigatório (exceto para o tipo 'note')"], ['VALIDATION_ERROR', 'Negócio não encontrado']),
            ...guarded,
          },
        },
      },
      async (request, reply) => {
        requireType(request.body, ACTIVITY_TYPES);
        const activity = await s.activities.create(teamOf(request), request.body as ActivityCreateInput);
        return reply.status(201).send(ok(withAgenda(request)(activity)));
      },
    );
    app.get(
      '/activities/:id',
      {
        config: seller,
        schema: {
          tags: atags,
          operationId: 'getPanelActivity',
          summary: 'An activity',
          params: IdParams,
          response: { 200: Success(AgendaActivity), ...activityMissing, ...guarded },
        },
      },
      async (request) => ok(withAgenda(request)(await s.activities.get(teamOf(request), request.params.id))),
    );
    app.put(
      '/activities/:id',
      {
        config: seller,
        schema: {
          tags: atags,
          operationId: 'updatePanelActivity',
          summary: 'Change an activity',
          params: IdParams,
          body: ActivityUpdateBody,
          response: {
            200: Success(AgendaActivity),
            400: invalid(['VALIDATION_ERROR', 'Nenhum campo para atualizar']),
            422: invalid(['VALIDATION_ERROR', 'Atividade cancelada não pode ser concluída']),
            ...activityMissing,
            ...guarded,
          },
        },
      },
      async (request) => ok(withAgenda(request)((await s.activities.update(teamOf(request), request.params.id, request.body)).activity)),
    );
    app.delete(
      '/activities/:id',
      {
        config: seller,
        schema: {
          tags: atags,
          operationId: 'cancelPanelActivity',
          summary: 'Cancel an activity (kept, status cancelled)',
          params: IdParams,
          response: { 200: Success(AgendaActivity), ...activityMissing, ...guarded },
        },
      },
      async (request) => ok(withAgenda(request)((await s.activities.cancel(teamOf(request), request.params.id)).activity)),
    );
    app.post(
      '/activities/:id/complete',
      {
        config: seller,
        schema: {
          tags: atags,
          operationId: 'completePanelActivity',
          summary: 'Complete an activity (emits activity.completed once)',
          params: IdParams,
          response: {
            200: Success(AgendaActivity),
            422: invalid(['VALIDATION_ERROR', 'Atividade cancelada não pode ser concluída']),
            ...activityMissing,
            ...guarded,
          },
        },
      },
      async (request) => ok(withAgenda(request)((await s.activities.complete(teamOf(request), request.params.id)).activity)),
    );

    // ---- Financial ---------------------------------------------------------------------------
    const ftags = ['Financeiro'];
    const recordMissing = missing('Lançamento financeiro não encontrado');
    app.get(
      '/financial',
      {
        config: seller,
        schema: {
          tags: ftags,
          operationId: 'listPanelFinancial',
          summary: 'Financial records: type, category, status, overdue, period (from/to: due dates, inclusive)',
          querystring: PanelFinancialQuery,
          response: { 200: Page(PanelFinancialRecord), 400: invalid(['VALIDATION_ERROR', 'Status inválido']), ...guarded },
        },
      },
      async (request) => {
        const { overdue, from, to, ...q } = request.query;
        const answer = await s.financial.list(teamOf(request), { ...q, due_from: q.due_from ?? from, due_to: q.due_to ?? to }, { overdue: overdue === true });
        return { success: true as const, data: answer.data.map(await withOverdue(request)), pagination: answer.pagination };
      },
    );
    app.get(
      '/financial/summary',
      {
        config: seller,
        schema: {
          tags: ftags,
          operationId: 'getPanelFinancialSummary',
          summary: 'The summary of a period (default: this month): per type, status, category, month, and the margin per vehicle',
          querystring: SummaryQuery,
          response: { 200: Success(FinancialSummary), 400: invalid(['VALIDATION_ERROR', 'Data inválida']), ...guarded },
        },
      },
      async (request) => ok(await s.financial.summary(teamOf(request), request.query)),
    );
    app.get(
      '/financial/categories',
      {
        config: seller,
        schema: {
          tags: ftags,
          operationId: 'getFinancialCategories',
          summary: 'The categories of each type and the payment methods',
          response: { 200: Success(Categories), ...guarded },
        },
      },
      async () =>
        ok({
          ...(Object.fromEntries(FINANCIAL_TYPES.map((t) => [t, [...FINANCIAL_CATEGORIES[t]]])) as Record<(typeof FINANCIAL_TYPES)[number], string[]>),
          payment_methods: [...PAYMENT_METHODS],
        }),
    );
    app.post(
      '/financial',
      {
        config: seller,
        schema: {
          tags: ftags,
          operationId: 'createPanelFinancial',
          summary: 'Create a financial record',
          body: FinancialCreateBody,
          response: {
            201: Success(PanelFinancialRecord),
            400: invalid(['VALIDATION_ERROR', "Campo 'type' é obrigatório. Use: revenue, expense, cost"]),
            ...guarded,
          },
        },
      },
      async (request, reply) => {
        requireType(request.body, FINANCIAL_TYPES);
        const record = await s.financial.create(teamOf(request), request.body as FinancialCreateInput);
        return reply.status(201).send(ok((await withOverdue(request))(record)));
      },
    );
    app.get(
      '/financial/:id',
      {
        config: seller,
        schema: {
          tags: ftags,
          operationId: 'getPanelFinancial',
          summary: 'A financial record',
          params: IdParams,
          response: { 200: Success(PanelFinancialRecord), ...recordMissing, ...guarded },
        },
      },
      async (request) => ok((await withOverdue(request))(await s.financial.get(teamOf(request), request.params.id))),
    );
    app.put(
      '/financial/:id',
      {
        config: seller,
        schema: {
          tags: ftags,
          operationId: 'updatePanelFinancial',
          summary: 'Change a financial record',
          params: IdParams,
          body: FinancialUpdateBody,
          response: { 200: Success(PanelFinancialRecord), 400: invalid(['VALIDATION_ERROR', 'Nenhum campo para atualizar']), ...recordMissing, ...guarded },
        },
      },
      async (request) => ok((await withOverdue(request))((await s.financial.update(teamOf(request), request.params.id, request.body)).record)),
    );
    app.delete(
      '/financial/:id',
      {
        config: seller,
        schema: {
          tags: ftags,
          operationId: 'cancelPanelFinancial',
          summary: 'Cancel a financial record (kept, status cancelled)',
          params: IdParams,
          response: { 200: Success(PanelFinancialRecord), ...recordMissing, ...guarded },
        },
      },
      async (request) => ok((await withOverdue(request))((await s.financial.cancel(teamOf(request), request.params.id)).record)),
    );
    app.post(
      '/financial/:id/pay',
      {
        config: seller,
        schema: {
          tags: ftags,
          operationId: 'payPanelFinancial',
          summary: 'Mark a record paid with its payment method (emits financial.paid)',
          params: IdParams,
          body: PayBody,
          response: { 200: Success(PanelFinancialRecord), 400: invalid(['VALIDATION_ERROR', 'Forma de pagamento inválida']), ...recordMissing, ...guarded },
        },
      },
      async (request) => ok((await withOverdue(request))((await s.financial.pay(teamOf(request), request.params.id, request.body)).record)),
    );
  };
}
