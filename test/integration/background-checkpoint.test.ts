import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/services.js';
import { createDb, type Db, type DbOptions } from '../../src/storage/db.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { spawnChild } from '../support/child.js';
import { ensureBuilt } from '../support/cli.js';
import { DIALECTS } from '../support/dialects.js';

/**
 * Issue 15: on SQLite `serve` checkpoints the WAL from a worker thread with its own connection
 * (storage/checkpointer.ts), and the serving connection keeps SQLite's own checkpoint only as a
 * safety net. What that may not change: the WAL stays bounded under sustained writes, a checkpoint
 * really puts the committed rows into the database file, and nothing committed is lost. No timing:
 * the tests set the worker's interval out of reach and trigger its checkpoints themselves.
 */

const NEVER = 3_600_000;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe.skipIf(!DIALECTS.includes('sqlite'))('background WAL checkpoints (sqlite)', () => {
  const dirs: string[] = [];
  const dbs: Db[] = [];
  afterEach(async () => {
    for (const db of dbs.splice(0)) await db.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function open(options: DbOptions) {
    const dir = mkdtempSync(join(tmpdir(), 'autosales-checkpoint-'));
    dirs.push(dir);
    const file = join(dir, 'x.db');
    const db = createDb(`sqlite:${file}`, { checkpoints: 'background', checkpointIntervalMs: NEVER, ...options });
    dbs.push(db);
    await migrateToLatest(db);
    const services = createServices(db);
    const team = await services.teams.create({ name: 'Loja do checkpoint', plan: 'autoshopping' });
    await services.webhooks.create({ teamId: team.id, url: 'https://receiver.example.com/hook', events: ['deal.created'] });
    let n = 0;
    /** `count` creates, 10 at a time (as concurrent requests: group commit batches them). */
    const createDeals = async (count: number) => {
      for (let done = 0; done < count; done += 10) {
        await Promise.all(Array.from({ length: 10 }, () => services.deals.create(team.id, { title: `Venda ${n++}`, value: 1000 + n, tags: ['wal'] })));
      }
    };
    return { db, file, team, createDeals, walBytes: () => statSync(`${file}-wal`).size };
  }

  it('the worker checkpoints while writes go on: the WAL starts over instead of growing, and the database file alone holds every committed deal', async () => {
    // The safety net out of reach too: only the worker's checkpoints can keep the WAL small.
    const { db, file, createDeals, walBytes } = await open({ safetyNetPages: 1_000_000 });
    await createDeals(100);
    const afterFirst = walBytes();
    expect(afterFirst).toBeGreaterThan(0);

    const sizes: number[] = [];
    for (let round = 0; round < 8; round++) {
      const result = await db.checkpoint!();
      // Nothing was writing during the checkpoint: it copied every frame.
      expect(result.busy).toBe(0);
      expect(result.checkpointed).toBe(result.log);
      await createDeals(100);
      sizes.push(walBytes());
    }
    // 900 creates in all: without a checkpoint the WAL would hold all of them; each round's writes
    // start over at the WAL's beginning, so its file stays the size of about one round.
    expect(Math.max(...sizes)).toBeLessThan(afterFirst * 2);

    // A checkpoint that copies everything leaves nothing in the WAL that the database file lacks:
    // the file alone, copied without its WAL, has every deal.
    const result = await db.checkpoint!();
    expect(result.checkpointed).toBe(result.log);
    const copy = `${file}.copy`;
    copyFileSync(file, copy);
    expect(existsSync(`${copy}-wal`)).toBe(false);
    const alone = new SqliteDatabase(copy, { readonly: true });
    try {
      expect(alone.prepare('select count(*) from deals').pluck().get()).toBe(900);
      expect(alone.prepare("select count(*) from events where type = 'deal.created'").pluck().get()).toBe(900);
    } finally {
      alone.close();
    }
  });

  it('with the worker never running, the safety net still bounds the WAL under sustained writes', async () => {
    const { db, createDeals, walBytes } = await open({ safetyNetPages: 200 });
    const pageSize = Number((await sql<{ page_size: number }>`pragma page_size`.execute(db.kysely)).rows[0]!.page_size);
    for (let round = 0; round < 10; round++) {
      await createDeals(100);
      // 200 pages, plus the last batch that crossed them (10 creates, well under 200 pages), plus the WAL header.
      expect(walBytes()).toBeLessThan(400 * (pageSize + 24) + 32);
    }
  });

  it('every committed deal is still there after the database is closed with the worker behind, and reopened', async () => {
    const { db, file, team, createDeals } = await open({});
    await createDeals(200);
    await db.close();
    dbs.splice(dbs.indexOf(db), 1);
    const again = createDb(`sqlite:${file}`);
    dbs.push(again);
    const row = await again.kysely
      .selectFrom('deals')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('team_id', '=', team.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.n)).toBe(200);
  });

  it('a worker that cannot open the file (it is gone) gives way to SQLite checkpointing inside the COMMIT again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'autosales-checkpoint-'));
    dirs.push(dir);
    const file = join(dir, 'x.db');
    const db = createDb(`sqlite:${file}`, { checkpoints: 'background', checkpointIntervalMs: NEVER });
    dbs.push(db);
    // The file exists (the serving connection created it); remove it under the worker before it opens it.
    rmSync(file);
    await expect(db.checkpoint!()).rejects.toThrow();
    const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db.kysely);
    expect(rows[0]!.wal_autocheckpoint).toBe(1000);
  });

  it('the worker never keeps a process alive on its own: a script that does not close its database still exits, and one that closes it exits cleanly', async () => {
    ensureBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'autosales-checkpoint-'));
    dirs.push(dir);
    const script = (close: boolean) => `
      const { createDb } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'storage', 'db.js')).href)});
      const { migrateToLatest } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'storage', 'migrator.js')).href)});
      const db = createDb(${JSON.stringify(`sqlite:${join(dir, close ? 'closed.db' : 'open.db')}`)}, { checkpoints: 'background' });
      await migrateToLatest(db);
      await db.checkpoint();
      ${close ? 'await db.close();' : ''}
      console.log('done');`;
    for (const close of [false, true]) {
      const child = spawnChild(process.execPath, ['--input-type=module', '-e', script(close)], {
        name: `a script that ${close ? 'closes' : 'leaves open'} its database`,
      });
      expect(await child.waitExit(20_000), child.output()).toEqual({ code: 0, signal: null });
      expect(child.stdout()).toContain('done');
    }
    // Closed: the last connection checkpointed the whole WAL and removed it.
    expect(existsSync(join(dir, 'closed.db-wal'))).toBe(false);
  });
});
