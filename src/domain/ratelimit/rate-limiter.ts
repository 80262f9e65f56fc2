import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Plan } from '../teams/teams.types.js';
import { PLAN_LIMITS } from './plans.js';

export interface WindowState {
  /** Policy name used in the RateLimit headers: `minute` or `day`. */
  name: string;
  quota: number;
  windowSeconds: number;
  remaining: number;
  resetSeconds: number;
}

export interface Decision {
  allowed: boolean;
  /** Every window of the policy (for RateLimit-Policy). */
  policy: Array<{ name: string; quota: number; windowSeconds: number }>;
  /** The windows counted for this request (a rejected request stops at the exhausted one). */
  windows: WindowState[];
  /** Seconds until a rejected caller may try again. */
  retryAfterSeconds: number;
}

export interface RateLimiterOptions {
  /** Shared counters for every process; without it, counters live in this process. */
  redis?: Redis | null;
  /** Window lengths; tests shorten them. */
  minuteSeconds?: number;
  daySeconds?: number;
  /** Failed authentications allowed per client IP per minute window. */
  unauthenticatedPerMinute: number;
  /** Plan limits on (false: RATE_LIMITS=off; unauthenticated traffic stays limited). */
  planLimits: boolean;
  keyPrefix?: string;
}

export interface RateLimiter {
  /** Counts one request of the team against its plan's windows. */
  consume(teamId: string, plan: Plan): Promise<Decision | null>;
  /** Counts one failed authentication of the IP; not allowed once the IP is over its budget. */
  consumeUnauthenticated(ip: string): Promise<Decision>;
}

/**
 * A limiter in Redis (atomic increments shared by every process) insured by one in memory:
 * while Redis is unreachable the memory limiter answers, and Redis takes over again when it is back.
 */
export function makeLimiter(options: RateLimiterOptions, name: string, points: number, duration: number): RateLimiterAbstract {
  const keyPrefix = `${options.keyPrefix ?? 'autosales:rl'}:${name}`;
  const memory = new RateLimiterMemory({ points, duration, keyPrefix });
  if (!options.redis) return memory;
  return new RateLimiterRedis({ storeClient: options.redis, points, duration, keyPrefix, insuranceLimiter: memory, rejectIfRedisNotReady: true });
}

const seconds = (ms: number) => Math.max(0, Math.ceil(ms / 1000));

function stateOf(name: string, quota: number, windowSeconds: number, res: RateLimiterRes): WindowState {
  return { name, quota, windowSeconds, remaining: Math.max(0, res.remainingPoints), resetSeconds: seconds(res.msBeforeNext) };
}

export async function consumeOne(limiter: RateLimiterAbstract, key: string): Promise<{ res: RateLimiterRes; allowed: boolean }> {
  try {
    return { res: await limiter.consume(key), allowed: true };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return { res: rejection, allowed: false };
    throw rejection;
  }
}

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const minute = options.minuteSeconds ?? 60;
  const day = options.daySeconds ?? 86_400;
  const plans = new Map<Plan, Array<{ name: string; quota: number; window: number; limiter: RateLimiterAbstract }>>();
  for (const [plan, limits] of Object.entries(PLAN_LIMITS) as Array<[Plan, (typeof PLAN_LIMITS)[Plan]]>) {
    const windows = [{ name: 'minute', quota: limits.perMinute, window: minute, limiter: makeLimiter(options, `${plan}:minute`, limits.perMinute, minute) }];
    if (limits.perDay !== null)
      windows.push({ name: 'day', quota: limits.perDay, window: day, limiter: makeLimiter(options, `${plan}:day`, limits.perDay, day) });
    plans.set(plan, windows);
  }
  const ipBudget = options.unauthenticatedPerMinute;
  const ipLimiter = makeLimiter(options, 'unauthenticated', ipBudget, minute);
  const ipPolicy = [{ name: 'unauthenticated', quota: ipBudget, windowSeconds: minute }];

  return {
    async consume(teamId, plan) {
      if (!options.planLimits) return null;
      const definitions = plans.get(plan)!;
      const policy = definitions.map((w) => ({ name: w.name, quota: w.quota, windowSeconds: w.window }));
      const windows: WindowState[] = [];
      for (const w of definitions) {
        const { res, allowed } = await consumeOne(w.limiter, teamId);
        windows.push(stateOf(w.name, w.quota, w.window, res));
        // A rejected request stops here: it does not also spend the longer windows.
        if (!allowed) return { allowed: false, policy, windows, retryAfterSeconds: Math.max(1, seconds(res.msBeforeNext)) };
      }
      return { allowed: true, policy, windows, retryAfterSeconds: 0 };
    },

    async consumeUnauthenticated(ip) {
      const { res, allowed } = await consumeOne(ipLimiter, ip);
      return {
        allowed,
        policy: ipPolicy,
        windows: [stateOf('unauthenticated', ipBudget, minute, res)],
        retryAfterSeconds: allowed ? 0 : Math.max(1, seconds(res.msBeforeNext)),
      };
    },
  };
}

/** The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers): every policy, and the window closest to exhaustion. */
export function rateLimitHeaders({ policy: policies, windows }: Decision): Record<string, string> {
  if (windows.length === 0) return {};
  const policy = policies.map((w) => `"${w.name}";q=${w.quota};w=${w.windowSeconds}`).join(', ');
  const tightest = windows.reduce((a, b) => (b.remaining < a.remaining || (b.remaining === a.remaining && b.resetSeconds < a.resetSeconds) ? b : a));
  return { 'ratelimit-policy': policy, ratelimit: `"${tightest.name}";r=${tightest.remaining};t=${tightest.resetSeconds}` };
}
