import { createHash, randomBytes } from 'node:crypto';
import type { DbExecutor } from '../../storage/executor.js';
import { isoNow, type Clock } from '../shared/clock.js';
import { newId } from '../shared/ids.js';
import * as repo from './sessions.repository.js';
import { DEFAULT_SESSION_SETTINGS, type PanelContext, type SessionMeta, type SessionSettings } from './sessions.types.js';

/** The cookie's token: 256 random bits, base64url (43 characters). */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** SHA-256 suffices: tokens carry 256 random bits, so there is nothing to brute-force offline. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export const newToken = (): string => randomBytes(32).toString('base64url');

/** last_seen_at is written at most once a minute per session, not on every request. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Server-side panel sessions. The cookie holds a random token; the database holds only its hash,
 * the user, the times (idle and absolute expiry) and the CSRF secret. Every process reads the same
 * rows, so a session survives restarts and works against any process.
 */
export function createSessionsService(db: DbExecutor, { clock, settings = DEFAULT_SESSION_SETTINGS }: { clock: Clock; settings?: SessionSettings }) {
  return {
    settings,

    /** Opens a session for a user who just proved who they are; the token goes in the cookie and nowhere else. */
    async create(userId: string, meta: SessionMeta = {}): Promise<{ token: string; sessionId: string; expiresAt: Date; csrfSecret: string }> {
      const now = clock.now();
      const token = newToken();
      const expiresAt = new Date(now.getTime() + settings.absoluteMs);
      const sessionId = newId();
      const csrfSecret = randomBytes(18).toString('base64url');
      await repo.insertSession(db, {
        id: sessionId,
        token_hash: hashToken(token),
        user_id: userId,
        created_at: now.toISOString(),
        last_seen_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
        csrf_secret: csrfSecret,
        ip: meta.ip?.slice(0, 64) ?? null,
        user_agent: meta.userAgent?.slice(0, 300) ?? null,
      });
      return { token, sessionId, expiresAt, csrfSecret };
    },

    /**
     * The user and team behind a cookie's token, or null: unknown token, expired (idle or absolute),
     * or a deactivated user. An expired session is deleted as it is met.
     */
    async resolve(token: string): Promise<PanelContext | null> {
      if (!TOKEN_SHAPE.test(token)) return null;
      const row = await repo.findSessionByHash(db, hashToken(token));
      if (!row) return null;
      const now = clock.now().getTime();
      const lastSeen = new Date(row.last_seen_at).getTime();
      if (row.deactivated_at !== null || new Date(row.expires_at).getTime() <= now || lastSeen + settings.idleMs <= now) {
        await repo.deleteSession(db, row.session_id);
        return null;
      }
      if (now - lastSeen >= TOUCH_EVERY_MS) await repo.touchSession(db, row.session_id, new Date(now).toISOString());
      return {
        sessionId: row.session_id,
        csrfSecret: row.csrf_secret,
        user: { id: row.user_id, email: row.email, name: row.name, role: row.role },
        team: { id: row.team_id, name: row.team_name, plan: row.plan },
      };
    },

    /** Sign-out. */
    async end(sessionId: string): Promise<void> {
      await repo.deleteSession(db, sessionId);
    },

    /** Ends every session of a user (deactivation), or all but one (a password change from that session). */
    async endAllOf(userId: string, exceptSessionId: string | null = null): Promise<void> {
      await repo.deleteUserSessions(db, userId, exceptSessionId);
    },

    /** Deletes every expired session (the server runs it now and then; resolve() also removes those it meets). */
    async purgeExpired(): Promise<void> {
      const now = clock.now();
      await repo.deleteExpiredSessions(db, isoNow(clock), new Date(now.getTime() - settings.idleMs).toISOString());
    },
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
