export const PLANS = ['starter', 'professional', 'autoshopping'] as const;
export type Plan = (typeof PLANS)[number];

/** A pipeline phase of a team, with its suggested win probability. */
export interface Phase {
  name: string;
  position: number;
  probability: number;
}

export interface TeamView {
  id: string;
  name: string;
  plan: Plan;
  alert_email: string | null;
  phases: Phase[];
  created_at: string;
}

export interface CreateTeamInput {
  name: string;
  plan?: string;
  alertEmail?: string | null;
}

export interface UpdateTeamInput {
  name?: string;
  alertEmail?: string | null;
}
