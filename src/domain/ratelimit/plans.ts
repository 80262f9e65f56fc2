import type { Plan } from '../teams/teams.types.js';

export interface PlanLimits {
  perMinute: number;
  /** null: no daily cap. */
  perDay: number | null;
}

/** The contract's request rates by plan. */
export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  starter: { perMinute: 60, perDay: 1000 },
  professional: { perMinute: 300, perDay: 10_000 },
  autoshopping: { perMinute: 1000, perDay: null },
};
