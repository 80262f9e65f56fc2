import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import type { Role } from '../../domain/users/users.types.js';
import type { Responses, RouteSurface } from '../crud-routes.js';
import { panelMessages, panelOf } from './panel-auth.js';
import { failure, IdParams } from './panel.schemas.js';

/** What every panel route may answer: no session, or a role or CSRF token that does not allow it. */
export const guarded = {
  401: failure('No session, or it expired.', ['UNAUTHORIZED', panelMessages.unauthorized]),
  403: failure(
    'The role of the signed-in user may not do this, or the CSRF token is missing or wrong.',
    ['FORBIDDEN', panelMessages.forbidden],
    ['CSRF_INVALID', panelMessages.csrf],
  ),
};
/** A record's input refused by its domain service. */
export const invalid = (...examples: Array<[string, string]>) =>
  failure('Invalid input: the same Portuguese message and error.field as the public API.', ...examples);
/** A settings form refused. */
export const invalidBody = (...examples: Array<[string, string]>) => failure('Invalid body (first problem found).', ...examples);
export const missing = (message: string) => ({ 404: failure('Unknown id (or another team’s).', ['NOT_FOUND', message]) });

export const seller = { panel: { role: 'seller' } } as const;
export const manager = { panel: { role: 'manager' } } as const;
export const owner = { panel: { role: 'owner' } } as const;

/** The signed-in user's team. */
export const teamOf = (request: FastifyRequest): string => panelOf(request).team.id;

/** The signed-in user's role (what the finer rules of domain/users/role-rules.ts read). */
export const roleOf = (request: FastifyRequest): Role => panelOf(request).user.role;

/**
 * The panel's routes of one resource: the role a read and a write need (sellers by default), the
 * 404 message of its `:id` routes, and what every route answers besides (`guarded` unless given).
 */
export function panelSurface({
  tags,
  read = seller,
  write = read,
  notFound,
  responses = guarded,
}: {
  tags: string[];
  read?: FastifyContextConfig;
  write?: FastifyContextConfig;
  notFound?: string;
  responses?: Responses;
}): RouteSurface {
  return {
    config: (access) => (access === 'read' ? read : write),
    doc: (_access, description) => ({ tags, ...(description !== undefined && { description }) }),
    responses: () => responses,
    idParams: IdParams,
    notFound: notFound === undefined ? {} : missing(notFound),
  };
}
