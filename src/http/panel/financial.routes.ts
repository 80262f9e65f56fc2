import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { BoardsService } from '../../domain/boards/boards.service.js';
import type { FinancialService } from '../../domain/financial/financial.service.js';
import { FINANCIAL_CATEGORIES, FINANCIAL_TYPES, PAYMENT_METHODS, type FinancialCreateInput } from '../../domain/financial/financial.types.js';
import { crudRoutes } from '../crud-routes.js';
import { requireType } from '../require-type.js';
import { FinancialCreateBody, FinancialListQuery, FinancialSummary, FinancialUpdateBody, SummaryQuery } from '../schemas/agenda.schema.js';
import { Page } from '../schemas/responses.schema.js';
import { invalid, manager, panelSurface, teamOf } from './panel-surface.js';
import { Success } from './panel.schemas.js';
import { overdueFlag, PanelFinancialRecord } from './record-flags.js';

const closed = { additionalProperties: false } as const;
const PanelFinancialQuery = Type.Object({
  ...FinancialListQuery.properties,
  overdue: Type.Optional(Type.Boolean({ description: 'Only pending records past their due date.' })),
  from: Type.Optional(Type.String({ format: 'date', description: 'First due date (inclusive).' })),
  to: Type.Optional(Type.String({ format: 'date', description: 'Last due date (inclusive).' })),
});
const VehicleMargin = FinancialSummary.properties.by_vehicle.items;
/** The summary with each vehicle's title and plate (the margin table names its cars). */
const PanelFinancialSummary = Type.Object(
  {
    ...FinancialSummary.properties,
    by_vehicle: Type.Array(
      Type.Object(
        {
          ...VehicleMargin.properties,
          title: Type.Union([Type.String(), Type.Null()], { description: 'The vehicle’s title (null: not found).' }),
          plate: Type.Union([Type.String(), Type.Null()]),
        },
        {
          ...closed,
          description: 'margin = sale revenue (venda-veiculo) − purchase price − costs linked to the vehicle; null when the purchase price is unknown.',
        },
      ),
    ),
  },
  { ...closed, title: 'PanelFinancialSummary' },
);
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
const categories = () => ({
  ...(Object.fromEntries(FINANCIAL_TYPES.map((t) => [t, [...FINANCIAL_CATEGORIES[t]]])) as Record<(typeof FINANCIAL_TYPES)[number], string[]>),
  payment_methods: [...PAYMENT_METHODS],
});

/** The financial records with the panel's overdue flag, and their summary: every write is the financial service's. */
export function financialRoutes({
  financial,
  boards,
}: {
  financial: FinancialService;
  boards: Pick<BoardsService, 'now' | 'timeZone'>;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    // Financeiro is a manager's and an owner's: a seller never sees what the store paid or earned.
    const routes = crudRoutes(app, panelSurface({ tags: ['Financeiro'], read: manager, notFound: 'Lançamento financeiro não encontrado' }), '/financial');
    routes.list({
      operationId: 'listPanelFinancial',
      summary: 'Financial records: type, category, status, overdue, period (from/to: due dates, inclusive)',
      querystring: PanelFinancialQuery,
      answer: Page(PanelFinancialRecord),
      errors: { 400: invalid(['VALIDATION_ERROR', 'Status inválido']) },
      read: async (request) => {
        const { overdue, from, to, ...q } = request.query;
        const team = teamOf(request);
        const answer = await financial.list(team, { ...q, due_from: q.due_from ?? from, due_to: q.due_to ?? to }, { overdue: overdue === true });
        return { data: answer.data.map(await overdueFlag(boards, team)), pagination: answer.pagination };
      },
    });
    routes.read('/summary', {
      operationId: 'getPanelFinancialSummary',
      summary: 'The summary of a period (default: this month): per type, status, category, month, and the margin per vehicle',
      querystring: SummaryQuery,
      answer: Success(PanelFinancialSummary),
      errors: { 400: invalid(['VALIDATION_ERROR', 'Data inválida']) },
      read: (request) => financial.summary(teamOf(request), request.query, { vehicleNames: true }),
    });
    routes.read('/categories', {
      operationId: 'getFinancialCategories',
      summary: 'The categories of each type and the payment methods',
      answer: Success(Categories),
      read: async () => categories(),
    });
    routes.create({
      operationId: 'createPanelFinancial',
      summary: 'Create a financial record',
      body: FinancialCreateBody,
      answer: Success(PanelFinancialRecord),
      errors: { 400: invalid(['VALIDATION_ERROR', "Campo 'type' é obrigatório. Use: revenue, expense, cost"]) },
      write: async (request) => {
        requireType(request.body, FINANCIAL_TYPES);
        const record = await financial.create(teamOf(request), request.body as FinancialCreateInput);
        return (await overdueFlag(boards, teamOf(request)))(record);
      },
    });
    routes.get({
      operationId: 'getPanelFinancial',
      summary: 'A financial record',
      answer: Success(PanelFinancialRecord),
      read: async (request) => (await overdueFlag(boards, teamOf(request)))(await financial.get(teamOf(request), request.params.id)),
    });
    routes.update({
      operationId: 'updatePanelFinancial',
      summary: 'Change a financial record',
      body: FinancialUpdateBody,
      answer: Success(PanelFinancialRecord),
      errors: { 400: invalid(['VALIDATION_ERROR', 'Nenhum campo para atualizar']) },
      write: async (request) => (await overdueFlag(boards, teamOf(request)))((await financial.update(teamOf(request), request.params.id, request.body)).record),
    });
    routes.remove({
      operationId: 'cancelPanelFinancial',
      summary: 'Cancel a financial record (kept, status cancelled)',
      answer: Success(PanelFinancialRecord),
      write: async (request) => (await overdueFlag(boards, teamOf(request)))((await financial.cancel(teamOf(request), request.params.id)).record),
    });
    routes.write('POST', '/:id/pay', {
      operationId: 'payPanelFinancial',
      summary: 'Mark a record paid with its payment method (emits financial.paid)',
      body: PayBody,
      answer: Success(PanelFinancialRecord),
      errors: { 400: invalid(['VALIDATION_ERROR', 'Forma de pagamento inválida']) },
      write: async (request) => (await overdueFlag(boards, teamOf(request)))((await financial.pay(teamOf(request), request.params.id, request.body)).record),
    });
  };
}
