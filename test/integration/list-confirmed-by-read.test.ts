import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import SqliteDatabase from 'better-sqlite3';
import { createServices } from '../../src/app/services.js';
import { createDb, type Db } from '../../src/storage/db.js';
import { createHarness, type Harness } from '../support/harness.js';
import { DIALECTS } from '../support/dialects.js';
import { waitUntil } from '../support/wait.js';

/**
 * Issue 15, the default list: GET /deals, /clients and /vehicles (no query string) read the page,
 * its exact total and the auth_epoch counter in one statement; on SQLite on the read-only connection
 * (storage/committed-reader.ts), so all three come from one committed snapshot. A cached
 * authentication is confirmed by that read. The guarantees it touches:
 * - a key revoked (or a scope removed) by another program is refused on its very next list request,
 *   401/403 exactly as without the cache, for a full page and for an empty one (the page past the
 *   end has no row to carry the counter: a second statement reads total and counter together);
 * - the total is exact: it equals count(*) of the listed rows, also right after writes committed by
 *   another program;
 * - the answer is the one the plain path gives (byte for byte).
 * "Another program" is a second database handle with services of its own.
 */

const RESOURCES = ['deals', 'clients', 'vehicles'] as const;
type Resource = (typeof RESOURCES)[number];

const bodyOf = (resource: Resource, i: number) =>
  resource === 'deals'
    ? { title: `Venda Civic ${i}`, value: 1000 + i }
    : resource === 'clients'
      ? { type: 'PF', name: `Maria da Silva ${i}` }
      : { title: `Onix ${i}`, brand: 'Chevrolet', model: 'Onix', price: 50000 + i };

/** What the default list leaves out: archived deals and vehicles, inactive clients. */
const listedCount = async (db: Db, resource: Resource, teamId: string): Promise<number> => {
  const row = await db.kysely
    .selectFrom(resource)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_id', '=', teamId)
    .where('status', resource === 'clients' ? '=' : '!=', resource === 'clients' ? 'active' : 'arquivado')
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

describe.each(DIALECTS)('%s: the default list with a cached authentication', (dialect) => {
  let h: Harness;
  let other: Db;
  let teamId: string;
  let emptyTeamId: string;

  beforeAll(async () => {
    h = await createHarness(dialect);
    other = createDb(h.testDb.url, { poolMax: 2 });
    const t = await h.team();
    teamId = t.teamId;
    emptyTeamId = (await h.team()).teamId;
    for (const resource of RESOURCES) for (let i = 0; i < 3; i++) expect((await t.post(`/${resource}`, bodyOf(resource, i))).status).toBe(201);
  });
  afterAll(async () => {
    await other?.close();
    await h?.close();
  });

  const get = (key: string, path: string) => h.inject({ method: 'GET', url: `/api/v1${path}`, headers: { authorization: `Bearer ${key}` } });

  /** Requests until the app serves this key from its cache (on PostgreSQL, once its LISTEN connection is up). */
  async function warm(key: string, resource: Resource): Promise<void> {
    for (let i = 0; i < 20; i++) expect((await get(key, `/${resource}`)).status).toBe(200);
  }

  it.each(RESOURCES)('%s: a key revoked by another program gets 401 on its next list request, for a full page and an empty one', async (resource) => {
    for (const team of [teamId, emptyTeamId]) {
      const created = await h.services.keys.create({ teamId: team });
      await warm(created.key, resource);
      await createServices(other).keys.revoke(created.id);
      const next = await get(created.key, `/${resource}`);
      expect(next.status, next.text).toBe(401);
      expect(next.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
      expect(next.body.data).toBeUndefined();
      expect((await get(created.key, `/${resource}`)).status).toBe(401);
    }
  });

  it.each(RESOURCES)('%s: a read scope removed by another program gives 403 on the next list request', async (resource) => {
    const created = await h.services.keys.create({ teamId });
    await warm(created.key, resource);
    const kept = RESOURCES.find((r) => r !== resource)!;
    await other.kysely
      .updateTable('api_keys')
      .set({ scopes: `${kept}:read` })
      .where('id', '=', created.id)
      .execute();
    const next = await get(created.key, `/${resource}`);
    expect(next.status, next.text).toBe(403);
    expect(next.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
    expect((await get(created.key, `/${kept}`)).status).toBe(200);
  });

  it.each(RESOURCES)('%s: the total equals count(*) after writes by another program, and the answer is the plain path’s, byte for byte', async (resource) => {
    const created = await h.services.keys.create({ teamId });
    await warm(created.key, resource);
    const others = createServices(other);
    const id = (await get(created.key, `/${resource}`)).body.data[0].id as string;
    const writes = [
      () =>
        resource === 'clients' ? others.clients.create(teamId, bodyOf(resource, 10) as never) : others[resource].create(teamId, bodyOf(resource, 10) as never),
      () => (resource === 'clients' ? others.clients.deactivate(teamId, id) : others[resource].archive(teamId, id)),
    ];
    for (const write of writes) {
      const before = (await get(created.key, `/${resource}`)).body.pagination.total as number;
      await write();
      const res = await get(created.key, `/${resource}`);
      expect(res.status).toBe(200);
      expect(res.body.pagination.total).toBe(await listedCount(other, resource, teamId));
      expect(res.body.pagination.total).not.toBe(before);
      // The same page through the hook's authentication (a query string) and the plain read: the same bytes.
      const plain = await get(created.key, `/${resource}?page=1`);
      expect(res.text).toBe(plain.text);
    }
    // The empty team's page: total 0, no rows.
    const stranger = await h.services.keys.create({ teamId: emptyTeamId });
    await warm(stranger.key, resource);
    const empty = await get(stranger.key, `/${resource}`);
    expect(empty.body).toEqual({ success: true, data: [], pagination: { page: 1, limit: 20, total: 0, pages: 0 } });
  });
});

describe.runIf(DIALECTS.includes('sqlite'))('sqlite: one committed read per warm default list', () => {
  let h: Harness;
  afterAll(async () => h?.close());

  it.each(RESOURCES)(
    '%s: a warm GET of the list runs one statement, on the read-only connection (page, total and counter in one snapshot)',
    async (resource) => {
      h ??= await createHarness('sqlite');
      const t = await h.team();
      for (let i = 0; i < 3; i++) await t.post(`/${resource}`, bodyOf(resource, i));
      const probe = new SqliteDatabase(':memory:');
      const statement = Object.getPrototypeOf(probe.prepare('select 1')) as Record<'get' | 'all' | 'run' | 'iterate', (...args: unknown[]) => unknown>;
      probe.close();
      const spies = (['get', 'all', 'run', 'iterate'] as const).map((method) => [method, vi.spyOn(statement, method)] as const);
      try {
        const statementsFor = async () => {
          for (const [, spy] of spies) spy.mockClear();
          const res = await t.get(`/${resource}`);
          expect(res.status).toBe(200);
          expect(res.body.pagination.total).toBe(3);
          return spies.flatMap(([method, spy]) =>
            spy.mock.contexts.map((self) => `${method}:${(self as { database: SqliteDatabase.Database }).database.readonly ? 'readonly' : 'serving'}`),
          );
        };
        await waitUntil(async () => (await statementsFor()).length === 1, 10_000, 'a list served from the cache in one statement');
        for (let i = 0; i < 5; i++) expect(await statementsFor()).toEqual(['all:readonly']);
      } finally {
        for (const [, spy] of spies) spy.mockRestore();
      }
    },
  );
});

describe.runIf(DIALECTS.includes('postgres'))('postgres: one round trip per warm default list', () => {
  let h: Harness;
  afterAll(async () => h?.close());

  it.each(RESOURCES)('%s: a warm GET of the list sends one statement (page, total and counter)', async (resource) => {
    h ??= await createHarness('postgres');
    const t = await h.team();
    for (let i = 0; i < 3; i++) await t.post(`/${resource}`, bodyOf(resource, i));
    const query = vi.spyOn(pg.Client.prototype, 'query');
    try {
      const statementsFor = async () => {
        query.mockClear();
        const res = await t.get(`/${resource}`);
        expect(res.status).toBe(200);
        expect(res.body.pagination.total).toBe(3);
        return query.mock.calls.length;
      };
      await waitUntil(async () => (await statementsFor()) === 1, 10_000, 'a list served from the cache in one statement');
      for (let i = 0; i < 5; i++) expect(await statementsFor()).toBe(1);
      // The first page's limit is a constant: the plan made once for all values knows the page is 20 rows (list-sql.ts, literalFirstPageLimit).
      expect((query.mock.calls[0]![0] as unknown as { text: string }).text).toMatch(/limit 20$/);
    } finally {
      query.mockRestore();
    }
  });
});
