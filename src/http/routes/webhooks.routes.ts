import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { WebhooksService } from '../../domain/webhooks/webhooks.service.js';
import { teamOf } from '../auth.js';
import { crudRoutes } from '../crud-routes.js';
import { errors, ok } from '../openapi/route-docs.js';
import { Deleted, Webhook, WebhookCreateBody, WebhookCreated, WebhookUpdateBody } from '../schemas/agenda.schema.js';
import { Success } from '../schemas/responses.schema.js';
import { previewSurface } from './preview-surface.js';

/** Webhooks (preview area `webhooks`); the panel and `autosales webhooks` manage them too. */
export function webhooksRoutes(webhooks: Pick<WebhooksService, 'create' | 'list' | 'updateForTeam' | 'removeForTeam'>): FastifyPluginAsyncTypebox {
  return async (app) => {
    const routes = crudRoutes(app, previewSurface('webhooks', 'Webhook não encontrado', { idempotentCreate: false }), '/webhooks');
    routes.list({
      operationId: 'listWebhooks',
      summary: 'List webhooks',
      description: 'Never the signing secret.',
      answer: ok(Success(Type.Array(Webhook)), "The team's webhooks."),
      read: async (request) => ({ data: await webhooks.list(teamOf(request)) }),
    });
    routes.create({
      operationId: 'createWebhook',
      summary: 'Create a webhook',
      description:
        'HTTPS only. A URL naming a private, loopback or link-local host (localhost, or an IP literal in any notation) is refused with 400; a name resolving to one is refused when delivering. The signing secret is in this answer and never again.',
      body: WebhookCreateBody,
      answer: ok(Success(WebhookCreated), 'The webhook with its signing secret (shown once).'),
      errors: { 400: errors.badRequest(['VALIDATION_ERROR', 'A URL do webhook deve usar https://']) },
      write: (request) =>
        webhooks.create({ teamId: teamOf(request), url: request.body.url, events: request.body.events, description: request.body.description }),
    });
    routes.update({
      operationId: 'updateWebhook',
      summary: 'Update a webhook',
      description: 'Changes the URL, the events and/or the status (enabled, disabled). Never answers the secret.',
      body: WebhookUpdateBody,
      answer: ok(Success(Webhook), 'The webhook after the change.'),
      errors: { 400: errors.badRequest(['VALIDATION_ERROR', 'Nenhum campo para atualizar']) },
      write: (request) => webhooks.updateForTeam(teamOf(request), request.params.id, request.body),
    });
    routes.remove({
      operationId: 'deleteWebhook',
      summary: 'Delete a webhook',
      description: 'Deletes the webhook with its pending deliveries and attempt log.',
      answer: ok(Success(Deleted), 'Deleted.'),
      write: async (request) => ({ ...(await webhooks.removeForTeam(teamOf(request), request.params.id)), deleted: true as const }),
    });
  };
}
