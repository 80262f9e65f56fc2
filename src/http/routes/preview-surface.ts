import type { Scope } from '../../domain/teams/api-keys.types.js';
import type { PreviewArea } from '../../domain/teams/teams.types.js';
import type { RouteSurface } from '../crud-routes.js';
import { BEARER, authErrors, bodyErrors, errors } from '../openapi/route-docs.js';
import { IdParams, IdempotencyHeaders } from '../schemas/common.schema.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An announced endpoint served as a preview: 501 unless the area is on for the key's team, then this scope. */
    preview?: { area: PreviewArea; scope: Scope };
  }
}

const PREVIEW_NOTE =
  "**Preview.** Answers 501 NOT_IMPLEMENTED, exactly as an announced endpoint, unless an operator turned this area on for the key's team (`autosales teams preview --team ID --enable AREA`); then it needs the scope named here (not granted to keys by default).";

/**
 * The routes of one preview area: every route keeps `auth: { scope: null }` so that, preview off, a
 * request is judged exactly as before (a valid key, then 501); the gate checks the area and the
 * scope (`<area>:read` or `<area>:write`).
 */
export function previewSurface(area: PreviewArea, notFoundMessage: string, { idempotentCreate }: { idempotentCreate: boolean }): RouteSurface {
  const scope = (access: 'read' | 'write'): Scope => `${area}:${access}`;
  return {
    config: (access) => ({ auth: { scope: null }, preview: { area, scope: scope(access) } }),
    doc: (access, description) => ({
      tags: ['Preview'],
      security: BEARER,
      'x-preview': { area, scope: scope(access) },
      description: `${description ? `${description}\n\n` : ''}${PREVIEW_NOTE} Area \`${area}\`, scope \`${scope(access)}\`.`,
    }),
    responses: (readsBody) => ({ ...authErrors, ...(readsBody && bodyErrors), 501: errors.notImplemented }),
    idParams: IdParams,
    notFound: { 404: errors.notFound(notFoundMessage) },
    ...(idempotentCreate && { idempotency: { headers: IdempotencyHeaders, responses: { 409: errors.conflict } } }),
  };
}
