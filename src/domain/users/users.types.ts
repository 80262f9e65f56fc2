/** The panel's roles (DECISIONS.md): owner (everything), manager (records, boards, phases), seller (records). */
export const ROLES = ['owner', 'manager', 'seller'] as const;
export type Role = (typeof ROLES)[number];

/** How much each role may do: a route that needs `manager` admits managers and owners. */
export const ROLE_RANK: Record<Role, number> = { seller: 1, manager: 2, owner: 3 };

export const roleAllows = (role: Role, needed: Role): boolean => ROLE_RANK[role] >= ROLE_RANK[needed];

/** Portuguese names of the roles, for the panel. */
export const ROLE_LABELS: Record<Role, string> = { owner: 'Dono', manager: 'Gerente', seller: 'Vendedor' };

export interface UserView {
  id: string;
  team_id: string;
  email: string;
  name: string;
  role: Role;
  active: boolean;
  /** Whether a password is set (an invited user has none until they follow their link). */
  has_password: boolean;
  /** Whether the round-robin gives them leads (on by default for sellers, off for managers and owners). */
  takes_leads: boolean;
  deactivated_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CreateUserInput {
  teamId: string;
  email: string;
  name: string;
  role: string;
  /** Absent: the user gets a one-time link to choose one. */
  password?: string;
  /** Absent: on for sellers, off for managers and owners. */
  takesLeads?: boolean;
}

export interface UpdateUserInput {
  name?: string;
  role?: string;
  active?: boolean;
  takes_leads?: boolean;
}

/** A one-time password link: the token is in the result and nowhere else (only its hash is stored). */
export interface PasswordLink {
  token: string;
  expires_at: string;
}
