import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import { DIALECTS } from '../support/dialects.js';
import { expectError } from '../support/expect.js';
import { signedIn, TEST_HASHING, panelBrowser } from '../support/panel.js';
import { registeredPanelEndpoints, type PanelEndpoint } from '../support/routes.js';
import type { Role } from '../../src/domain/users/users.types.js';

/**
 * The panel's role matrix (DECISIONS.md: owner = everything, manager = records, boards, phases,
 * seller = records), restated here rather than read from src/: the test fails when a registered
 * /panel/api route is missing from this table or declares another role, and then checks every
 * route: no session -> 401, each lesser role -> 403, the needed role without the CSRF header on a
 * state-changing request -> 403 CSRF_INVALID, and with it -> neither 401 nor 403.
 */
const ROLE_OF: Record<string, Role | null> = {
  'POST /session': null,
  'GET /session': 'seller',
  'DELETE /session': 'seller',
  'PUT /me/password': 'seller',
  'GET /password-links/:token': null,
  'POST /password-links/:token': null,
  'GET /openapi.json': null,
  'GET /team': 'seller',
  'PUT /team': 'owner',
  'GET /users': 'seller',
  'POST /users': 'owner',
  'PUT /users/:id': 'owner',
  'POST /users/:id/password-link': 'owner',
  'GET /keys': 'owner',
  'POST /keys': 'owner',
  'DELETE /keys/:id': 'owner',
  'GET /scopes': 'seller',
  'GET /event-types': 'seller',
  'GET /webhooks': 'manager',
  'POST /webhooks': 'owner',
  'GET /webhooks/:id': 'manager',
  'PUT /webhooks/:id': 'owner',
  'DELETE /webhooks/:id': 'owner',
  'GET /webhooks/:id/secret': 'owner',
  'POST /webhooks/:id/rotate-secret': 'owner',
  'POST /webhooks/:id/test': 'owner',
  'GET /webhooks/:id/deliveries': 'manager',
  'POST /webhooks/:id/deliveries/:deliveryId/resend': 'owner',
  'POST /webhooks/:id/recover': 'owner',
  'GET /boards/:board/phases': 'seller',
  'PUT /boards/:board/phases': 'manager',
  'GET /deals/board': 'seller',
  'GET /deals/board/:phase': 'seller',
  'GET /deals': 'seller',
  'POST /deals': 'seller',
  'GET /deals/:id': 'seller',
  'PUT /deals/:id': 'seller',
  'DELETE /deals/:id': 'seller',
  'GET /people': 'seller',
  'GET /changes': 'seller',
  'GET /dashboard': 'seller',
  'GET /vehicles/board': 'seller',
  'GET /vehicles/board/:phase': 'seller',
  'GET /vehicles': 'seller',
  'POST /vehicles': 'seller',
  'GET /vehicles/:id': 'seller',
  'PUT /vehicles/:id': 'seller',
  'DELETE /vehicles/:id': 'seller',
  'GET /clients': 'seller',
  'POST /clients': 'seller',
  'GET /clients/:id': 'seller',
  'PUT /clients/:id': 'seller',
  'DELETE /clients/:id': 'seller',
  'POST /clients/:id/reactivate': 'seller',
  'GET /clients/:id/overview': 'seller',
  'GET /activities': 'seller',
  'POST /activities': 'seller',
  'GET /activities/:id': 'seller',
  'PUT /activities/:id': 'seller',
  'DELETE /activities/:id': 'seller',
  'POST /activities/:id/complete': 'seller',
  'GET /financial': 'seller',
  'GET /financial/summary': 'seller',
  'GET /financial/categories': 'seller',
  'POST /financial': 'seller',
  'GET /financial/:id': 'seller',
  'PUT /financial/:id': 'seller',
  'DELETE /financial/:id': 'seller',
  'POST /financial/:id/pay': 'seller',
};

const LESSER: Record<Role, Role[]> = { owner: ['manager', 'seller'], manager: ['seller'], seller: [] };
const UNKNOWN = '00000000-0000-4000-8000-00000000abcd';
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const pathOf = (e: PanelEndpoint) => e.path.replace(':board', 'deals').replace(/:\w+/g, UNKNOWN);
const name = (e: PanelEndpoint) => `${e.method} ${e.path}`;

const endpoints = await registeredPanelEndpoints();

describe('the panel role table covers every registered /panel/api route', () => {
  it('every registered route is in the table with the role it declares, and the table names no missing route', () => {
    const registered = new Map(endpoints.map((e) => [name(e), e.panel]));
    for (const [route, panel] of registered) {
      expect(panel, `${route} declares no config.panel`).toBeDefined();
      expect(route in ROLE_OF, `${route} is missing from the role table`).toBe(true);
      expect(panel!.role, route).toBe(ROLE_OF[route]);
    }
    const missing = Object.keys(ROLE_OF).filter((r) => !registered.has(r));
    expect(missing).toEqual([]);
  });
});

describe.each(DIALECTS)('panel role matrix (%s)', (dialect) => {
  let h: Harness;
  let teamId: string;
  beforeAll(async () => {
    h = await createHarness(dialect, { passwordHashing: TEST_HASHING });
    teamId = (await signedIn(h, 'owner')).teamId;
  });
  afterAll(() => h.close());

  const guarded = endpoints.filter((e) => ROLE_OF[name(e)]);

  it.each(guarded.map((e) => [name(e), e] as const))('%s: no session -> 401', async (_name, e) => {
    expectError(await panelBrowser(h).request(e.method, pathOf(e), STATE_CHANGING.has(e.method) ? {} : undefined), 401, 'UNAUTHORIZED');
  });

  it.each(guarded.map((e) => [name(e), e] as const))('%s: lesser roles -> 403; the needed role passes, with the CSRF token', async (_name, e) => {
    const needed = ROLE_OF[name(e)]!;
    const body = STATE_CHANGING.has(e.method) ? {} : undefined;
    for (const role of LESSER[needed]) {
      const { browser } = await signedIn(h, role, teamId);
      expectError(await browser.request(e.method, pathOf(e), body), 403, 'FORBIDDEN', 'Seu papel na equipe não permite esta ação');
    }
    const { browser } = await signedIn(h, needed, teamId);
    if (STATE_CHANGING.has(e.method)) {
      expectError(await browser.request(e.method, pathOf(e), body, { 'x-csrf-token': '' }), 403, 'CSRF_INVALID');
    }
    const res = await browser.request(e.method, pathOf(e), body);
    expect([401, 403], `${name(e)} as ${needed}: ${res.status} ${res.text}`).not.toContain(res.status);
  });
});
