import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { consumeOne, makeLimiter, type Decision } from './rate-limiter.js';

export interface SignInLimits {
  /** Sign-in attempts (right or wrong) per client address and window. */
  perAddress: number;
  /** Failed sign-ins per e-mail and window; a success clears the e-mail's count. */
  perEmail: number;
  windowSeconds: number;
}

/**
 * 20 attempts per address and 10 failures per e-mail in 15 minutes: a person who mistypes is never
 * stopped, a script guessing passwords gets 40 guesses an hour per account, whatever its addresses.
 */
export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perAddress: 20, perEmail: 10, windowSeconds: 900 };

export interface SignInLimiter {
  /** Counts an attempt from `ip` and checks the e-mail's failures: a refusal when either is over budget. */
  attempt(ip: string, email: string): Promise<Decision>;
  failed(email: string): Promise<void>;
  succeeded(email: string): Promise<void>;
}

/** The e-mail is hashed before it becomes a counter key (Redis keys are not a place for addresses). */
const emailKey = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);

/** The same machinery as the API's limits (rate-limiter.ts): Redis when configured, insured by memory. */
export function createSignInLimiter(options: { redis?: Redis | null; keyPrefix?: string; limits?: SignInLimits } = {}): SignInLimiter {
  const limits = options.limits ?? DEFAULT_SIGN_IN_LIMITS;
  const base = { redis: options.redis ?? null, keyPrefix: options.keyPrefix, unauthenticatedPerMinute: 0, planLimits: false };
  const byAddress = makeLimiter(base, 'signin:address', limits.perAddress, limits.windowSeconds);
  const byEmail = makeLimiter(base, 'signin:email', limits.perEmail, limits.windowSeconds);
  const policy = [
    { name: 'signin-address', quota: limits.perAddress, windowSeconds: limits.windowSeconds },
    { name: 'signin-email', quota: limits.perEmail, windowSeconds: limits.windowSeconds },
  ];
  const refusal = (name: string, quota: number, msBeforeNext: number): Decision => {
    const reset = Math.max(1, Math.ceil(msBeforeNext / 1000));
    return {
      allowed: false,
      policy,
      windows: [{ name, quota, windowSeconds: limits.windowSeconds, remaining: 0, resetSeconds: reset }],
      retryAfterSeconds: reset,
    };
  };

  return {
    async attempt(ip, email) {
      const { res, allowed } = await consumeOne(byAddress, ip);
      if (!allowed) return refusal('signin-address', limits.perAddress, res.msBeforeNext);
      const failures = await byEmail.get(emailKey(email));
      if (failures && failures.consumedPoints >= limits.perEmail) return refusal('signin-email', limits.perEmail, failures.msBeforeNext);
      return { allowed: true, policy, windows: [], retryAfterSeconds: 0 };
    },
    async failed(email) {
      await consumeOne(byEmail, emailKey(email));
    },
    async succeeded(email) {
      await byEmail.delete(emailKey(email));
    },
  };
}
