import type { FastifyPluginAsync, HTTPMethods } from 'fastify';
import { AppError, messages } from '../../errors.js';

/** The contract's announced, unavailable endpoints (financial, activities, webhooks). */
export const ANNOUNCED: ReadonlyArray<[HTTPMethods[], string]> = [
  [['GET', 'POST'], '/financial'],
  [['GET', 'PUT', 'DELETE'], '/financial/:id'],
  [['GET'], '/financial/summary'],
  [['GET'], '/financial/overdue'],
  [['GET', 'POST'], '/activities'],
  [['GET', 'PUT', 'DELETE'], '/activities/:id'],
  [['PUT'], '/activities/:id/complete'],
  [['GET'], '/activities/overdue'],
  [['GET', 'POST'], '/webhooks'],
  [['PUT', 'DELETE'], '/webhooks/:id'],
];

export const unavailableRoutes: FastifyPluginAsync = async (app) => {
  for (const [method, url] of ANNOUNCED) {
    app.route({
      method,
      url,
      // Like every endpoint, these require a valid key; no particular scope.
      config: { auth: { scope: null } },
      handler: async () => {
        throw new AppError(501, 'NOT_IMPLEMENTED', messages.notImplemented);
      },
    });
  }
};
