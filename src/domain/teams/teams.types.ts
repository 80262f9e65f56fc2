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
  /** IANA zone where the team's calendar days (financial due dates) end. */
  time_zone: string;
  /** Areas of the announced API served to this team's keys as a preview. */
  preview: PreviewArea[];
}

/** Areas of the contract's announced endpoints that an operator can open to one team. */
export const PREVIEW_AREAS = ['financial', 'activities', 'webhooks'] as const;
export type PreviewArea = (typeof PREVIEW_AREAS)[number];

export interface CreateTeamInput {
  name: string;
  plan?: string;
  alertEmail?: string | null;
}

export interface UpdateTeamInput {
  name?: string;
  alertEmail?: string | null;
}
