import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { consumeOne, makeLimiter, type Decision } from './rate-limiter.js';

export interface SignInLimits {
  /** Sign-in attempts (right or wrong) per client address and window. */
  perAddress: number;
  /** Failed sign-ins per (e-mail, address) pair and window; a success from that address clears it. */
  perPair: number;
  /**
   * Failed sign-ins per e-mail, from every address, and window. Over it, only an address with no
   * failure for that e-mail in the window may still try (so the owner signs in from a clean address).
   */
  perEmail: number;
  /** Failed current-password checks of a password change, per session and window. */
  passwordPerSession: number;
  /** Failed current-password checks of a password change, per user (all their sessions) and window. */
  passwordPerUser: number;
  windowSeconds: number;
}

/**
 * In 15 minutes: 20 attempts per address; 10 failures per (e-mail, address); 100 failures per e-mail
 * from all addresses; 5 wrong current passwords per session and 10 per user. A person who mistypes
 * is never stopped, and someone who only knows an e-mail cannot lock its owner out: the owner's
 * address has no failures for it, so a correct password from there always signs in. A script on one
 * address gets 10 guesses per account per window; spread over many addresses, 100, then one per
 * address that has not failed for that account yet.
 */
export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  perAddress: 20,
  perPair: 10,
  perEmail: 100,
  passwordPerSession: 5,
  passwordPerUser: 10,
  windowSeconds: 900,
};

export interface SignInLimiter {
  /** Counts a sign-in attempt from `ip` and checks the failures for the e-mail: a refusal when over budget. */
  attempt(ip: string, email: string): Promise<Decision>;
  failed(ip: string, email: string): Promise<void>;
  succeeded(ip: string, email: string): Promise<void>;
  /** Before the current password of a password change is checked: a refusal when the session or the user is over budget. */
  passwordCheck(sessionId: string, userId: string): Promise<Decision>;
  passwordCheckFailed(sessionId: string, userId: string): Promise<void>;
}

/** E-mails (and the pairs holding them) are hashed before they become counter keys (Redis keys are not a place for addresses). */
const hashed = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32);
const emailKey = (email: string) => hashed(email.trim().toLowerCase());
const pairKey = (ip: string, email: string) => hashed(email.trim().toLowerCase(), ip);

/** Failures counted so far under `key` (0 when none in the window) and when the oldest expires. */
async function failures(limiter: RateLimiterAbstract, key: string): Promise<{ count: number; msBeforeNext: number }> {
  const res = await limiter.get(key);
  return { count: res?.consumedPoints ?? 0, msBeforeNext: res?.msBeforeNext ?? 0 };
}

/** The same machinery as the API's limits (rate-limiter.ts): Redis when configured, insured by memory. */
export function createSignInLimiter(options: { redis?: Redis | null; keyPrefix?: string; limits?: Partial<SignInLimits> } = {}): SignInLimiter {
  const limits: SignInLimits = { ...DEFAULT_SIGN_IN_LIMITS, ...options.limits };
  const window = limits.windowSeconds;
  const base = { redis: options.redis ?? null, keyPrefix: options.keyPrefix, unauthenticatedPerMinute: 0, planLimits: false };
  const byAddress = makeLimiter(base, 'signin:address', limits.perAddress, window);
  const byPair = makeLimiter(base, 'signin:pair', limits.perPair, window);
  const byEmail = makeLimiter(base, 'signin:email', limits.perEmail, window);
  const bySession = makeLimiter(base, 'password:session', limits.passwordPerSession, window);
  const byUser = makeLimiter(base, 'password:user', limits.passwordPerUser, window);
  const signInPolicy = [
    { name: 'signin-address', quota: limits.perAddress, windowSeconds: window },
    { name: 'signin-pair', quota: limits.perPair, windowSeconds: window },
    { name: 'signin-email', quota: limits.perEmail, windowSeconds: window },
  ];
  const passwordPolicy = [
    { name: 'password-session', quota: limits.passwordPerSession, windowSeconds: window },
    { name: 'password-user', quota: limits.passwordPerUser, windowSeconds: window },
  ];
  const allowed = (policy: Decision['policy']): Decision => ({ allowed: true, policy, windows: [], retryAfterSeconds: 0 });
  const refusal = (policy: Decision['policy'], name: string, quota: number, msBeforeNext: number): Decision => {
    const reset = Math.max(1, Math.ceil(msBeforeNext / 1000));
    return { allowed: false, policy, windows: [{ name, quota, windowSeconds: window, remaining: 0, resetSeconds: reset }], retryAfterSeconds: reset };
  };

  return {
    async attempt(ip, email) {
      const { res, allowed: inBudget } = await consumeOne(byAddress, ip);
      if (!inBudget) return refusal(signInPolicy, 'signin-address', limits.perAddress, res.msBeforeNext);
      const [pair, all] = await Promise.all([failures(byPair, pairKey(ip, email)), failures(byEmail, emailKey(email))]);
      if (pair.count >= limits.perPair) return refusal(signInPolicy, 'signin-pair', limits.perPair, pair.msBeforeNext);
      // Over the e-mail's budget, an address that has already failed for it waits; a clean one may try.
      if (all.count >= limits.perEmail && pair.count > 0) return refusal(signInPolicy, 'signin-email', limits.perEmail, all.msBeforeNext);
      return allowed(signInPolicy);
    },
    async failed(ip, email) {
      await Promise.all([consumeOne(byPair, pairKey(ip, email)), consumeOne(byEmail, emailKey(email))]);
    },
    async succeeded(ip, email) {
      await byPair.delete(pairKey(ip, email));
    },
    async passwordCheck(sessionId, userId) {
      const [session, user] = await Promise.all([failures(bySession, hashed(sessionId)), failures(byUser, userId)]);
      if (session.count >= limits.passwordPerSession) return refusal(passwordPolicy, 'password-session', limits.passwordPerSession, session.msBeforeNext);
      if (user.count >= limits.passwordPerUser) return refusal(passwordPolicy, 'password-user', limits.passwordPerUser, user.msBeforeNext);
      return allowed(passwordPolicy);
    },
    async passwordCheckFailed(sessionId, userId) {
      await Promise.all([consumeOne(bySession, hashed(sessionId)), consumeOne(byUser, userId)]);
    },
  };
}
