import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { userMessages, type UsersService } from '../../domain/users/users.service.js';
import type { PasswordLink } from '../../domain/users/users.types.js';
import { crudRoutes } from '../crud-routes.js';
import { invalidBody, owner, panelSurface, seller, teamOf } from './panel-surface.js';
import { failure, List, PasswordLinkAnswer, Success, User, UserCreateBody, UserUpdateBody, UserWithLink } from './panel.schemas.js';

/**
 * A password link's answer. The address is the configured one (PUBLIC_URL, or the server's own), never
 * a request header: a forged `Host` must not put someone else's address in a link the owner passes on.
 */
const linkUrl = (publicUrl: () => string, link: PasswordLink) => ({
  set_password_url: `${publicUrl()}/definir-senha/${link.token}`,
  set_password_expires_at: link.expires_at,
});

const notAPerson = { 404: failure('Not a person of this team.', ['NOT_FOUND', userMessages.userNotFound]) };

/** Settings -> People: the team's users, their invitations and password links (owner), the list for everyone. */
export function usersRoutes({ users, publicUrl }: { users: UsersService; publicUrl: () => string }): FastifyPluginAsyncTypebox {
  return async (app) => {
    const routes = crudRoutes(app, panelSurface({ tags: ['Pessoas'], read: seller, write: owner }), '/users');
    routes.list({
      operationId: 'listUsers',
      summary: "The team's people",
      answer: List(User),
      read: async (request) => ({ data: await users.list(teamOf(request)) }),
    });
    routes.create({
      operationId: 'inviteUser',
      summary: 'Invite a person (owner): answers a one-time link to choose a password',
      body: UserCreateBody,
      answer: Success(UserWithLink),
      errors: {
        400: invalidBody(['VALIDATION_ERROR', userMessages.emailInvalid], ['VALIDATION_ERROR', userMessages.nameRequired]),
        422: failure('E-mail already used.', ['DUPLICATE_ENTRY', userMessages.emailTaken]),
      },
      write: async (request) => {
        const { takes_leads: takesLeads, ...body } = request.body;
        const { user, link } = await users.create({ teamId: teamOf(request), ...body, takesLeads });
        return { ...user, ...linkUrl(publicUrl, link!) };
      },
    });
    routes.update({
      operationId: 'updateUser',
      summary: 'Change name or role, deactivate or reactivate a person (owner)',
      description: 'Deactivating ends their sessions at once. The team always keeps an active owner.',
      body: UserUpdateBody,
      answer: Success(User),
      errors: {
        400: invalidBody(['VALIDATION_ERROR', userMessages.nameRequired]),
        ...notAPerson,
        422: failure('The last active owner cannot stop being one.', ['VALIDATION_ERROR', userMessages.lastOwner]),
      },
      write: (request) => users.update(teamOf(request), request.params.id, request.body),
    });
    routes.write('POST', '/:id/password-link', {
      operationId: 'newPasswordLink',
      summary: 'A new one-time password link for a person (owner); earlier links stop working',
      answer: Success(PasswordLinkAnswer),
      errors: notAPerson,
      write: async (request) => linkUrl(publicUrl, await users.passwordLink(teamOf(request), request.params.id)),
    });
  };
}
