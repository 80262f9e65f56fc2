import type { Plan } from '../teams/teams.types.js';
import type { Role } from '../users/users.types.js';

export interface SessionSettings {
  /** A session unused for this long ends. */
  idleMs: number;
  /** A session ends this long after sign-in, however busy. */
  absoluteMs: number;
}

/** 12 hours idle (a working day with a long lunch), 7 days at most: then the password again. */
export const DEFAULT_SESSION_SETTINGS: SessionSettings = { idleMs: 12 * 3_600_000, absoluteMs: 7 * 86_400_000 };

/** Who is behind a panel request: what a valid session cookie gives it. */
export interface PanelContext {
  sessionId: string;
  csrfSecret: string;
  user: { id: string; email: string; name: string; role: Role };
  team: { id: string; name: string; plan: Plan };
}

export interface SessionMeta {
  ip?: string | null;
  userAgent?: string | null;
}
