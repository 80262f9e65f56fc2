import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createServices } from '../../src/app/services.js';
import { createDb } from '../../src/storage/db.js';
import { AUTH_LISTENER_APPLICATION_NAME } from '../../src/storage/auth-changes.js';
import { api, ensureBuilt, killAllChildren, processDb, runCliJson, seedTeam, startServe, type ProcessDb, type ServerProcess } from '../support/cli.js';
import { DIALECTS } from '../support/dialects.js';
import { waitUntil } from '../support/wait.js';

/**
 * Issue 15, point 1: `autosales serve` keeps valid keys in memory (no database round trip to
 * authenticate on the hot path), and still "a revoked key fails on its very next request" when the
 * revocation comes from another process: the CLI, or any other program writing to the database.
 * SQLite: the server reads the auth_epoch counter (moved by triggers) on each request. PostgreSQL:
 * the triggers NOTIFY the server's LISTEN connection at commit; without that connection the server
 * authenticates every request against the database (fail closed).
 */

beforeAll(() => {
  ensureBuilt();
}, 200_000);

const servers: ServerProcess[] = [];
const databases: ProcessDb[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop('SIGKILL', 5_000).catch(() => undefined);
  for (const db of databases.splice(0)) await db.cleanup().catch(() => undefined);
});
afterAll(() => killAllChildren());

const ENV = { RATE_LIMITS: 'off', WEBHOOK_WORKER: 'off', SCHEDULER: 'off' };

/** Enough authenticated requests that the key is in the server's cache (on PostgreSQL, once its LISTEN connection is up). */
async function warm(server: ServerProcess, key: string): Promise<void> {
  for (let i = 0; i < 30; i++) {
    const res = await api(server.url, key, 'GET', '/api/v1/deals?limit=1');
    expect(res.status, res.text).toBe(200);
  }
}

async function setup(dialect: 'sqlite' | 'postgres', extraKeys: number) {
  const db = await processDb(dialect);
  databases.push(db);
  const team = await seedTeam(db.url, 'autoshopping');
  // Keys made by this process (not the server's): a third party writing to the same database.
  const own = createDb(db.url, { poolMax: 2 });
  const services = createServices(own);
  const keys: { id: string; key: string }[] = [];
  for (let i = 0; i < extraKeys; i++) {
    const created = await services.keys.create({ teamId: team.teamId, name: `chave ${i}` });
    keys.push({ id: created.id, key: created.key });
  }
  const server = await startServe(db.url, { env: ENV });
  servers.push(server);
  return { db, team, own, services, keys, server };
}

describe.each(DIALECTS)('%s: cached authentication across processes', (dialect) => {
  it('a key revoked by another process (the CLI) fails on the very next request to the server', async () => {
    const { db, own, keys, server, team } = await setup(dialect, 3);
    try {
      for (const { id, key } of keys) {
        await warm(server, key);
        const revoked = await runCliJson(db.url, ['keys', 'revoke', id, '--json']);
        expect(revoked.revoked_at).toBeTruthy();
        const next = await api(server.url, key, 'GET', '/api/v1/deals?limit=1');
        expect(next.status, next.text).toBe(401);
      }
      // The seed key of the team was never revoked: still served.
      expect((await api(server.url, team.key, 'GET', '/api/v1/deals?limit=1')).status).toBe(200);
    } finally {
      await own.close();
    }
  }, 120_000);

  it('a key revoked by a program holding its own connection fails on the very next request, many times over', async () => {
    const { own, services, keys, server } = await setup(dialect, 12);
    try {
      for (const { id, key } of keys) {
        await warm(server, key);
        await services.keys.revoke(id);
        const next = await api(server.url, key, 'GET', '/api/v1/deals?limit=1');
        expect(next.status, next.text).toBe(401);
      }
    } finally {
      await own.close();
    }
  }, 120_000);
});

describe.each(DIALECTS)('%s: GET by id with a cached authentication across processes', (dialect) => {
  // On PostgreSQL the read itself carries the auth_epoch counter that confirms the cached key
  // (no separate counter read): the revocation must still fail the very next GET by id.
  it('a key revoked by another program fails on its very next GET by id of a deal, a client or a vehicle, many times over', async () => {
    const { own, services, keys, server, team } = await setup(dialect, 12);
    try {
      const client = await services.clients.create(team.teamId, { type: 'PF', name: 'Maria da Silva' });
      const deal = await services.deals.create(team.teamId, { title: 'Venda Civic 2024', client_id: client.id });
      const vehicle = await services.vehicles.create(team.teamId, { title: 'Onix 2020', brand: 'Chevrolet', model: 'Onix' });
      const paths = [`/api/v1/deals/${deal.id}`, `/api/v1/clients/${client.id}`, `/api/v1/vehicles/${vehicle.id}`];
      for (const [i, { id, key }] of keys.entries()) {
        const path = paths[i % paths.length]!;
        for (let j = 0; j < 30; j++) {
          const res = await api(server.url, key, 'GET', path);
          expect(res.status, res.text).toBe(200);
        }
        await services.keys.revoke(id);
        const next = await api(server.url, key, 'GET', path);
        expect(next.status, next.text).toBe(401);
      }
      // The seed key was never revoked: it still reads all three.
      for (const path of paths) expect((await api(server.url, team.key, 'GET', path)).status).toBe(200);
    } finally {
      await own.close();
    }
  }, 120_000);
});

describe.runIf(DIALECTS.includes('postgres'))('postgres: the LISTEN connection', () => {
  it('when it drops, nothing cached before is used again: a revocation made meanwhile fails on the next request', async () => {
    const { db, own, services, keys, server } = await setup('postgres', 1);
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      const [{ id, key }] = keys as [{ id: string; key: string }];
      await warm(server, key);
      const listeners = async () =>
        (
          await admin.query<{ pid: number }>(
            'select pid from pg_stat_activity where application_name = $1 and datname = current_database() and query ilike $2',
            [AUTH_LISTENER_APPLICATION_NAME, `%LISTEN%`],
          )
        ).rows.map((r) => r.pid);
      // Cut every auth listener of this database (other test files' servers reconnect too).
      const before = await listeners();
      expect(before.length).toBeGreaterThan(0);
      for (const pid of before) await admin.query('select pg_terminate_backend($1)', [pid]);
      await waitUntil(async () => !(await listeners()).some((pid) => before.includes(pid)), 10_000, 'the LISTEN connections to end');
      // The revocation's notification goes nowhere: the server must not trust its cache.
      await services.keys.revoke(id);
      const next = await api(server.url, key, 'GET', '/api/v1/deals?limit=1');
      expect(next.status, next.text).toBe(401);
      // And it listens again.
      await waitUntil(async () => (await listeners()).some((pid) => !before.includes(pid)), 10_000, 'a new LISTEN connection');
    } finally {
      await admin.end();
      await own.close();
    }
  }, 120_000);
});
