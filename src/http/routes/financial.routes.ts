import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FinancialService } from '../../domain/financial/financial.service.js';
import { FINANCIAL_TYPES, type FinancialCreateInput } from '../../domain/financial/financial.types.js';
import { messages } from '../../domain/shared/errors.js';
import { teamOf } from '../auth.js';
import { crudRoutes } from '../crud-routes.js';
import { REPLAYED_HEADER, errors, ok } from '../openapi/route-docs.js';
import { requireType } from '../require-type.js';
import { FinancialCreateBody, FinancialListQuery, FinancialRecord, FinancialSummary, FinancialUpdateBody, SummaryQuery } from '../schemas/agenda.schema.js';
import { Page, Success } from '../schemas/responses.schema.js';
import { previewSurface } from './preview-surface.js';

const paymentMethodRequired = ['VALIDATION_ERROR', "Campo 'payment_method' é obrigatório para marcar como pago", { field: 'payment_method' }] as const;

/** Financial records (preview area `financial`). */
export function financialRoutes(financial: FinancialService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const routes = crudRoutes(app, previewSurface('financial', messages.financialNotFound, { idempotentCreate: true }), '/financial');
    routes.list({
      operationId: 'listFinancialRecords',
      summary: 'List financial records',
      description: 'Cancelled records are left out unless `status=cancelled`. due_from and due_to are inclusive.',
      querystring: FinancialListQuery,
      answer: ok(Page(FinancialRecord), "A page of the team's financial records."),
      read: (request) => financial.list(teamOf(request), request.query),
    });
    routes.list({
      sub: '/overdue',
      operationId: 'listOverdueFinancialRecords',
      summary: 'List overdue financial records',
      description: "Pending records whose due date has ended in the team's time zone, earliest first; the list filters apply.",
      querystring: FinancialListQuery,
      answer: ok(Page(FinancialRecord), 'A page of overdue records.'),
      read: (request) => financial.list(teamOf(request), request.query, { overdue: true }),
    });
    routes.read('/summary', {
      operationId: 'getFinancialSummary',
      summary: 'Financial summary of a period',
      description:
        'Figures of the records due in a period (default: the current month in the team time zone), summed in exact cents: totals per type and net, count and amount per status (overdue apart), per category, per month, and the margin per vehicle.',
      querystring: SummaryQuery,
      answer: ok(Success(FinancialSummary), 'The summary.'),
      errors: { 400: errors.badRequest(['VALIDATION_ERROR', "Parâmetro 'from' deve ser anterior ou igual a 'to'", { field: 'from' }]) },
      read: (request) => financial.summary(teamOf(request), request.query),
    });
    routes.create({
      operationId: 'createFinancialRecord',
      summary: 'Create a financial record',
      description:
        '`type`, `category` (of that type), `description`, `amount` (> 0) and `due_date` are required. Starts `pending` unless sent `paid` (with `payment_method`). Emits `financial.created` (and `financial.paid`).',
      body: FinancialCreateBody,
      answer: ok(Success(FinancialRecord), 'The created record.', REPLAYED_HEADER),
      errors: {
        400: errors.badRequest(
          ['VALIDATION_ERROR', "Categoria inválida para o tipo 'revenue'. Use: venda-veiculo, comissao, financiamento, seguro", { field: 'category' }],
          [...paymentMethodRequired],
        ),
        422: errors.unprocessable(['VALIDATION_ERROR', 'Esta Idempotency-Key já foi usada com uma requisição diferente']),
      },
      write: (request, options) => {
        requireType(request.body, FINANCIAL_TYPES);
        return financial.create(teamOf(request), request.body as FinancialCreateInput, options);
      },
    });
    routes.get({
      operationId: 'getFinancialRecord',
      summary: 'Get a financial record',
      answer: ok(Success(FinancialRecord), 'The record.'),
      read: (request) => financial.get(teamOf(request), request.params.id),
    });
    routes.update({
      operationId: 'updateFinancialRecord',
      summary: 'Update (or pay) a financial record',
      description:
        'Any subset of the fields; answers the whole record. `status: paid` confirms the payment (`payment_method` required, `paid_at` defaults to now) and emits `financial.paid`; `cancelled` cancels; `pending` reopens. Moving `due_date` re-arms `financial.overdue`.',
      body: FinancialUpdateBody,
      answer: ok(Success(FinancialRecord), 'The record after the change.'),
      errors: {
        400: errors.badRequest(['VALIDATION_ERROR', 'Nenhum campo para atualizar'], [...paymentMethodRequired]),
        422: errors.unprocessable(['VALIDATION_ERROR', 'Registro financeiro cancelado não pode ser pago', { field: 'status' }]),
      },
      write: async (request) => (await financial.update(teamOf(request), request.params.id, request.body)).record,
    });
    routes.remove({
      operationId: 'cancelFinancialRecord',
      summary: 'Cancel a financial record',
      description: 'Cancels: the record is kept with status `cancelled`, leaves the totals and no longer becomes overdue. Idempotent.',
      answer: ok(Success(FinancialRecord), 'The cancelled record.'),
      write: async (request) => (await financial.cancel(teamOf(request), request.params.id)).record,
    });
  };
}
