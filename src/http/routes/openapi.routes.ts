import type { FastifyPluginAsync } from 'fastify';

/** The OpenAPI document, without authentication (integrators and SDK generators fetch it). */
export const openApiRoutes: FastifyPluginAsync = async (app) => {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
};
