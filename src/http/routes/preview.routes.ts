import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { ActivitiesService } from '../../domain/activities/activities.service.js';
import { ACTIVITY_TYPES, type ActivityCreateInput, type ActivityView } from '../../domain/activities/activities.types.js';
import type { FinancialService } from '../../domain/financial/financial.service.js';
import { FINANCIAL_TYPES, type FinancialCreateInput, type FinancialView } from '../../domain/financial/financial.types.js';
import { AppError, messages, validationError } from '../../domain/shared/errors.js';
import type { Scope } from '../../domain/teams/api-keys.types.js';
import type { TeamsService } from '../../domain/teams/teams.service.js';
import type { PreviewArea } from '../../domain/teams/teams.types.js';
import type { WebhooksService } from '../../domain/webhooks/webhooks.service.js';
import { teamOf } from '../auth.js';
import { answerInTransaction } from '../idempotency.js';
import { BEARER, REPLAYED_HEADER, authErrors, bodyErrors, errors, ok } from '../openapi/route-docs.js';
import {
  Activity,
  ActivityCreateBody,
  ActivityListQuery,
  ActivityUpdateBody,
  Deleted,
  FinancialCreateBody,
  FinancialListQuery,
  FinancialRecord,
  FinancialSummary,
  FinancialUpdateBody,
  SummaryQuery,
  Webhook,
  WebhookCreateBody,
  WebhookCreated,
  WebhookUpdateBody,
} from '../schemas/agenda.schema.js';
import { IdParams, IdempotencyHeaders } from '../schemas/common.schema.js';
import { Page, Success } from '../schemas/responses.schema.js';
import { Type } from 'typebox';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An announced endpoint served as a preview: 501 unless the area is on for the key's team, then this scope. */
    preview?: { area: PreviewArea; scope: Scope };
  }
}

export interface PreviewServices {
  teams: Pick<TeamsService, 'previewEnabled'>;
  activities: ActivitiesService;
  financial: FinancialService;
  webhooks: Pick<WebhooksService, 'create' | 'list' | 'updateForTeam' | 'removeForTeam'>;
}

const PREVIEW_NOTE =
  "**Preview.** Answers 501 NOT_IMPLEMENTED, exactly as an announced endpoint, unless an operator turned this area on for the key's team (`autosales teams preview --team ID --enable AREA`); then it needs the scope named here (not granted to keys by default).";

function doc(area: PreviewArea, scope: Scope, description = '') {
  return {
    tags: ['Preview'],
    security: BEARER,
    'x-preview': { area, scope },
    description: `${description ? `${description}\n\n` : ''}${PREVIEW_NOTE} Area \`${area}\`, scope \`${scope}\`.`,
  };
}

const gate = (area: PreviewArea, scope: Scope) => ({ auth: { scope: null }, preview: { area, scope } });
const notImplemented = { 501: errors.notImplemented };

export function requireType(body: { type?: string }, allowed: readonly string[]): void {
  if (body.type === undefined) throw validationError(`Campo 'type' é obrigatório. Use: ${allowed.join(', ')}`, 'type');
}

const success = <T>(data: T) => ({ success: true as const, data });

/**
 * The contract's announced endpoints (financial, activities, webhooks), served to a team only when an
 * operator turned its preview on. Every route keeps `auth: { scope: null }` so that, preview off, a
 * request is judged exactly as before: a valid key, then 501. The gate runs before validation, so
 * neither a query string nor a body can change that answer.
 */
export function previewRoutes(s: PreviewServices): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('preValidation', async (request: FastifyRequest) => {
      const preview = request.routeOptions.config.preview;
      if (!preview) return;
      const teamId = teamOf(request);
      if (!(await s.teams.previewEnabled(teamId, preview.area))) throw new AppError(501, 'NOT_IMPLEMENTED', messages.notImplemented);
      if (!request.auth?.scopes.has(preview.scope)) throw new AppError(403, 'FORBIDDEN', messages.forbidden);
    });

    // ---------------------------------------------------------------------------------------------
    // Activities
    const activityNotFound = { 404: errors.notFound(messages.activityNotFound) };

    app.get(
      '/activities',
      {
        config: gate('activities', 'activities:read'),
        schema: {
          ...doc('activities', 'activities:read', 'Cancelled activities are left out unless `status=cancelled`. due_from and due_to are UTC days, inclusive.'),
          operationId: 'listActivities',
          summary: 'List activities',
          querystring: ActivityListQuery,
          response: { ...authErrors, ...notImplemented, 200: ok(Page(Activity), "A page of the team's activities.") },
        },
      },
      async (request) => ({ success: true as const, ...(await s.activities.list(teamOf(request), request.query)) }),
    );

    app.get(
      '/activities/overdue',
      {
        config: gate('activities', 'activities:read'),
        schema: {
          ...doc('activities', 'activities:read', 'Pending or in-progress activities whose due time has passed, earliest first; the list filters apply.'),
          operationId: 'listOverdueActivities',
          summary: 'List overdue activities',
          querystring: ActivityListQuery,
          response: { ...authErrors, ...notImplemented, 200: ok(Page(Activity), 'A page of overdue activities.') },
        },
      },
      async (request) => ({ success: true as const, ...(await s.activities.list(teamOf(request), request.query, { overdue: true })) }),
    );

    app.post(
      '/activities',
      {
        config: { ...gate('activities', 'activities:write'), idempotent: true },
        schema: {
          ...doc('activities', 'activities:write', '`type` and `title` are required, and `due_at` except for notes. Emits `activity.created`.'),
          operationId: 'createActivity',
          summary: 'Create an activity',
          headers: IdempotencyHeaders,
          body: ActivityCreateBody,
          response: {
            ...authErrors,
            ...bodyErrors,
            ...notImplemented,
            201: ok(Success(Activity), 'The created activity.', REPLAYED_HEADER),
            400: errors.badRequest(
              ['VALIDATION_ERROR', "Campo 'type' é obrigatório. Use: task, deadline, meeting, call, email, note", { field: 'type' }],
              ['VALIDATION_ERROR', "Campo 'due_at' é obrigatório (exceto para o tipo 'note')", { field: 'due_at' }],
              ['VALIDATION_ERROR', 'Negócio não encontrado', { field: 'deal_id' }],
            ),
            409: errors.conflict,
            422: errors.unprocessable(['VALIDATION_ERROR', 'Esta Idempotency-Key já foi usada com uma requisição diferente']),
          },
        },
      },
      async (request, reply) => {
        requireType(request.body, ACTIVITY_TYPES);
        const activity = await s.activities.create(
          teamOf(request),
          request.body as ActivityCreateInput,
          answerInTransaction(request, 201, success<ActivityView>),
        );
        return reply.status(201).send(success(activity));
      },
    );

    app.get(
      '/activities/:id',
      {
        config: gate('activities', 'activities:read'),
        schema: {
          ...doc('activities', 'activities:read'),
          operationId: 'getActivity',
          summary: 'Get an activity',
          params: IdParams,
          response: { ...authErrors, ...notImplemented, 200: ok(Success(Activity), 'The activity.'), ...activityNotFound },
        },
      },
      async (request) => success(await s.activities.get(teamOf(request), request.params.id)),
    );

    app.put(
      '/activities/:id',
      {
        config: gate('activities', 'activities:write'),
        schema: {
          ...doc(
            'activities',
            'activities:write',
            'Any subset of the fields; answers the whole activity. `status` pending or in_progress (also reopens); completed completes (as /complete), cancelled cancels. Moving `due_at` re-arms `activity.due_soon` and `activity.overdue`.',
          ),
          operationId: 'updateActivity',
          summary: 'Update an activity',
          params: IdParams,
          body: ActivityUpdateBody,
          response: {
            ...authErrors,
            ...bodyErrors,
            ...notImplemented,
            200: ok(Success(Activity), 'The activity after the change.'),
            400: errors.badRequest(['VALIDATION_ERROR', 'Nenhum campo para atualizar']),
            ...activityNotFound,
            422: errors.unprocessable(['VALIDATION_ERROR', 'Atividade cancelada não pode ser concluída', { field: 'status' }]),
          },
        },
      },
      async (request) => success((await s.activities.update(teamOf(request), request.params.id, request.body)).activity),
    );

    app.delete(
      '/activities/:id',
      {
        config: gate('activities', 'activities:write'),
        schema: {
          ...doc(
            'activities',
            'activities:write',
            'Cancels: the activity is kept with status `cancelled` and its time-driven events are disarmed. Idempotent.',
          ),
          operationId: 'cancelActivity',
          summary: 'Cancel an activity',
          params: IdParams,
          response: { ...authErrors, ...bodyErrors, ...notImplemented, 200: ok(Success(Activity), 'The cancelled activity.'), ...activityNotFound },
        },
      },
      async (request) => success((await s.activities.cancel(teamOf(request), request.params.id)).activity),
    );

    app.put(
      '/activities/:id/complete',
      {
        config: gate('activities', 'activities:write'),
        schema: {
          ...doc(
            'activities',
            'activities:write',
            'Sets `completed_at` and emits `activity.completed` (once: completing again changes nothing). No body needed.',
          ),
          operationId: 'completeActivity',
          summary: 'Complete an activity',
          params: IdParams,
          response: {
            ...authErrors,
            ...bodyErrors,
            ...notImplemented,
            200: ok(Success(Activity), 'The completed activity.'),
            ...activityNotFound,
            422: errors.unprocessable(['VALIDATION_ERROR', 'Atividade cancelada não pode ser concluída']),
          },
        },
      },
      async (request) => success((await s.activities.complete(teamOf(request), request.params.id)).activity),
    );

    // ---------------------------------------------------------------------------------------------
    // Financial records
    const financialNotFound = { 404: errors.notFound(messages.financialNotFound) };

    app.get(
      '/financial',
      {
        config: gate('financial', 'financial:read'),
        schema: {
          ...doc('financial', 'financial:read', 'Cancelled records are left out unless `status=cancelled`. due_from and due_to are inclusive.'),
          operationId: 'listFinancialRecords',
          summary: 'List financial records',
          querystring: FinancialListQuery,
          response: { ...authErrors, ...notImplemented, 200: ok(Page(FinancialRecord), "A page of the team's financial records.") },
        },
      },
      async (request) => ({ success: true as const, ...(await s.financial.list(teamOf(request), request.query)) }),
    );

    app.get(
      '/financial/overdue',
      {
        config: gate('financial', 'financial:read'),
        schema: {
          ...doc('financial', 'financial:read', "Pending records whose due date has ended in the team's time zone, earliest first; the list filters apply."),
          operationId: 'listOverdueFinancialRecords',
          summary: 'List overdue financial records',
          querystring: FinancialListQuery,
          response: { ...authErrors, ...notImplemented, 200: ok(Page(FinancialRecord), 'A page of overdue records.') },
        },
      },
      async (request) => ({ success: true as const, ...(await s.financial.list(teamOf(request), request.query, { overdue: true })) }),
    );

    app.get(
      '/financial/summary',
      {
        config: gate('financial', 'financial:read'),
        schema: {
          ...doc(
            'financial',
            'financial:read',
            'Figures of the records due in a period (default: the current month in the team time zone), summed in exact cents: totals per type and net, count and amount per status (overdue apart), per category, per month, and the margin per vehicle.',
          ),
          operationId: 'getFinancialSummary',
          summary: 'Financial summary of a period',
          querystring: SummaryQuery,
          response: {
            ...authErrors,
            ...notImplemented,
            200: ok(Success(FinancialSummary), 'The summary.'),
            400: errors.badRequest(['VALIDATION_ERROR', "Parâmetro 'from' deve ser anterior ou igual a 'to'", { field: 'from' }]),
          },
        },
      },
      async (request) => success(await s.financial.summary(teamOf(request), request.query)),
    );

    app.post(
      '/financial',
      {
        config: { ...gate('financial', 'financial:write'), idempotent: true },
        schema: {
          ...doc(
            'financial',
            'financial:write',
            '`type`, `category` (of that type), `description`, `amount` (> 0) and `due_date` are required. Starts `pending` unless sent `paid` (with `payment_method`). Emits `financial.created` (and `financial.paid`).',
          ),
          operationId: 'createFinancialRecord',
          summary: 'Create a financial record',
          headers: IdempotencyHeaders,
          body: FinancialCreateBody,
          response: {
            ...authErrors,
            ...bodyErrors,
            ...notImplemented,
            201: ok(Success(FinancialRecord), 'The created record.', REPLAYED_HEADER),
            400: errors.badRequest(
              ['VALIDATION_ERROR', "Categoria inválida para o tipo 'revenue'. Use: venda-veiculo, comissao, financiamento, seguro", { field: 'category' }],
              ['VALIDATION_ERROR', "Campo 'payment_method' é obrigatório para marcar como pago", { field: 'payment_method' }],
            ),
            409: errors.conflict,
            422: errors.unprocessable(['VALIDATION_ERROR', 'Esta Idempotency-Key já foi usada com uma requisição diferente']),
          },
        },
      },
      async (request, reply) => {
        requireType(request.body, FINANCIAL_TYPES);
        const record = await s.financial.create(
          teamOf(request),
          request.body as FinancialCreateInput,
          answerInTransaction(request, 201, success<FinancialView>),
        );
        return reply.status(201).send(success(record));
      },
    );

    app.get(
      '/financial/:id',
      {
        config: gate('financial', 'financial:read'),
        schema: {
          ...doc('financial', 'financial:read'),
          operationId: 'getFinancialRecord',
          summary: 'Get a financial record',
          params: IdParams,
          response: { ...authErrors, ...notImplemented, 200: ok(Success(FinancialRecord), 'The record.'), ...financialNotFound },
        },
      },
      async (request) => success(await s.financial.get(teamOf(request), request.params.id)),
    );

    app.put(
      '/financial/:id',
      {
        config: gate('financial', 'financial:write'),
        schema: {
          ...doc(
            'financial',
            'financial:write',
            'Any subset of the fields; answers the whole record. `status: paid` confirms the payment (`payment_method` required, `paid_at` defaults to now) and emits `financial.paid`; `cancelled` cancels; `pending` reopens. Moving `due_date` re-arms `financial.overdue`.',
          ),
          operationId: 'updateFinancialRecord',
          summary: 'Update (or pay) a financial record',
          params: IdParams,
          body: FinancialUpdateBody,
          response: {
            ...authErrors,
            ...bodyErrors,
            ...notImplemented,
            200: ok(Success(FinancialRecord), 'The record after the change.'),
            400: errors.badRequest(
              ['VALIDATION_ERROR', 'Nenhum campo para atualizar'],
              ['VALIDATION_ERROR', "Campo 'payment_method' é obrigatório para marcar como pago", { field: 'payment_method' }],
            ),
            ...financialNotFound,
            422: errors.unprocessable(['VALIDATION_ERROR', 'Registro financeiro cancelado não pode ser pago', { field: 'status' }]),
          },
        },
      },
      async (request) => success((await s.financial.update(teamOf(request), request.params.id, request.body)).record),
    );

    app.delete(
      '/financial/:id',
      {
        config: gate('financial', 'financial:write'),
        schema: {
          ...doc(
            'financial',
            'financial:write',
            'Cancels: the record is kept with status `cancelled`, leaves the totals and no longer becomes overdue. Idempotent.',
          ),
          operationId: 'cancelFinancialRecord',
          summary: 'Cancel a financial record',
          params: IdParams,
          response: { ...authErrors, ...bodyErrors, ...notImplemented, 200: ok(Success(FinancialRecord), 'The cancelled record.'), ...financialNotFound },
        },
      },
      async (request) => success((await s.financial.cancel(teamOf(request), request.params.id)).record),
    );

    // ---------------------------------------------------------------------------------------------
    // Webhooks
    const webhookNotFound = { 404: errors.notFound('Webhook não encontrado') };

    app.get(
      '/webhooks',
      {
        config: gate('webhooks', 'webhooks:read'),
        schema: {
          ...doc('webhooks', 'webhooks:read', 'Never the signing secret.'),
          operationId: 'listWebhooks',
          summary: 'List webhooks',
          response: { ...authErrors, ...notImplemented, 200: ok(Success(Type.Array(Webhook)), "The team's webhooks.") },
        },
      },
      async (request) => success(await s.webhooks.list(teamOf(request))),
    );

    app.post(
      '/webhooks',
      {
        config: gate('webhooks', 'webhooks:write'),
        schema: {
          ...doc(
            'webhooks',
            'webhooks:write',
            'HTTPS only; deliveries to private, loopback and link-local addresses are refused when sent. The signing secret is in this answer and never again.',
          ),
          operationId: 'createWebhook',
          summary: 'Create a webhook',
          body: WebhookCreateBody,
          response: {
            ...authErrors,
            ...bodyErrors,
            ...notImplemented,
            201: ok(Success(WebhookCreated), 'The webhook with its signing secret (shown once).'),
            400: errors.badRequest(['VALIDATION_ERROR', 'A URL do webhook deve usar https://']),
          },
        },
      },
      async (request, reply) => {
        const hook = await s.webhooks.create({
          teamId: teamOf(request),
          url: request.body.url,
          events: request.body.events,
          description: request.body.description,
        });
        return reply.status(201).send(success(hook));
      },
    );

    app.put(
      '/webhooks/:id',
      {
        config: gate('webhooks', 'webhooks:write'),
        schema: {
          ...doc('webhooks', 'webhooks:write', 'Changes the URL, the events and/or the status (enabled, disabled). Never answers the secret.'),
          operationId: 'updateWebhook',
          summary: 'Update a webhook',
          params: IdParams,
          body: WebhookUpdateBody,
          response: {
            ...authErrors,
            ...bodyErrors,
            ...notImplemented,
            200: ok(Success(Webhook), 'The webhook after the change.'),
            400: errors.badRequest(['VALIDATION_ERROR', 'Nenhum campo para atualizar']),
            ...webhookNotFound,
          },
        },
      },
      async (request) => success(await s.webhooks.updateForTeam(teamOf(request), request.params.id, request.body)),
    );

    app.delete(
      '/webhooks/:id',
      {
        config: gate('webhooks', 'webhooks:write'),
        schema: {
          ...doc('webhooks', 'webhooks:write', 'Deletes the webhook with its pending deliveries and attempt log.'),
          operationId: 'deleteWebhook',
          summary: 'Delete a webhook',
          params: IdParams,
          response: { ...authErrors, ...bodyErrors, ...notImplemented, 200: ok(Success(Deleted), 'Deleted.'), ...webhookNotFound },
        },
      },
      async (request) => success({ ...(await s.webhooks.removeForTeam(teamOf(request), request.params.id)), deleted: true as const }),
    );
  };
}
