import type { RouteOptions } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createDb } from '../../src/storage/db.js';

/** One method of a route the app registered under /api/v1. */
export interface ApiEndpoint {
  method: string;
  /** Path under /api/v1, as registered (`/deals/:id`). */
  path: string;
  /** The route's authentication rule (`config.auth`); absent on public routes. */
  auth: { scope: string | null } | undefined;
}

export const API_PREFIX = '/api/v1';

/** The /api/v1 endpoints among `routes` (HEAD, Fastify's automatic twin of GET, left out). */
export function apiEndpoints(routes: readonly RouteOptions[]): ApiEndpoint[] {
  return routes
    .filter((route) => route.url === API_PREFIX || route.url.startsWith(`${API_PREFIX}/`))
    .flatMap((route) =>
      [route.method]
        .flat()
        .filter((method) => method !== 'HEAD')
        .map((method) => ({ method, path: route.url.slice(API_PREFIX.length), auth: (route.config as { auth?: ApiEndpoint['auth'] } | undefined)?.auth })),
    );
}

/**
 * Builds the real app once (on an in-memory database it never queries) and returns the /api/v1
 * endpoints it registers: what the security matrix iterates, so a new route cannot escape it.
 */
export async function registeredApiEndpoints(): Promise<ApiEndpoint[]> {
  const db = createDb('sqlite::memory:');
  const routes: RouteOptions[] = [];
  try {
    const app = await buildApp({ db, onRoute: (route) => void routes.push(route) });
    await app.close();
  } finally {
    await db.close();
  }
  return apiEndpoints(routes);
}

/** One method of a route the app registered under /panel/api, with its role rule (`config.panel`). */
export interface PanelEndpoint {
  method: string;
  /** Path under /panel/api, as registered (`/webhooks/:id`). */
  path: string;
  panel: { role: 'owner' | 'manager' | 'seller' | null; csrf?: boolean } | undefined;
}

export const PANEL_PREFIX = '/panel/api';

/**
 * The /panel/api endpoints among `routes` (HEAD left out): those registered inside the panel's
 * scope (prefix /panel/api), not the 405 answers the method guard adds on the same paths at the root.
 */
export function panelEndpoints(routes: readonly RouteOptions[]): PanelEndpoint[] {
  return routes
    .filter((route) => route.url.startsWith(`${PANEL_PREFIX}/`) && (route as RouteOptions & { prefix?: string }).prefix === PANEL_PREFIX)
    .flatMap((route) =>
      [route.method]
        .flat()
        .filter((method) => method !== 'HEAD')
        .map((method) => ({
          method,
          path: route.url.slice(PANEL_PREFIX.length),
          panel: route.config?.panel,
        })),
    );
}

/** The real app's /panel/api endpoints (the panel's role matrix iterates them, so a new route cannot escape it). */
export async function registeredPanelEndpoints(): Promise<PanelEndpoint[]> {
  const db = createDb('sqlite::memory:');
  const routes: RouteOptions[] = [];
  try {
    const app = await buildApp({ db, onRoute: (route) => void routes.push(route) });
    await app.close();
  } finally {
    await db.close();
  }
  return panelEndpoints(routes);
}
