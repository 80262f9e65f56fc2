import type { RouteSurface } from '../crud-routes.js';
import { BEARER, authErrors, bodyErrors, errors } from '../openapi/route-docs.js';
import { IdParams, IdempotencyHeaders } from '../schemas/common.schema.js';

/**
 * The public API's routes of one resource: a read needs `<resource>:read`, a write
 * `<resource>:write`, and a create honours Idempotency-Key. GET by id and the list read through
 * `confirmedByRead`: the planner's read itself confirms a cached authentication (auth.ts).
 */
export function apiSurface(resource: 'deals' | 'clients' | 'vehicles' | 'leads' | 'stores', tag: string, notFoundMessage: string): RouteSurface {
  return {
    // Leads are written only: their one route is a write.
    // Stores are read only: the API has no store write (owners manage them in the panel and the CLI).
    config: (access) =>
      access === 'read' && resource !== 'leads'
        ? { auth: { scope: `${resource}:read`, confirmedByRead: true } }
        : { auth: { scope: resource === 'stores' ? 'stores:read' : `${resource}:write` } },
    doc: (_access, description) => ({ tags: [tag], security: BEARER, ...(description !== undefined && { description }) }),
    responses: (readsBody) => (readsBody ? { ...authErrors, ...bodyErrors } : authErrors),
    idParams: IdParams,
    notFound: { 404: errors.notFound(notFoundMessage) },
    idempotency: { headers: IdempotencyHeaders, responses: { 409: errors.conflict } },
  };
}
