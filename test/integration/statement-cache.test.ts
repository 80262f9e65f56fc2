import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STATEMENT_CACHE_SIZE, createDb, withStatementCache } from '../../src/storage/db.js';

interface T {
  items: { id: number; name: string };
}

// SQLite only: the cache wraps better-sqlite3 (PostgreSQL's named statements are in compiled-query.test.ts).
describe('SQLite prepared-statement cache', () => {
  let dir: string;
  let raw: SqliteDatabase.Database;
  let prepared: string[];
  let db: Kysely<T>;

  /** A Kysely on a real SQLite file whose cache holds `capacity` statements; `prepared` records real prepares. */
  function open(capacity?: number) {
    raw = new SqliteDatabase(join(dir, 'cache.db'));
    const prepare = raw.prepare.bind(raw);
    prepared = [];
    raw.prepare = (text: string) => {
      prepared.push(text);
      return prepare(text);
    };
    db = new Kysely<T>({ dialect: new SqliteDialect({ database: withStatementCache(raw, capacity) }) });
  }

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'autosales-stmt-'));
    open();
    await db.schema
      .createTable('items')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text')
      .execute();
    await db
      .insertInto('items')
      .values([1, 2, 3].map((id) => ({ id, name: `item ${id}` })))
      .execute();
  });

  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const byId = (id: number) => db.selectFrom('items').select('name').where('id', '=', id).executeTakeFirst();

  it('prepares a SQL text once and binds each call its own parameters', async () => {
    prepared.length = 0;
    expect(await byId(1)).toEqual({ name: 'item 1' });
    expect(await byId(2)).toEqual({ name: 'item 2' });
    expect(await byId(4)).toBeUndefined();
    expect(prepared).toHaveLength(1);
  });

  it('keeps different SQL texts apart', async () => {
    const names = await db.selectFrom('items').select('name').orderBy('id').execute();
    const ids = await db.selectFrom('items').select('id').orderBy('id').execute();
    expect(names.map((r) => r.name)).toEqual(['item 1', 'item 2', 'item 3']);
    expect(ids.map((r) => r.id)).toEqual([1, 2, 3]);
  });

  it('evicts the least recently used statement and keeps answering after many distinct statements', async () => {
    await db.destroy();
    open(3);
    const distinct = (n: number) => sql<{ v: number }>`select ${sql.lit(n)} as v`.execute(db);
    for (let n = 0; n < 50; n++) expect((await distinct(n)).rows).toEqual([{ v: n }]);
    prepared.length = 0;
    await distinct(49); // still cached
    expect(prepared).toEqual([]);
    await distinct(0); // evicted long ago: prepared again, and answers right
    expect(prepared).toHaveLength(1);
    expect((await distinct(0)).rows).toEqual([{ v: 0 }]);
    // Cached now: 48, 49, 0 (oldest first). A hit counts as a use: after 48 is read, a new statement evicts 49, not 48.
    await distinct(48);
    await distinct(100);
    prepared.length = 0;
    await distinct(48);
    expect(prepared).toEqual([]);
    await distinct(49);
    expect(prepared).toEqual(['select 49 as v']);
  });

  it('a rollback still undoes writes made through cached statements', async () => {
    const rename = (trx: Kysely<T>, id: number) => trx.updateTable('items').set({ name: 'renamed' }).where('id', '=', id).execute();
    await rename(db, 1); // the update statement is now cached (and committed for row 1)
    await expect(
      db.transaction().execute(async (trx) => {
        await rename(trx, 2);
        expect(await trx.selectFrom('items').select('name').where('id', '=', 2).executeTakeFirst()).toEqual({ name: 'renamed' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await byId(1)).toEqual({ name: 'renamed' });
    expect(await byId(2)).toEqual({ name: 'item 2' });
  });

  it('streams through a cached statement, and a statement still iterating is not handed out again', async () => {
    const query = db.selectFrom('items').select('name').orderBy('id');
    expect((await query.execute()).length).toBe(3); // now cached
    const streamed: string[] = [];
    for await (const row of query.stream()) streamed.push(row.name);
    expect(streamed).toEqual(['item 1', 'item 2', 'item 3']);
    expect((await query.execute()).length).toBe(3);

    // Kysely runs one query at a time per connection, so this only guards direct use of the handle.
    const handle = withStatementCache(raw);
    const text = 'select name from items order by id';
    const iterating = handle.prepare(text).iterate([]);
    iterating.next();
    expect(handle.prepare(text).all([])).toHaveLength(3);
    iterating.return?.();
    expect(handle.prepare(text)).toBe(handle.prepare(text));
  });

  it('a schema change needs no invalidation: SQLite re-prepares the cached statement', async () => {
    const all = () => db.selectFrom('items').selectAll().where('id', '=', 1).executeTakeFirst();
    expect(await all()).toEqual({ id: 1, name: 'item 1' });
    await sql`alter table items add column note text default 'n'`.execute(db);
    expect(await all()).toEqual({ id: 1, name: 'item 1', note: 'n' });
  });

  it('createDb keeps working past the cache size, and closes cleanly', async () => {
    const appDb = createDb(`sqlite:${join(dir, 'app.db')}`);
    for (let n = 0; n < STATEMENT_CACHE_SIZE + 20; n++) {
      expect((await sql<{ v: number }>`select ${sql.lit(n)} as v, ${n} as w`.execute(appDb.kysely)).rows).toEqual([{ v: n, w: n }]);
    }
    expect((await sql<{ v: number }>`select ${sql.lit(0)} as v, ${7} as w`.execute(appDb.kysely)).rows).toEqual([{ v: 0, w: 7 }]);
    await appDb.close();
  });
});
