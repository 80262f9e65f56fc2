import type { FastifyPluginAsync, HTTPMethods } from 'fastify';
import { AppError, messages } from '../../domain/shared/errors.js';
import { BEARER, authErrors, bodyErrors, errors } from '../openapi/route-docs.js';

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
  for (const [methods, url] of ANNOUNCED) {
    // One route per method: only those that read a body (all but GET) document 413 and 415.
    for (const method of methods) {
      app.route({
        method,
        url,
        // Like every endpoint, these require a valid key; no particular scope.
        config: { auth: { scope: null } },
        schema: {
          tags: ['Unavailable'],
          summary: `${method} ${url}: announced, not available yet`,
          security: BEARER,
          response: { ...authErrors, ...(method === 'GET' ? {} : bodyErrors), 501: errors.notImplemented },
        },
        handler: async () => {
          throw new AppError(501, 'NOT_IMPLEMENTED', messages.notImplemented);
        },
      });
    }
  }
};
