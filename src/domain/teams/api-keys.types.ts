import type { Plan } from './teams.types.js';

export const SCOPES = [
  'deals:read',
  'deals:write',
  'clients:read',
  'clients:write',
  'vehicles:read',
  'vehicles:write',
  'leads:write',
  'stores:read',
  'financial:read',
  'financial:write',
  'activities:read',
  'activities:write',
  'webhooks:read',
  'webhooks:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/** What a key created without a scope list gets: the working areas. The preview areas' scopes are granted only when asked for. */
export const DEFAULT_SCOPES = [
  'deals:read',
  'deals:write',
  'clients:read',
  'clients:write',
  'vehicles:read',
  'vehicles:write',
  'leads:write',
  'stores:read',
] as const satisfies readonly Scope[];

/** A key as listed: never the secret, only its first characters. */
export interface ApiKeyView {
  id: string;
  team_id: string;
  name: string | null;
  prefix: string;
  scopes: Scope[];
  created_at: string;
  revoked_at: string | null;
  /** Last authenticated request with this key (to the minute); null when never used. */
  last_used_at: string | null;
}

/** Who is calling: what authentication gives a request. */
export interface AuthContext {
  keyId: string;
  teamId: string;
  plan: Plan;
  scopes: ReadonlySet<string>;
}

export interface CreateApiKeyInput {
  teamId: string;
  name?: string;
  scopes?: string[];
}
