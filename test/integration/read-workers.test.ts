import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/storage/db.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { NotAReadError, readWorkersKysely, startReadWorkers } from '../../src/storage/read-workers.js';
import { spawnChild } from '../support/child.js';
import { ensureBuilt } from '../support/cli.js';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Harness } from '../support/harness.js';
import { gate } from '../support/wait.js';

/**
 * Issue 15: on SQLite the reads that can be long (searches, filtered lists, deep pages, the panel's
 * boards) run on read workers, worker threads with read-only connections of their own
 * (storage/read-workers.ts), so they use the other cores and never hold the event loop. What that may
 * not change: the answers (the same rows as on the serving connection), only committed state is read
 * (never an open transaction's rows, never waiting for one), nothing is written through them, and a
 * worker that cannot answer gives way to the serving connection. No timing: the tests count the
 * workers' reads and order events.
 */

const ROOT = join(import.meta.dirname, '..', '..');

describe.skipIf(!DIALECTS.includes('sqlite'))('read workers (sqlite)', () => {
  let h: Harness;
  const dirs: string[] = [];
  const dbs: Db[] = [];

  beforeAll(async () => {
    h = await createHarness('sqlite');
  });
  afterAll(async () => {
    await h?.close();
    for (const db of dbs) await db.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  async function fileDb(readWorkers: number): Promise<Db> {
    const dir = mkdtempSync(join(tmpdir(), 'autosales-read-workers-'));
    dirs.push(dir);
    const db = createDb(`sqlite:${join(dir, 'x.db')}`, { readWorkers });
    dbs.push(db);
    await migrateToLatest(db);
    return db;
  }

  it('searches, filtered lists, deep pages and boards are read by the workers, with the answers the serving connection gives', async () => {
    const t = await h.team();
    for (let i = 0; i < 30; i++) {
      const client = await t.post('/clients', { type: 'PF', name: `Cliente Blindado ${i}`, email: `c${i}@example.com` });
      expect(client.status, client.text).toBe(201);
      const deal = await t.post('/deals', {
        title: `Corolla blindado ${i}`,
        value: 1000 * i,
        phase: i % 2 ? 'proposta' : 'lead',
        client_id: client.body.data.id,
      });
      expect(deal.status, deal.text).toBe(201);
    }
    const db = h.testDb.db;
    const paths = [
      '/deals?search=blindado&limit=7&page=2',
      '/deals?phase=proposta&min_value=5000&sort=-value',
      '/deals?status=ativo&search=corolla&sort=title',
      '/clients?search=cliente%20blindado&limit=5',
      '/deals?page=3&limit=10',
    ];
    const before = db.readWorkerStats!();
    const viaWorkers = await Promise.all(paths.map((path) => t.get(path)));
    const after = db.readWorkerStats!();
    expect(after.reads - before.reads).toBeGreaterThanOrEqual(paths.length);
    expect(after.failed).toBe(before.failed);

    // The same lists on a Db whose `reads` is the serving connection itself: the same answers, byte for byte.
    const { createServices } = await import('../../src/app/services.js');
    const direct = createServices({ ...db, reads: db.kysely });
    for (const [i, path] of paths.entries()) {
      expect(viaWorkers[i]!.status, viaWorkers[i]!.text).toBe(200);
      const url = new URL(path, 'http://x');
      // As the route's schema coerces them: numbers where numbers are expected.
      const query = Object.fromEntries([...url.searchParams].map(([k, v]) => [k, /^\d+$/.test(v) ? Number(v) : v]));
      const service = url.pathname === '/deals' ? direct.deals : direct.clients;
      const expected = await service.list(t.teamId, query);
      expect(JSON.stringify({ success: true, ...expected })).toBe(viaWorkers[i]!.text);
    }

    const board = await h.services.boards.dealsBoard(t.teamId, {}, 5);
    expect(board.columns.find((c) => c.phase === 'proposta')!.count).toBe(15);
    expect(db.readWorkerStats!().reads).toBeGreaterThan(after.reads);
  });

  it('read only committed state: an open transaction’s rows are not seen, and the read does not wait for it', async () => {
    const db = await fileDb(1);
    await sql`create table notes (id integer primary key, body text not null)`.execute(db.kysely);
    await sql`insert into notes (body) values ('committed')`.execute(db.kysely);
    const inside = gate();
    const release = gate();
    const writer = db.kysely.transaction().execute(async (trx) => {
      await sql`insert into notes (body) values ('uncommitted')`.execute(trx);
      inside.open();
      await release.opened;
    });
    await inside.opened;
    // The transaction holds the serving connection: a read there would wait. The worker answers at once.
    const { rows } = await sql<{ body: string }>`select body from notes order by id`.execute(db.reads);
    expect(rows.map((r) => r.body)).toEqual(['committed']);
    release.open();
    await writer;
    const { rows: later } = await sql<{ body: string }>`select body from notes order by id`.execute(db.reads);
    expect(later.map((r) => r.body)).toEqual(['committed', 'uncommitted']);
    expect(db.readWorkerStats!()).toEqual({ reads: 2, failed: 0 });
  });

  it('refuse anything but a read, and a transaction: nothing is written through them', async () => {
    const db = await fileDb(1);
    await sql`create table notes (id integer primary key, body text not null)`.execute(db.kysely);
    await expect(sql`insert into notes (body) values ('sneaky')`.execute(db.reads)).rejects.toBeInstanceOf(NotAReadError);
    await expect(db.reads.transaction().execute(async () => undefined)).rejects.toThrow(/never a transaction/);
    const { rows } = await sql<{ n: number }>`select count(*) as n from notes`.execute(db.kysely);
    expect(Number(rows[0]!.n)).toBe(0);
  });

  it('a read the workers cannot answer (their file is gone) is answered by the serving connection', async () => {
    const db = await fileDb(0);
    await sql`create table notes (id integer primary key, body text not null)`.execute(db.kysely);
    await sql`insert into notes (body) values ('here')`.execute(db.kysely);
    const workers = startReadWorkers(join(tmpdir(), 'autosales-no-such-dir', 'gone.db'), { size: 2 });
    try {
      const reads = readWorkersKysely(workers, db.kysely);
      const { rows } = await sql<{ body: string }>`select body from notes`.execute(reads);
      expect(rows).toEqual([{ body: 'here' }]);
      expect(workers.stats()).toEqual({ reads: 0, failed: 1 });
    } finally {
      await workers.close();
    }
  });

  it('share the reads among themselves: concurrent reads go to the least busy worker', async () => {
    const db = await fileDb(2);
    // Long enough that the second read is sent while the first is still running.
    const slow = sql<{ n: number }>`with recursive c(i) as (select 1 union all select i + 1 from c where i < 300000) select count(*) as n from c`;
    const [a, b] = await Promise.all([slow.execute(db.reads), slow.execute(db.reads)]);
    expect([Number(a.rows[0]!.n), Number(b.rows[0]!.n)]).toEqual([300000, 300000]);
    expect(db.readWorkerStats!()).toEqual({ reads: 2, failed: 0 });
  });

  it('leave the event loop free while they read: a timer set after a long read starts fires before that read ends', async () => {
    const db = await fileDb(1);
    await sql`select 1`.execute(db.reads);
    const order: string[] = [];
    const long = sql<{ n: number }>`with recursive c(i) as (select 1 union all select i + 1 from c where i < 3000000) select count(*) as n from c`
      .execute(db.reads)
      .then(() => order.push('read'));
    await new Promise<void>((resolve) => setImmediate(resolve));
    order.push('event loop');
    await long;
    expect(order).toEqual(['event loop', 'read']);
  });

  it('never keep a process alive on their own: a script that does not close its database still exits', async () => {
    ensureBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'autosales-read-workers-'));
    dirs.push(dir);
    const script = `
      const { createDb } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'storage', 'db.js')).href)});
      const { migrateToLatest } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'storage', 'migrator.js')).href)});
      const { sql } = await import('kysely');
      const db = createDb(${JSON.stringify(`sqlite:${join(dir, 'open.db')}`)}, { readWorkers: 2 });
      await migrateToLatest(db);
      const { rows } = await sql\`select count(*) as n from deals\`.execute(db.reads);
      console.log('done', rows[0].n, JSON.stringify(db.readWorkerStats()));`;
    const child = spawnChild(process.execPath, ['--input-type=module', '-e', script], { name: 'a script that leaves its read workers open', cwd: ROOT });
    expect(await child.waitExit(20_000), child.output()).toEqual({ code: 0, signal: null });
    expect(child.stdout()).toContain('done 0 {"reads":1,"failed":0}');
  });
});
