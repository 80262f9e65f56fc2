import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/services.js';
import { createDb, type Db } from '../../src/storage/db.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { fakeClock } from '../support/clock.js';
import { DIALECTS, openTestDb, type TestDb } from '../support/dialects.js';
import { expectError } from '../support/expect.js';
import { createHarness, type Harness } from '../support/harness.js';
import { gate } from '../support/wait.js';

/**
 * Issue 15: on SQLite, transactions that come in together share one COMMIT (storage/group-commit.ts),
 * each in its own savepoint. These tests hold what that may not change: a failing request does not
 * fail its neighbours, nothing of it is stored, every record has exactly its events, nothing is
 * answered before its COMMIT, and a plain read never sees a batch's uncommitted rows. No timing:
 * grouping is proven by the driver's count of COMMITs.
 */

const ONIX = { title: 'Chevrolet Onix LT 2022', brand: 'Chevrolet', model: 'Onix' };

/** The SQLite file behind a test database URL. */
const fileOf = (url: string): string => url.slice('sqlite:'.length);

describe.skipIf(!DIALECTS.includes('sqlite'))('group commit through the API (sqlite)', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness('sqlite', { clock: fakeClock('2026-11-25T12:00:00.000Z', { step: 1000 }) });
  });
  afterAll(async () => {
    await h?.close();
  });

  const stats = () => h.testDb.db.groupCommitStats!();

  it('concurrent creates with a duplicate plate and an unknown client among them: the good ones are 201 and stored, the bad ones get their envelope and store nothing', async () => {
    const t = await h.team();
    const existing = await t.post('/vehicles', { ...ONIX, plate: 'RST-1A23' });
    expect(existing.status, existing.text).toBe(201);
    const before = stats();

    const requests = [
      ...Array.from({ length: 6 }, (_, i) => () => t.post('/vehicles', { ...ONIX, title: `Onix ${i}`, plate: `RST-2B${String(i).padStart(2, '0')}` })),
      () => t.post('/vehicles', { ...ONIX, title: 'Onix repetido', plate: 'rst1a23' }),
      ...Array.from({ length: 6 }, (_, i) => () => t.post('/deals', { title: `Negócio em lote ${i}`, value: 1000 + i })),
      () => t.post('/deals', { title: 'Negócio de cliente inexistente', value: 10, client_id: '0190a000-0000-7000-8000-000000000000' }),
    ];
    const answers = await Promise.all(requests.map((send) => send()));

    const after = stats();
    // Grouping happened: fewer COMMITs than transactions, and at least one COMMIT carried several.
    expect(after.units - before.units).toBeGreaterThanOrEqual(12);
    expect(after.batches - before.batches).toBeLessThan(after.units - before.units);
    expect(after.largestBatch).toBeGreaterThan(1);

    const vehicles = answers.slice(0, 6);
    const deals = answers.slice(7, 13);
    for (const res of [...vehicles, ...deals]) expect(res.status, res.text).toBe(201);
    expectError(answers[6]!, 422, 'DUPLICATE_ENTRY', 'Placa já cadastrada');
    expect(answers[13]!.status, answers[13]!.text).toBeGreaterThanOrEqual(400);
    expect(answers[13]!.status).toBeLessThan(500);
    expect(answers[13]!.body.success).toBe(false);

    // Stored exactly as answered; the failed ones left nothing.
    const storedVehicles = (await t.get('/vehicles?per_page=100')).body.data.map((v: { id: string }) => v.id).sort();
    expect(storedVehicles).toEqual([existing.body.data.id, ...vehicles.map((r) => r.body.data.id)].sort());
    for (const res of vehicles) expect((await t.get(`/vehicles/${res.body.data.id}`)).body.data).toEqual(res.body.data);
    const storedDeals = (await t.get('/deals?per_page=100')).body.data.map((d: { id: string }) => d.id).sort();
    expect(storedDeals).toEqual(deals.map((r) => r.body.data.id).sort());
    for (const res of deals) expect((await t.get(`/deals/${res.body.data.id}`)).body.data).toEqual(res.body.data);

    // One created event per stored record, with the record as answered, in the order of creation.
    const events = await h.testDb.db.kysely.selectFrom('events').selectAll().where('team_id', '=', t.teamId).orderBy('id').execute();
    const created = events.filter((e) => e.type === 'vehicle.created' || e.type === 'deal.created');
    expect(created).toHaveLength(events.length);
    expect(created.map((e) => (JSON.parse(e.object) as { id: string }).id).sort()).toEqual([...storedVehicles, ...storedDeals].sort());
    const byId = new Map([existing, ...vehicles, ...deals].map((r) => [r.body.data.id as string, r.body.data]));
    for (const event of created)
      expect(JSON.parse(event.object)).toMatchObject(pick(byId.get((JSON.parse(event.object) as { id: string }).id), ['id', 'title']));
    // Event ids are time-ordered: their order is the order the records were created in.
    const createdOrder = created.map((e) => e.created_at);
    expect([...createdOrder].sort()).toEqual(createdOrder);
  });

  it('a revocation inside an open batch: the counter read meanwhile is the committed one (an uncommitted bump could still roll back); the next request after the COMMIT is 401', async () => {
    const t = await h.team();
    const extra = await h.services.keys.create({ teamId: t.teamId });
    const call = () => h.inject({ method: 'GET', url: '/api/v1/deals', headers: { authorization: `Bearer ${extra.key}` } });
    expect((await call()).status).toBe(200);
    // Served from the in-process cache from now on.
    expect((await call()).status).toBe(200);
    const changes = h.testDb.db.authChanges;
    const epoch = changes.current();
    expect(epoch).not.toBeNull();

    const hold = gate();
    const holding = gate();
    // A revocation by SQL in a transaction of its own (not through the keys service, which would also clear this process's cache).
    const revocation = h.testDb.db.kysely
      .transaction()
      .execute((trx) => trx.updateTable('api_keys').set({ revoked_at: '2026-11-25T12:00:00.000Z' }).where('id', '=', extra.id).execute());
    const holder = h.testDb.db.kysely.transaction().execute(async () => {
      holding.open();
      await hold.opened;
    });
    await holding.opened;
    // Read on a connection of its own: the committed value, not the batch's uncommitted bump.
    expect(changes.current()).toBe(epoch);
    hold.open();
    await Promise.all([revocation, holder]);
    expect(changes.current()).not.toBe(epoch);
    const answer = await call();
    expect(answer.status, answer.text).toBe(401);
  });

  it('the cache counter never sees a bump that is rolled back (it only ever goes up)', async () => {
    const changes = h.testDb.db.authChanges;
    const before = changes.current();
    const hold = gate();
    const bumped = gate();
    const failing = h.testDb.db.kysely.transaction().execute(async (trx) => {
      await sql`update auth_epoch set n = n + 1 where id = 1`.execute(trx);
      bumped.open();
      await hold.opened;
      throw new Error('desfeita');
    });
    await bumped.opened;
    expect(changes.current()).toBe(before);
    hold.open();
    await expect(failing).rejects.toThrow('desfeita');
    expect(changes.current()).toBe(before);
  });

  it('a GET by id during a batch holding an uncommitted revocation reads the committed record and counter (without waiting for the COMMIT); the next one after the COMMIT is 401', async () => {
    const t = await h.team();
    const id = (await t.post('/deals', { title: 'Negócio lido durante o lote', value: 10 })).body.data.id as string;
    const extra = await h.services.keys.create({ teamId: t.teamId });
    const read = () => h.inject({ method: 'GET', url: `/api/v1/deals/${id}`, headers: { authorization: `Bearer ${extra.key}` } });
    expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(200);

    const hold = gate();
    const holding = gate();
    const revocation = h.testDb.db.kysely
      .transaction()
      .execute((trx) => trx.updateTable('api_keys').set({ revoked_at: '2026-11-25T12:00:00.000Z' }).where('id', '=', extra.id).execute());
    const holder = h.testDb.db.kysely.transaction().execute(async () => {
      holding.open();
      await hold.opened;
    });
    await holding.opened;
    // Answered while the batch is still open: the revocation is not committed, so the key is still good.
    const during = await read();
    expect(during.status, during.text).toBe(200);
    expect(during.body.data.id).toBe(id);
    hold.open();
    await Promise.all([revocation, holder]);
    const after = await read();
    expect(after.status, after.text).toBe(401);
  });

  it('a GET by id never trusts a rolled-back bump: a scope removal committed after a rolled-back change (the counter back at the same value) gives 403', async () => {
    const t = await h.team();
    const id = (await t.post('/clients', { type: 'PF', name: 'Joana Lote' })).body.data.id as string;
    const extra = await h.services.keys.create({ teamId: t.teamId });
    const read = () => h.inject({ method: 'GET', url: `/api/v1/clients/${id}`, headers: { authorization: `Bearer ${extra.key}` } });
    expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(200);

    const hold = gate();
    const bumped = gate();
    const failing = h.testDb.db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('api_keys').set({ scopes: 'deals:read' }).where('id', '=', extra.id).execute();
      bumped.open();
      await hold.opened;
      throw new Error('desfeita');
    });
    await bumped.opened;
    // The uncommitted scope removal is not seen: read as committed.
    expect((await read()).status).toBe(200);
    hold.open();
    await expect(failing).rejects.toThrow('desfeita');
    expect((await read()).status).toBe(200);
    // The same change, committed this time: the counter reaches the value the rolled-back one had.
    await h.testDb.db.kysely.updateTable('api_keys').set({ scopes: 'deals:read' }).where('id', '=', extra.id).execute();
    const next = await read();
    expect(next.status, next.text).toBe(403);
  });

  it('an Idempotency-Key replayed in the same batch as its first use creates one deal and one event', async () => {
    const t = await h.team();
    const send = () =>
      h.inject({
        method: 'POST',
        url: '/api/v1/deals',
        headers: { authorization: `Bearer ${t.key}`, 'idempotency-key': 'lote-unico-1' },
        payload: { title: 'Negócio idempotente', value: 500 },
      });
    const answers = await Promise.all([send(), send(), t.post('/deals', { title: 'Vizinho', value: 1 }), send()]);
    const firsts = answers.filter((r, i) => i !== 2 && r.status === 201 && r.headers['idempotent-replayed'] === undefined);
    expect(firsts).toHaveLength(1);
    for (const [i, res] of answers.entries()) {
      if (i === 2) expect(res.status).toBe(201);
      else if (res !== firsts[0]) expect([201, 409]).toContain(res.status);
    }
    const deals = (await t.get('/deals')).body.data as Array<{ title: string }>;
    expect(deals.map((d) => d.title).sort()).toEqual(['Negócio idempotente', 'Vizinho']);
    const events = await h.testDb.db.kysely.selectFrom('events').select('type').where('team_id', '=', t.teamId).execute();
    expect(events).toHaveLength(2);
  });
});

function pick(object: Record<string, unknown> | undefined, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, object?.[k]]));
}

describe.skipIf(!DIALECTS.includes('sqlite'))('group commit driver on a real SQLite file', () => {
  let t: TestDb;
  let db: Db;
  let teamId: string;

  beforeAll(async () => {
    t = await openTestDb('sqlite');
    db = t.db;
    teamId = '0190b000-0000-7000-8000-000000000001';
    await db.kysely
      .insertInto('teams')
      .values({ id: teamId, name: 'Loja do driver', plan: 'starter', alert_email: null, created_at: '2026-11-25T12:00:00.000Z' })
      .execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  const phase = (name: string) => ({ team_id: teamId, name, position: 99, probability: 0.5 });
  const phasesNamed = async (prefix: string) =>
    (await db.kysely.selectFrom('team_phases').select('name').where('team_id', '=', teamId).where('name', 'like', `${prefix}%`).orderBy('name').execute()).map(
      (r) => r.name,
    );

  it('a transaction is answered only after its COMMIT, and a plain read issued meanwhile does not see its rows until then', async () => {
    const hold = gate();
    const holding = gate();
    let firstAnswered = false;
    // The first transaction is released into the batch; the second then holds the batch open.
    const first = db.kysely
      .transaction()
      .execute((trx) => trx.insertInto('team_phases').values(phase('lote-a')).execute())
      .then(() => (firstAnswered = true));
    const second = db.kysely.transaction().execute(async (trx) => {
      holding.open();
      await hold.opened;
      await trx.insertInto('team_phases').values(phase('lote-b')).execute();
    });
    await holding.opened;
    let readDone = false;
    const read = phasesNamed('lote-').then((names) => {
      readDone = true;
      return names;
    });
    // Another connection (another process) sees nothing yet: the first one's row is not committed.
    const other = new SqliteDatabase(fileOf(t.url), { readonly: true });
    try {
      expect(other.prepare(`select count(*) as n from team_phases where name like 'lote-%'`).get()).toEqual({ n: 0 });
    } finally {
      other.close();
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(firstAnswered).toBe(false);
    expect(readDone).toBe(false);

    hold.open();
    await Promise.all([first, second]);
    expect(await read).toEqual(['lote-a', 'lote-b']);
  });

  it('a COMMIT that fails (a deferred foreign key) fails every transaction of its batch, and a read queued behind it sees none of their rows', async () => {
    const hold = gate();
    const holding = gate();
    const before = db.groupCommitStats!();
    const first = db.kysely.transaction().execute((trx) => trx.insertInto('team_phases').values(phase('falha-a')).execute());
    const second = db.kysely.transaction().execute(async (trx) => {
      holding.open();
      await hold.opened;
      // Checked only at COMMIT: this savepoint releases fine, the batch's COMMIT is refused.
      await sql`pragma defer_foreign_keys = on`.execute(trx);
      await trx
        .insertInto('team_phases')
        .values({ ...phase('falha-b'), team_id: '0190b000-0000-7000-8000-00000000dead' })
        .execute();
    });
    const firstOutcome = first.then(
      () => 'committed',
      (error: Error) => error.message,
    );
    const secondOutcome = second.then(
      () => 'committed',
      (error: Error) => error.message,
    );
    await holding.opened;
    const read = phasesNamed('falha-');
    hold.open();
    expect(await firstOutcome).toMatch(/FOREIGN KEY/);
    expect(await secondOutcome).toMatch(/FOREIGN KEY/);
    expect(await read).toEqual([]);
    expect(await phasesNamed('falha-')).toEqual([]);
    expect(db.groupCommitStats!().batches).toBeGreaterThan(before.batches);
    // The connection is usable again, in and out of transactions.
    await db.kysely.transaction().execute((trx) => trx.insertInto('team_phases').values(phase('falha-depois')).execute());
    expect(await phasesNamed('falha-')).toEqual(['falha-depois']);
  });

  it('a batch whose transaction SQLite ended under it fails as a whole; the next transaction starts a batch of its own and nothing is stored unanswered', async () => {
    const hold = gate();
    const holding = gate();
    const first = db.kysely.transaction().execute((trx) => trx.insertInto('team_phases').values(phase('fim-a')).execute());
    const second = db.kysely.transaction().execute(async (trx) => {
      holding.open();
      await hold.opened;
      await trx.insertInto('team_phases').values(phase('fim-b')).execute();
      // What SQLite does on SQLITE_FULL or an I/O error: the whole transaction is gone, with no error on this statement.
      await sql`rollback`.execute(trx);
    });
    await holding.opened;
    const third = db.kysely.transaction().execute((trx) => trx.insertInto('team_phases').values(phase('fim-c')).execute());
    hold.open();
    const outcomes = await Promise.allSettled([first, second, third]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    // Stored is exactly what was answered as committed.
    expect(await phasesNamed('fim-')).toEqual(['fim-c']);
  });

  it('a transaction that throws is rolled back to its savepoint; its neighbours in the batch commit', async () => {
    const before = db.groupCommitStats!();
    const outcomes = await Promise.allSettled([
      db.kysely.transaction().execute((trx) => trx.insertInto('team_phases').values(phase('viz-1')).execute()),
      db.kysely.transaction().execute(async (trx) => {
        await trx.insertInto('team_phases').values(phase('viz-2')).execute();
        // The same primary key again: a unique violation after a write of its own.
        await trx.insertInto('team_phases').values(phase('viz-2')).execute();
      }),
      db.kysely.transaction().execute(async (trx) => {
        await trx.insertInto('team_phases').values(phase('viz-3')).execute();
        throw new Error('falha de domínio');
      }),
      db.kysely.transaction().execute((trx) => trx.insertInto('team_phases').values(phase('viz-4')).execute()),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect(String((outcomes[2] as PromiseRejectedResult).reason)).toMatch(/falha de domínio/);
    expect(await phasesNamed('viz-')).toEqual(['viz-1', 'viz-4']);
    const after = db.groupCommitStats!();
    // All four ran in one batch: one COMMIT carried the two that succeeded.
    expect(after.batches - before.batches).toBe(1);
    expect(after.units - before.units).toBe(2);
  });

  it('the sub-journal is in memory (temp_store): a transaction that rewrites more than 64 KiB of pages its batch already changed rolls back to its savepoint and leaves its neighbours intact', async () => {
    const [{ temp_store: tempStore }] = (await sql<{ temp_store: number }>`pragma temp_store`.execute(db.kysely)).rows as [{ temp_store: number }];
    expect(tempStore).toBe(2);
    const long = (i: number) => `big-${String(i).padStart(3, '0')}-${'ç'.repeat(400)}`;
    const rows = Array.from({ length: 300 }, (_, i) => ({ ...phase(long(i)), position: i }));
    const outcomes = await Promise.allSettled([
      db.kysely.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += 50)
          await trx
            .insertInto('team_phases')
            .values(rows.slice(i, i + 50))
            .execute();
      }),
      db.kysely.transaction().execute(async (trx) => {
        // Every page the first transaction wrote, changed again (about 250 KiB of original pages to keep), then a failure.
        await trx.updateTable('team_phases').set({ position: -1 }).where('team_id', '=', teamId).where('name', 'like', 'big-%').execute();
        await trx.insertInto('team_phases').values(phase('big-extra')).execute();
        throw new Error('falha depois de muitas páginas');
      }),
      db.kysely.transaction().execute((trx) => trx.insertInto('team_phases').values(phase('bigz-after')).execute()),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const stored = await db.kysely
      .selectFrom('team_phases')
      .select(['name', 'position'])
      .where('team_id', '=', teamId)
      .where('name', 'like', 'big%')
      .orderBy('name')
      .execute();
    expect(stored).toEqual([...rows.map((r) => ({ name: r.name, position: r.position })), { name: 'bigz-after', position: 99 }]);
  });
});

describe.skipIf(!DIALECTS.includes('sqlite'))('closing a database with a batch open (sqlite)', () => {
  it('commits the batch, then every statement still waiting fails on the closed database instead of waiting for ever', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'autosales-gc-close-'));
    const db = createDb(`sqlite:${join(dir, 'close.db')}`);
    try {
      await migrateToLatest(db);
      const hold = gate();
      const holding = gate();
      const write = db.kysely.transaction().execute(async (trx) => {
        holding.open();
        await hold.opened;
        await trx
          .insertInto('teams')
          .values({ id: '0190c000-0000-7000-8000-000000000001', name: 'Fechando', plan: 'starter', alert_email: null, created_at: '2026-11-25T12:00:00.000Z' })
          .execute();
      });
      await holding.opened;
      // Queued behind the open batch: a plain read, then the close.
      const read = db.kysely.selectFrom('teams').select('name').execute();
      const closed = db.close();
      hold.open();
      await write;
      await closed;
      await expect(read).rejects.toThrow(/not open/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!DIALECTS.includes('sqlite'))('SQLITE_GROUP_COMMIT=off (sqlite)', () => {
  it("uses Kysely's own driver: one transaction per write, with the same outcomes for a failing neighbour", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'autosales-gc-off-'));
    const db = createDb(`sqlite:${join(dir, 'off.db')}`, { groupCommit: false });
    try {
      await migrateToLatest(db);
      expect('groupCommitStats' in db).toBe(false);
      const { teams, deals } = createServices(db);
      const team = await teams.create({ name: 'Loja sem lote', plan: 'starter' });
      const outcomes = await Promise.allSettled([
        deals.create(team.id, { title: 'Um', value: 1 }),
        deals.create(team.id, { title: 'Dois', value: 2, client_id: '0190a000-0000-7000-8000-000000000000' }),
        deals.create(team.id, { title: 'Três', value: 3 }),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      const titles = await db.kysely.selectFrom('deals').select('title').where('team_id', '=', team.id).orderBy('title').execute();
      expect(titles.map((r) => r.title)).toEqual(['Três', 'Um']);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
