import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import SqliteDatabase from 'better-sqlite3';
import { createServices } from '../../src/app/services.js';
import { createDb, type Db } from '../../src/storage/db.js';
import { createHarness, type Harness } from '../support/harness.js';
import { DIALECTS } from '../support/dialects.js';
import { waitUntil } from '../support/wait.js';

/**
 * Issue 15, "one round trip per read on PostgreSQL": GET by id of deals, clients and vehicles reads
 * the auth_epoch counter in its own statement, so a cached authentication is confirmed by the read
 * itself. The guarantee it touches: a key revoked (or a scope removed) by another program is refused
 * on its very next request, 401/403 exactly as without the cache, for a record that exists and for
 * one that does not, and the record is never served to it. "Another program" here is a second
 * database handle with services of its own: the app's cache is not cleared by its revocations.
 * On SQLite the read runs on a read-only connection that only sees committed state, carrying the
 * counter the same way (storage/committed-reader.ts).
 */

const RESOURCES = ['deals', 'clients', 'vehicles'] as const;
type Resource = (typeof RESOURCES)[number];
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(DIALECTS)('%s: GET by id with a cached authentication', (dialect) => {
  let h: Harness;
  let other: Db;
  let teamId: string;
  const ids = {} as Record<Resource, string>;

  beforeAll(async () => {
    h = await createHarness(dialect);
    other = createDb(h.testDb.url, { poolMax: 2 });
    const t = await h.team();
    teamId = t.teamId;
    ids.clients = (await t.post('/clients', { type: 'PF', name: 'Maria da Silva' })).body.data.id;
    ids.deals = (await t.post('/deals', { title: 'Venda Civic 2024', client_id: ids.clients })).body.data.id;
    ids.vehicles = (await t.post('/vehicles', { title: 'Onix 2020', brand: 'Chevrolet', model: 'Onix' })).body.data.id;
  });
  afterAll(async () => {
    await other?.close();
    await h?.close();
  });

  const get = (key: string, path: string) => h.inject({ method: 'GET', url: `/api/v1${path}`, headers: { authorization: `Bearer ${key}` } });

  /** Requests until the app serves this key from its cache (on PostgreSQL, once its LISTEN connection is up). */
  async function warm(key: string, resource: Resource): Promise<void> {
    for (let i = 0; i < 20; i++) expect((await get(key, `/${resource}/${ids[resource]}`)).status).toBe(200);
  }

  it.each(RESOURCES)('%s: a key revoked by another program gets 401 on its next GET by id, for an existing and an unknown id', async (resource) => {
    for (const id of [ids[resource], UNKNOWN_ID]) {
      const created = await h.services.keys.create({ teamId });
      await warm(created.key, resource);
      await createServices(other).keys.revoke(created.id);
      const next = await get(created.key, `/${resource}/${id}`);
      expect(next.status, next.text).toBe(401);
      expect(next.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
      // And it stays refused.
      expect((await get(created.key, `/${resource}/${ids[resource]}`)).status).toBe(401);
    }
  });

  it.each(RESOURCES)('%s: a read scope removed by another program gives 403 on the next GET by id; a scope kept still reads', async (resource) => {
    const created = await h.services.keys.create({ teamId });
    await warm(created.key, resource);
    const kept = RESOURCES.find((r) => r !== resource)!;
    await other.kysely
      .updateTable('api_keys')
      .set({ scopes: `${kept}:read` })
      .where('id', '=', created.id)
      .execute();
    const next = await get(created.key, `/${resource}/${ids[resource]}`);
    expect(next.status, next.text).toBe(403);
    expect(next.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
    const allowed = await get(created.key, `/${kept}/${ids[kept]}`);
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.body.data.id).toBe(ids[kept]);
  });

  it.each(RESOURCES)('%s: a valid cached key reads the record and gets 404 for an unknown id, as without the cache', async (resource) => {
    const created = await h.services.keys.create({ teamId });
    await warm(created.key, resource);
    const found = await get(created.key, `/${resource}/${ids[resource]}`);
    expect(found.status).toBe(200);
    expect(found.body.data.id).toBe(ids[resource]);
    expect((await get(created.key, `/${resource}/${UNKNOWN_ID}`)).status).toBe(404);
    expect((await get(created.key, `/${resource}/nao-e-um-id`)).status).toBe(404);
    // Another team's key does not see it.
    const stranger = await h.team();
    expect((await stranger.get(`/${resource}/${ids[resource]}`)).status).toBe(404);
  });
});

describe.runIf(DIALECTS.includes('sqlite'))('sqlite: one committed read per GET by id', () => {
  let h: Harness;
  afterAll(async () => h?.close());

  it.each(RESOURCES)('%s: a warm GET by id runs one statement, on the read-only connection (record and counter in one snapshot)', async (resource) => {
    h ??= await createHarness('sqlite');
    const t = await h.team();
    const body =
      resource === 'deals'
        ? { title: 'Venda Civic 2024' }
        : resource === 'clients'
          ? { type: 'PF', name: 'Maria da Silva' }
          : { title: 'Onix 2020', brand: 'Chevrolet', model: 'Onix' };
    const created = (await t.post(`/${resource}`, body)).body.data;
    const probe = new SqliteDatabase(':memory:');
    const statement = Object.getPrototypeOf(probe.prepare('select 1')) as Record<'get' | 'all' | 'run' | 'iterate', (...args: unknown[]) => unknown>;
    probe.close();
    const spies = (['get', 'all', 'run', 'iterate'] as const).map((method) => [method, vi.spyOn(statement, method)] as const);
    try {
      const statementsFor = async () => {
        for (const [, spy] of spies) spy.mockClear();
        const res = await t.get(`/${resource}/${created.id}`);
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual(created);
        return spies.flatMap(([method, spy]) =>
          spy.mock.contexts.map((self) => `${method}:${(self as { database: SqliteDatabase.Database }).database.readonly ? 'readonly' : 'serving'}`),
        );
      };
      await waitUntil(async () => (await statementsFor()).length === 1, 10_000, 'a GET by id served from the cache in one statement');
      for (let i = 0; i < 5; i++) expect(await statementsFor()).toEqual(['get:readonly']);
    } finally {
      for (const [, spy] of spies) spy.mockRestore();
    }
  });
});

describe.runIf(DIALECTS.includes('postgres'))('postgres: one round trip per GET by id', () => {
  let h: Harness;
  afterAll(async () => h?.close());

  it.each(RESOURCES)('%s: a warm GET by id sends one statement (the read, carrying the counter)', async (resource) => {
    h ??= await createHarness('postgres');
    const t = await h.team();
    const body =
      resource === 'deals'
        ? { title: 'Venda Civic 2024' }
        : resource === 'clients'
          ? { type: 'PF', name: 'Maria da Silva' }
          : { title: 'Onix 2020', brand: 'Chevrolet', model: 'Onix' };
    const id = (await t.post(`/${resource}`, body)).body.data.id as string;
    const query = vi.spyOn(pg.Client.prototype, 'query');
    try {
      const statementsFor = async () => {
        query.mockClear();
        const res = await t.get(`/${resource}/${id}`);
        expect(res.status).toBe(200);
        return query.mock.calls.length;
      };
      // The first requests look the key up (and record its use); once it is cached, one statement each.
      await waitUntil(async () => (await statementsFor()) === 1, 10_000, 'a GET by id served from the cache in one statement');
      for (let i = 0; i < 5; i++) expect(await statementsFor()).toBe(1);
    } finally {
      query.mockRestore();
    }
  });
});
