import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { WebhooksService } from '../../domain/webhooks/webhooks.service.js';
import type { WebhookHealth, WebhookView } from '../../domain/webhooks/webhooks.types.js';
import { panelMessages, panelOf } from './panel-auth.js';
import {
  Delivery,
  DeliveryParams,
  failure,
  IdParams,
  NoContent,
  Page,
  PageQuery,
  Queued,
  RecoverBody,
  Recovered,
  Secret,
  Success,
  List,
  Webhook,
  WebhookCreateBody,
  WebhookUpdateBody,
  WebhookWithSecret,
} from './panel.schemas.js';

const NOT_FOUND = 'Webhook não encontrado';
const tags = ['Webhooks'];
const unauthorized = failure('No session, or it expired.', ['UNAUTHORIZED', panelMessages.unauthorized]);
const forbidden = failure(
  'The role of the signed-in user may not do this, or the CSRF token is missing or wrong.',
  ['FORBIDDEN', panelMessages.forbidden],
  ['CSRF_INVALID', panelMessages.csrf],
);
const guarded = { 401: unauthorized, 403: forbidden, 404: failure('Not a webhook of this team.', ['NOT_FOUND', NOT_FOUND]) };
const invalid = failure(
  'Invalid body (first problem found).',
  ['VALIDATION_ERROR', 'A URL do webhook deve usar https://'],
  ['VALIDATION_ERROR', 'Tipo de evento desconhecido: deal.x'],
);
/** Managers see webhooks and their log; owners change them (DECISIONS.md: owner = everything, manager = records, boards, phases). */
const read = { panel: { role: 'manager' } } as const;
const write = { panel: { role: 'owner' } } as const;

const NO_HEALTH: WebhookHealth = { description: null, success_rate: null, last_delivery_at: null, last_delivery_status: null, last_delivery_ok: null };

function answer({ team_id: _team, ...view }: WebhookView, health: WebhookHealth = NO_HEALTH) {
  return { ...view, enabled: view.status === 'enabled', ...health };
}

/** Settings -> Webhooks: the same service (and so the same checks and messages) as `autosales webhooks`. */
export function webhooksRoutes(webhooks: WebhooksService): FastifyPluginAsyncTypebox {
  /** The webhook, if it belongs to the signed-in user's team (another team's is simply unknown). */
  const own = (request: FastifyRequest, id: string): Promise<WebhookView> => webhooks.getForTeam(panelOf(request).team.id, id);
  const withHealth = async (hook: WebhookView) => answer(hook, (await webhooks.health(hook.team_id)).get(hook.id));

  return async (app) => {
    app.get(
      '/webhooks',
      {
        config: read,
        schema: {
          tags,
          operationId: 'listWebhooks',
          summary: 'Webhooks with their success rate and latest delivery (manager)',
          response: { 200: List(Webhook), ...guarded },
        },
      },
      async (request) => {
        const teamId = panelOf(request).team.id;
        const [list, health] = await Promise.all([webhooks.list(teamId), webhooks.health(teamId)]);
        return { success: true as const, data: list.map((hook) => answer(hook, health.get(hook.id))) };
      },
    );

    app.post(
      '/webhooks',
      {
        config: write,
        schema: {
          tags,
          operationId: 'createWebhook',
          summary: 'Create a webhook (owner): the answer carries its signing secret',
          body: WebhookCreateBody,
          response: { 201: Success(WebhookWithSecret), 400: invalid, ...guarded },
        },
      },
      async (request, reply) => {
        const created = await webhooks.create({ teamId: panelOf(request).team.id, ...request.body });
        reply.header('cache-control', 'no-store');
        return reply.status(201).send({ success: true as const, data: { ...(await withHealth(created)), secret: created.secret } });
      },
    );

    app.get(
      '/webhooks/:id',
      {
        config: read,
        schema: { tags, operationId: 'getWebhook', summary: 'One webhook (manager)', params: IdParams, response: { 200: Success(Webhook), ...guarded } },
      },
      async (request) => ({ success: true as const, data: await withHealth(await own(request, request.params.id)) }),
    );

    app.put(
      '/webhooks/:id',
      {
        config: write,
        schema: {
          tags,
          operationId: 'updateWebhook',
          summary: 'Change URL, description, events; enable or disable (owner)',
          description: 'Disabling records why (`desativado manualmente`) and since when; enabling clears both.',
          params: IdParams,
          body: WebhookUpdateBody,
          response: {
            200: Success(Webhook),
            400: failure(
              'Invalid body (first problem found).',
              ['VALIDATION_ERROR', 'A URL do webhook deve usar https://'],
              ['VALIDATION_ERROR', 'Nenhum campo para atualizar'],
            ),
            ...guarded,
          },
        },
      },
      async (request) => {
        const { enabled, ...fields } = request.body;
        const status = enabled === undefined ? undefined : enabled ? ('enabled' as const) : ('disabled' as const);
        const view = await webhooks.updateForTeam(panelOf(request).team.id, request.params.id, { ...fields, status });
        return { success: true as const, data: await withHealth(view) };
      },
    );

    app.delete(
      '/webhooks/:id',
      {
        config: write,
        schema: {
          tags,
          operationId: 'deleteWebhook',
          summary: 'Delete a webhook with its delivery log (owner)',
          params: IdParams,
          response: { 204: NoContent, ...guarded },
        },
      },
      async (request, reply) => {
        await webhooks.removeForTeam(panelOf(request).team.id, request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/webhooks/:id/secret',
      {
        config: write,
        schema: {
          tags,
          operationId: 'revealWebhookSecret',
          summary: 'Reveal the signing secret (owner)',
          params: IdParams,
          response: { 200: Success(Secret), ...guarded },
        },
      },
      async (request, reply) => {
        const { id, secret } = await webhooks.revealSecret((await own(request, request.params.id)).id);
        reply.header('cache-control', 'no-store');
        return { success: true as const, data: { id, secret } };
      },
    );

    app.post(
      '/webhooks/:id/rotate-secret',
      {
        config: write,
        schema: {
          tags,
          operationId: 'rotateWebhookSecret',
          summary: 'Rotate the signing secret (owner): the next attempt is signed with the new one',
          params: IdParams,
          response: { 200: Success(WebhookWithSecret), ...guarded },
        },
      },
      async (request, reply) => {
        const rotated = await webhooks.rotateSecret((await own(request, request.params.id)).id);
        reply.header('cache-control', 'no-store');
        return { success: true as const, data: { ...(await withHealth(rotated)), secret: rotated.secret } };
      },
    );

    app.post(
      '/webhooks/:id/test',
      {
        config: write,
        schema: {
          tags,
          operationId: 'sendTestEvent',
          summary: 'Send a test event to this webhook only (owner)',
          description: 'A `deal.created` whose deal is a sample titled "Evento de teste do painel"; it appears in the delivery log like any other.',
          params: IdParams,
          response: {
            202: Success(Queued),
            422: failure('The webhook is disabled.', ['VALIDATION_ERROR', 'Ative o webhook para enviar um evento de teste']),
            ...guarded,
          },
        },
      },
      async (request, reply) => {
        const sent = await webhooks.sendTest((await own(request, request.params.id)).id);
        return reply.status(202).send({ success: true as const, data: { event_id: sent.event_id, webhook_ids: [sent.webhook_id] } });
      },
    );

    app.get(
      '/webhooks/:id/deliveries',
      {
        config: read,
        schema: {
          tags,
          operationId: 'listWebhookDeliveries',
          summary: 'The delivery log (manager): newest first, each delivery with its attempts',
          params: IdParams,
          querystring: PageQuery,
          response: { 200: Page(Delivery), ...guarded },
        },
      },
      async (request) => {
        const hook = await own(request, request.params.id);
        const page = request.query.page ?? 1;
        const limit = request.query.limit ?? 20;
        const { data, total } = await webhooks.deliveries(hook.id, page, limit);
        return { success: true as const, data, pagination: { page, limit, total, pages: Math.ceil(total / limit) } };
      },
    );

    app.post(
      '/webhooks/:id/deliveries/:deliveryId/resend',
      {
        config: write,
        schema: {
          tags,
          operationId: 'resendDelivery',
          summary: 'Send one delivery again (owner)',
          params: DeliveryParams,
          response: { 202: Success(Queued), ...guarded },
        },
      },
      async (request, reply) => {
        const hook = await own(request, request.params.id);
        const queued = await webhooks.resendDelivery(hook.id, request.params.deliveryId);
        return reply.status(202).send({ success: true as const, data: queued });
      },
    );

    app.post(
      '/webhooks/:id/recover',
      {
        config: write,
        schema: {
          tags,
          operationId: 'recoverWebhook',
          summary: 'Queue every event since a time that this webhook has not received (owner)',
          params: IdParams,
          body: RecoverBody,
          response: {
            202: Success(Recovered),
            400: failure('`since` is not an ISO 8601 date-time.', ['VALIDATION_ERROR', "Campo 'since' inválido"]),
            ...guarded,
          },
        },
      },
      async (request, reply) => {
        const hook = await own(request, request.params.id);
        const { webhook_id, queued } = await webhooks.recover(hook.id, request.body.since);
        return reply.status(202).send({ success: true as const, data: { webhook_id, queued } });
      },
    );
  };
}
