import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';

export const PANEL_PREFIX = '/panel/api';

declare module 'fastify' {
  interface FastifyInstance {
    /** The panel's OpenAPI document (its routes only); `swagger()` stays the public API's. */
    panelSwagger(): unknown;
  }
}

/**
 * A second OpenAPI 3.1 document, of the /panel/api routes only, generated from their schemas like
 * the public one: served at /panel/api/openapi.json, and the source of the panel app's types.
 * Registered at the root, before any route, so that it sees them all.
 */
export async function registerPanelOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    decorator: 'panelSwagger',
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'autosales panel API',
        version,
        description:
          'The JSON routes of the product panel (the web app served at /). Authenticated by the `autosales_session` cookie that ' +
          'POST /panel/api/session sets; every POST, PUT, PATCH and DELETE of a session also needs the header `X-CSRF-Token` with ' +
          'the `csrf_token` of GET or POST /panel/api/session. Same envelopes and Portuguese messages as the public API. ' +
          'Not a public integration API: integrations use /api/v1 with an API key.',
      },
      servers: [{ url: '/', description: 'This server' }],
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'autosales_session' } } },
    },
    hideUntagged: true,
    transform: ({ schema, url }) => ({ schema: url.startsWith(`${PANEL_PREFIX}/`) ? schema : { ...schema, hide: true }, url }),
  });
}
