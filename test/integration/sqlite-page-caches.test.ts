import { withPendingConfirmation } from '../../src/domain/reads/read-confirmation.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/services.js';
import { createDb, type Db } from '../../src/storage/db.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { DIALECTS } from '../support/dialects.js';

/**
 * Issue 15, server RSS: the serving SQLite connection keeps a 64 MiB page cache (searches and deep
 * pages revisit many pages), the read-only connection that answers GET by id only 8 MiB (point reads
 * by primary key; a second 64 MiB copy of the records cost about 40 MB of RSS). Both keep the 5 s busy
 * timeout (the CLI and the server share the file), and the small cache changes no answer.
 */
describe.skipIf(!DIALECTS.includes('sqlite'))('sqlite page caches', () => {
  let dir: string;
  let db: Db;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'autosales-page-caches-'));
    db = createDb(`sqlite:${join(dir, 'x.db')}`);
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const servingPragma = async (name: string) => (await sql.raw(`pragma ${name}`).execute(db.kysely)).rows[0];

  it('the serving connection keeps 64 MiB (16 MiB with read workers, each 16 MiB), the read-only connection 8 MiB, all a 5 s busy timeout', async () => {
    expect(await servingPragma('cache_size')).toEqual({ cache_size: -65536 });
    const withWorkers = createDb(`sqlite:${join(dir, 'workers.db')}`, { readWorkers: 1 });
    try {
      await migrateToLatest(withWorkers);
      expect((await sql.raw('pragma cache_size').execute(withWorkers.kysely)).rows[0]).toEqual({ cache_size: -16384 });
      expect((await sql.raw('pragma cache_size').execute(withWorkers.reads)).rows[0]).toEqual({ cache_size: -16384 });
      expect((await sql.raw('pragma busy_timeout').execute(withWorkers.reads)).rows[0]).toEqual({ timeout: 5000 });
      expect(withWorkers.readWorkerStats!()).toEqual({ reads: 2, failed: 0 });
    } finally {
      await withWorkers.close();
    }
    expect(await servingPragma('busy_timeout')).toEqual({ timeout: 5000 });
    expect(db.committedReader!.get('pragma cache_size', [])).toEqual({ cache_size: -8192 });
    expect(db.committedReader!.get('pragma busy_timeout', [])).toEqual({ timeout: 5000 });
  });

  it('records read by id through the small cache are the ones the serving connection reads', async () => {
    const services = createServices(db);
    const team = await services.teams.create({ name: 'Loja do cache', plan: 'autoshopping' });
    // More deals than 8 MiB of pages hold with their long descriptions: reads go past the cache.
    const description = 'x'.repeat(3000);
    const ids: string[] = [];
    for (let batch = 0; batch < 30; batch++) {
      const made = await Promise.all(
        Array.from({ length: 100 }, (_, i) => services.deals.create(team.id, { title: `Venda ${batch}-${i}`, value: 1000 + i, description })),
      );
      ids.push(...made.map((d) => d.id));
    }
    for (const id of ids) {
      // A read that confirms a pending authentication goes through the committed reader.
      let confirmedWith: number | null = null;
      const committed = await withPendingConfirmation(
        async (epoch) => void (confirmedWith = epoch),
        () => services.deals.get(team.id, id),
      );
      expect(confirmedWith).not.toBeNull();
      expect(committed).toEqual(await services.deals.get(team.id, id));
    }
  });
});
