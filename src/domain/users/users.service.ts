import { randomBytes } from 'node:crypto';
import type { DbExecutor } from '../../storage/executor.js';
import type { UserRow } from '../../storage/database.js';
import { uniqueViolationIndex } from '../../storage/unique-violation.js';
import { AppError, duplicateEntry, notFound, validationError } from '../shared/errors.js';
import { canonicalId, newId } from '../shared/ids.js';
import { isoNow, type Clock } from '../shared/clock.js';
import { toApiTimestamp, toApiTimestampOrNull } from '../shared/time.js';
import { hashToken } from '../sessions/sessions.service.js';
import type { SessionsService } from '../sessions/sessions.service.js';
import type { TeamsService } from '../teams/teams.service.js';
import {
  decoyHash,
  DEFAULT_PASSWORD_HASHING,
  hashPassword,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  verifyPassword,
  type PasswordHashing,
} from './password.js';
import * as repo from './users.repository.js';
import { ROLES, type CreateUserInput, type PasswordLink, type Role, type UpdateUserInput, type UserView } from './users.types.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** How long a one-time password link works. */
export const PASSWORD_LINK_TTL_MS = 72 * 3_600_000;

export const userMessages = {
  invalidCredentials: 'E-mail ou senha inválidos.',
  userNotFound: 'Usuário não encontrado',
  emailTaken: 'E-mail já cadastrado',
  emailInvalid: 'E-mail inválido',
  nameRequired: 'O nome é obrigatório',
  roleInvalid: `Papel inválido: use ${ROLES.join(', ')}`,
  passwordTooShort: `A senha deve ter pelo menos ${PASSWORD_MIN_LENGTH} caracteres`,
  passwordTooLong: `A senha deve ter no máximo ${PASSWORD_MAX_LENGTH} caracteres`,
  currentPasswordWrong: 'A senha atual não confere',
  linkInvalid: 'Link inválido ou expirado. Peça um novo link a quem administra a equipe.',
  lastOwner: 'A equipe precisa de pelo menos um dono ativo',
  teamNotFound: 'Time não encontrado',
} as const;

export const normalizeEmail = (raw: string): string => raw.trim().toLowerCase();

export function checkPassword(password: string, field = 'password'): string {
  if (password.length < PASSWORD_MIN_LENGTH) throw validationError(userMessages.passwordTooShort, field);
  if (password.length > PASSWORD_MAX_LENGTH) throw validationError(userMessages.passwordTooLong, field);
  return password;
}

function checkRole(raw: string): Role {
  if (!(ROLES as readonly string[]).includes(raw)) throw validationError(userMessages.roleInvalid, 'role', { allowed: [...ROLES] });
  return raw as Role;
}

export function toUserView(row: UserRow): UserView {
  return {
    id: row.id,
    team_id: row.team_id,
    email: row.email,
    name: row.name,
    role: row.role,
    active: row.deactivated_at === null,
    has_password: row.password_hash !== null,
    takes_leads: Boolean(row.takes_leads),
    deactivated_at: toApiTimestampOrNull(row.deactivated_at),
    created_at: toApiTimestamp(row.created_at),
    updated_at: toApiTimestamp(row.updated_at),
  };
}

export function createUsersService(
  db: DbExecutor,
  {
    teams,
    sessions,
    clock,
    hashing = DEFAULT_PASSWORD_HASHING,
  }: { teams: Pick<TeamsService, 'find'>; sessions: Pick<SessionsService, 'endAllOf'>; clock: Clock; hashing?: PasswordHashing },
) {
  let decoy: Promise<string> | null = null;

  async function load(teamId: string, rawId: string, executor: DbExecutor = db): Promise<UserRow> {
    const id = canonicalId(rawId);
    const row = id ? await repo.findUser(executor, id) : undefined;
    if (!row || row.team_id !== teamId) throw notFound(userMessages.userNotFound);
    return row;
  }

  async function issueLink(userId: string): Promise<PasswordLink> {
    const now = clock.now();
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + PASSWORD_LINK_TTL_MS);
    await repo.expireUnusedLinks(db, userId, now.toISOString());
    await repo.insertPasswordLink(db, {
      id: newId(),
      token_hash: hashToken(token),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
      used_at: null,
    });
    return { token, expires_at: toApiTimestamp(expiresAt) };
  }

  /** The user of a link that still works, or null. */
  async function linkUser(token: string): Promise<{ linkId: string; user: UserRow } | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const link = await repo.findPasswordLink(db, hashToken(token));
    if (!link || link.used_at !== null || new Date(link.expires_at).getTime() <= clock.now().getTime()) return null;
    const user = await repo.findUser(db, link.user_id);
    if (!user || user.deactivated_at !== null) return null;
    return { linkId: link.id, user };
  }

  return {
    /** Creates a user; without a password, also a one-time link to choose one (`link`). */
    async create(input: CreateUserInput): Promise<{ user: UserView; link: PasswordLink | null }> {
      const team = await teams.find(input.teamId);
      if (!team) throw notFound(userMessages.teamNotFound);
      const email = normalizeEmail(input.email);
      if (!EMAIL.test(email) || email.length > 254) throw validationError(userMessages.emailInvalid, 'email');
      const name = input.name.trim();
      if (!name) throw validationError(userMessages.nameRequired, 'name');
      const role = checkRole(input.role);
      const passwordHash = input.password === undefined ? null : await hashPassword(checkPassword(input.password), hashing);
      const now = isoNow(clock);
      const row = {
        id: newId(),
        team_id: team.id,
        email,
        name: name.slice(0, 200),
        role,
        takes_leads: (input.takesLeads ?? role === 'seller') ? 1 : 0,
        password_hash: passwordHash,
        password_changed_at: passwordHash ? now : null,
        deactivated_at: null,
        created_at: now,
        updated_at: now,
        store_id: null,
      } satisfies UserRow;
      try {
        await repo.insertUser(db, row);
      } catch (error) {
        if (uniqueViolationIndex(error) !== null) throw duplicateEntry(userMessages.emailTaken, 'email');
        throw error;
      }
      return { user: toUserView(row), link: passwordHash ? null : await issueLink(row.id) };
    },

    async list(teamId: string): Promise<UserView[]> {
      const team = await teams.find(teamId);
      if (!team) throw notFound(userMessages.teamNotFound);
      return (await repo.listUsers(db, team.id)).map(toUserView);
    },

    /** The user with this e-mail in the team, or null (the demo finds its owner again by it). */
    async findByEmail(teamId: string, email: string): Promise<UserView | null> {
      const row = await repo.findUserByEmail(db, normalizeEmail(email));
      return row && row.team_id === teamId ? toUserView(row) : null;
    },

    /** Sets a password from the administration side (CLI, demo); every session of the user ends. */
    async setPassword(teamId: string, rawId: string, password: string): Promise<UserView> {
      const row = await load(teamId, rawId);
      const now = isoNow(clock);
      const updated = await repo.updateUser(db, row.id, {
        password_hash: await hashPassword(checkPassword(password), hashing),
        password_changed_at: now,
        updated_at: now,
      });
      await repo.expireUnusedLinks(db, row.id, now);
      await sessions.endAllOf(row.id);
      return toUserView(updated!);
    },

    async get(teamId: string, rawId: string): Promise<UserView> {
      return toUserView(await load(teamId, rawId));
    },

    /** Name, role, active, takes_leads. A deactivated user's sessions end at once; the team always keeps an active owner. */
    async update(teamId: string, rawId: string, input: UpdateUserInput): Promise<UserView> {
      const patch: { name?: string; role?: Role; takes_leads?: number } = {};
      if (input.takes_leads !== undefined) patch.takes_leads = input.takes_leads ? 1 : 0;
      if (input.name !== undefined) {
        const name = input.name.trim();
        if (!name) throw validationError(userMessages.nameRequired, 'name');
        patch.name = name.slice(0, 200);
      }
      if (input.role !== undefined) patch.role = checkRole(input.role);
      const updated = await db.transaction().execute(async (trx) => {
        // Two owners demoting each other at once must not leave the team without one (PostgreSQL; SQLite serialises writes).
        await repo.lockTeamForUsers(trx, teamId);
        const row = await load(teamId, rawId, trx);
        const wasDeactivatedAt = row.deactivated_at === null ? null : new Date(row.deactivated_at).toISOString();
        const deactivatedAt = input.active === undefined ? wasDeactivatedAt : input.active ? null : (wasDeactivatedAt ?? isoNow(clock));
        const staysOwner = (patch.role ?? row.role) === 'owner' && deactivatedAt === null;
        if (row.role === 'owner' && row.deactivated_at === null && !staysOwner && (await repo.countOtherActiveOwners(trx, row.team_id, row.id)) === 0) {
          throw new AppError(422, 'VALIDATION_ERROR', userMessages.lastOwner);
        }
        const changes = input.active === undefined ? patch : { ...patch, deactivated_at: deactivatedAt };
        return (await repo.updateUser(trx, row.id, { ...changes, updated_at: isoNow(clock) }))!;
      });
      if (updated.deactivated_at !== null) await sessions.endAllOf(updated.id);
      return toUserView(updated);
    },

    /** A new one-time link for a user of the team (earlier unused links stop working). */
    async passwordLink(teamId: string, rawId: string): Promise<PasswordLink> {
      const row = await load(teamId, rawId);
      return issueLink(row.id);
    },

    /** The active user with this e-mail and password, or null; as slow for an unknown e-mail as for a wrong password. */
    async authenticate(email: string, password: string): Promise<UserView | null> {
      const row = await repo.findUserByEmail(db, normalizeEmail(email));
      if (!row || row.password_hash === null || row.deactivated_at !== null) {
        decoy ??= decoyHash(hashing);
        await verifyPassword(password, await decoy);
        return null;
      }
      return (await verifyPassword(password, row.password_hash)) ? toUserView(row) : null;
    },

    /** Who a password link is for (the set-password page greets them), or null when it does not work. */
    async linkInfo(token: string): Promise<{ email: string; name: string } | null> {
      const found = await linkUser(token);
      return found ? { email: found.user.email, name: found.user.name } : null;
    },

    /** Sets the password through a one-time link; every session of the user ends. */
    async setPasswordWithLink(token: string, password: string): Promise<UserView> {
      checkPassword(password);
      const found = await linkUser(token);
      if (!found || !(await repo.usePasswordLink(db, found.linkId, isoNow(clock)))) throw notFound(userMessages.linkInvalid);
      const now = isoNow(clock);
      const updated = await repo.updateUser(db, found.user.id, {
        password_hash: await hashPassword(password, hashing),
        password_changed_at: now,
        updated_at: now,
      });
      await repo.expireUnusedLinks(db, found.user.id, now);
      await sessions.endAllOf(found.user.id);
      return toUserView(updated!);
    },

    /** Changes the password of a signed-in user; every other session of theirs ends. */
    async changePassword(userId: string, current: string, next: string, keepSessionId: string): Promise<void> {
      const row = await repo.findUser(db, userId);
      if (!row) throw notFound(userMessages.userNotFound);
      if (row.password_hash === null || !(await verifyPassword(current, row.password_hash))) {
        throw validationError(userMessages.currentPasswordWrong, 'current_password');
      }
      checkPassword(next, 'new_password');
      const now = isoNow(clock);
      await repo.updateUser(db, row.id, { password_hash: await hashPassword(next, hashing), password_changed_at: now, updated_at: now });
      await sessions.endAllOf(row.id, keepSessionId);
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
