import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { WebhooksService } from '../../domain/webhooks/webhooks.service.js';
import type { WebhookHealth, WebhookView } from '../../domain/webhooks/webhooks.types.js';
import { crudRoutes } from '../crud-routes.js';
import { eventTypeItems } from './labels.js';
import { guarded, invalidBody, manager, owner, panelSurface, seller, teamOf } from './panel-surface.js';
import {
  Delivery,
  DeliveryParams,
  EventTypeItem,
  failure,
  List,
  NoContent,
  Page,
  PageQuery,
  Queued,
  RecoverBody,
  Recovered,
  Secret,
  Success,
  Webhook,
  WebhookCreateBody,
  WebhookUpdateBody,
  WebhookWithSecret,
} from './panel.schemas.js';

const tags = ['Webhooks'];
/** Every webhook route may answer that the id is not one of the team's webhooks. */
const responses = { ...guarded, 404: failure('Not a webhook of this team.', ['NOT_FOUND', 'Webhook não encontrado']) };
/** Managers see webhooks and their log; owners change them (DECISIONS.md: owner = everything, manager = records, boards, phases). */
const surface = panelSurface({ tags, read: manager, write: owner, responses });

const NO_HEALTH: WebhookHealth = { description: null, success_rate: null, last_delivery_at: null, last_delivery_status: null, last_delivery_ok: null };

function answer({ team_id: _team, ...view }: WebhookView, health: WebhookHealth = NO_HEALTH) {
  return { ...view, enabled: view.status === 'enabled', ...health };
}

/** Settings -> Webhooks: the same service (and so the same checks and messages) as `autosales webhooks`; and the event kinds their form offers. */
export function webhooksRoutes(webhooks: WebhooksService): FastifyPluginAsyncTypebox {
  /** The webhook, if it belongs to the signed-in user's team (another team's is simply unknown). */
  const own = (request: FastifyRequest, id: string): Promise<WebhookView> => webhooks.getForTeam(teamOf(request), id);
  const withHealth = async (hook: WebhookView) => answer(hook, (await webhooks.health(hook.team_id)).get(hook.id));

  return async (app) => {
    crudRoutes(app, panelSurface({ tags, read: seller }), '/event-types').list({
      operationId: 'listEventTypes',
      summary: 'Event kinds with their area and Portuguese labels',
      answer: List(EventTypeItem),
      read: async () => ({ data: eventTypeItems() }),
    });

    const routes = crudRoutes(app, surface, '/webhooks');
    routes.list({
      operationId: 'listWebhooks',
      summary: 'Webhooks with their success rate and latest delivery (manager)',
      answer: List(Webhook),
      read: async (request) => {
        const teamId = teamOf(request);
        const [list, health] = await Promise.all([webhooks.list(teamId), webhooks.health(teamId)]);
        return { data: list.map((hook) => answer(hook, health.get(hook.id))) };
      },
    });
    routes.create({
      operationId: 'createWebhook',
      summary: 'Create a webhook (owner): the answer carries its signing secret',
      body: WebhookCreateBody,
      answer: Success(WebhookWithSecret),
      errors: { 400: invalidBody(['VALIDATION_ERROR', 'A URL do webhook deve usar https://'], ['VALIDATION_ERROR', 'Tipo de evento desconhecido: deal.x']) },
      write: async (request, _options, reply) => {
        const created = await webhooks.create({ teamId: teamOf(request), ...request.body });
        reply.header('cache-control', 'no-store');
        return { ...(await withHealth(created)), secret: created.secret };
      },
    });
    routes.get({
      operationId: 'getWebhook',
      summary: 'One webhook (manager)',
      answer: Success(Webhook),
      read: async (request) => withHealth(await own(request, request.params.id)),
    });
    routes.update({
      operationId: 'updateWebhook',
      summary: 'Change URL, description, events; enable or disable (owner)',
      description: 'Disabling records why (`desativado manualmente`) and since when; enabling clears both.',
      body: WebhookUpdateBody,
      answer: Success(Webhook),
      errors: { 400: invalidBody(['VALIDATION_ERROR', 'A URL do webhook deve usar https://'], ['VALIDATION_ERROR', 'Nenhum campo para atualizar']) },
      write: async (request) => {
        const { enabled, ...fields } = request.body;
        const status = enabled === undefined ? undefined : enabled ? ('enabled' as const) : ('disabled' as const);
        return withHealth(await webhooks.updateForTeam(teamOf(request), request.params.id, { ...fields, status }));
      },
    });
    routes.remove({
      operationId: 'deleteWebhook',
      summary: 'Delete a webhook with its delivery log (owner)',
      status: 204,
      answer: NoContent,
      write: (request) => webhooks.removeForTeam(teamOf(request), request.params.id),
    });
    routes.read('/:id/secret', {
      operationId: 'revealWebhookSecret',
      summary: 'Reveal the signing secret (owner)',
      access: 'write',
      answer: Success(Secret),
      read: async (request, reply) => {
        const { id, secret } = await webhooks.revealSecret((await own(request, request.params.id)).id);
        reply.header('cache-control', 'no-store');
        return { id, secret };
      },
    });
    routes.write('POST', '/:id/rotate-secret', {
      operationId: 'rotateWebhookSecret',
      summary: 'Rotate the signing secret (owner): the next attempt is signed with the new one',
      answer: Success(WebhookWithSecret),
      write: async (request, reply) => {
        const rotated = await webhooks.rotateSecret((await own(request, request.params.id)).id);
        reply.header('cache-control', 'no-store');
        return { ...(await withHealth(rotated)), secret: rotated.secret };
      },
    });
    routes.write('POST', '/:id/test', {
      operationId: 'sendTestEvent',
      summary: 'Send a test event to this webhook only (owner)',
      description: 'A `deal.created` whose deal is a sample titled "Evento de teste do painel"; it appears in the delivery log like any other.',
      status: 202,
      answer: Success(Queued),
      errors: { 422: failure('The webhook is disabled.', ['VALIDATION_ERROR', 'Ative o webhook para enviar um evento de teste']) },
      write: async (request) => {
        const sent = await webhooks.sendTest((await own(request, request.params.id)).id);
        return { event_id: sent.event_id, webhook_ids: [sent.webhook_id] };
      },
    });
    routes.list({
      sub: '/:id/deliveries',
      operationId: 'listWebhookDeliveries',
      summary: 'The delivery log (manager): newest first, each delivery with its attempts',
      querystring: PageQuery,
      answer: Page(Delivery),
      read: async (request) => {
        const hook = await own(request, request.params.id);
        const page = request.query.page ?? 1;
        const limit = request.query.limit ?? 20;
        const { data, total } = await webhooks.deliveries(hook.id, page, limit);
        return { data, pagination: { page, limit, total, pages: Math.ceil(total / limit) } };
      },
    });
    routes.write('POST', '/:id/deliveries/:deliveryId/resend', {
      operationId: 'resendDelivery',
      summary: 'Send one delivery again (owner)',
      params: DeliveryParams,
      status: 202,
      answer: Success(Queued),
      write: async (request) => {
        const hook = await own(request, request.params.id);
        return webhooks.resendDelivery(hook.id, request.params.deliveryId);
      },
    });
    routes.write('POST', '/:id/recover', {
      operationId: 'recoverWebhook',
      summary: 'Queue every event since a time that this webhook has not received (owner)',
      body: RecoverBody,
      status: 202,
      answer: Success(Recovered),
      errors: { 400: failure('`since` is not an ISO 8601 date-time.', ['VALIDATION_ERROR', "Campo 'since' inválido"]) },
      write: async (request) => {
        const hook = await own(request, request.params.id);
        const { webhook_id, queued } = await webhooks.recover(hook.id, request.body.since);
        return { webhook_id, queued };
      },
    });
  };
}
