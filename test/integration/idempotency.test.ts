import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../src/domain/idempotency/idempotency.service.js';
import { DIALECTS } from '../support/dialects.js';
import { expectError } from '../support/expect.js';
import { createHarness, type Caller, type Harness, type Response } from '../support/harness.js';

/**
 * Issue 4, point 6: Idempotency-Key on POST /deals and POST /clients with Stripe's semantics. The
 * first response (status and body) is stored per team and key for 24 hours; the same request again
 * replays it byte for byte with `Idempotent-Replayed: true`, creating nothing and emitting no event;
 * the same key with another body or endpoint is 422 VALIDATION_ERROR; while the first is running,
 * 409 IDEMPOTENCY_CONFLICT; keys longer than 255 characters are 400. On both databases.
 */

const HOUR = 3_600_000;
let seq = 0;
const newKey = () => `idem-${Date.now().toString(36)}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

describe.each(DIALECTS)('Idempotency-Key (%s)', (dialect) => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness(dialect);
  });
  afterAll(() => h.close());

  function post(t: Caller, path: string, body: unknown, idempotencyKey?: string): Promise<Response> {
    return h.inject({
      method: 'POST',
      url: `/api/v1${path}`,
      headers: { authorization: `Bearer ${t.key}`, ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }) },
      payload: body as object,
    });
  }

  async function total(t: Caller, path: '/deals' | '/clients'): Promise<number> {
    const res = await t.get(path);
    expect(res.status, res.text).toBe(200);
    return res.body.pagination.total as number;
  }

  async function eventCount(teamId: string): Promise<number> {
    const row = await h.testDb.db.kysely
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('team_id', '=', teamId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function storedKeys(teamId: string): Promise<number> {
    const row = await h.testDb.db.kysely
      .selectFrom('idempotency_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('team_id', '=', teamId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** An error answer of this request itself, not a replay. */
  function expectFreshError(res: Response, status: number, code: string) {
    expectError(res, status, code);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  }

  /**
   * Makes storing an answer (the key's update to `completed`) fail in the database, as a crash at that
   * moment would leave it: a trigger on this test database only, removed by the returned function.
   */
  async function failAnswerStore(): Promise<() => Promise<void>> {
    const db = h.testDb.db.kysely;
    if (dialect === 'sqlite') {
      await sql`create trigger fail_answer_store before update on idempotency_keys when new.status = 'completed'
        begin select raise(abort, 'answer store failed'); end`.execute(db);
      return async () => void (await sql`drop trigger fail_answer_store`.execute(db));
    }
    await sql`create function fail_answer_store() returns trigger language plpgsql as $$ begin raise exception 'answer store failed'; end $$`.execute(db);
    await sql`create trigger fail_answer_store before update on idempotency_keys for each row when (new.status = 'completed') execute function fail_answer_store()`.execute(
      db,
    );
    return async () => {
      await sql`drop trigger fail_answer_store on idempotency_keys`.execute(db);
      await sql`drop function fail_answer_store()`.execute(db);
    };
  }

  function expectReplayOf(replay: Response, first: Response) {
    expect(replay.status, replay.text).toBe(first.status);
    expect(replay.text, 'the replayed body is byte-identical').toBe(first.text);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.headers['content-type']).toMatch(/^application\/json/);
  }

  describe.each([
    ['/deals', { title: 'Venda Fiat Pulse 2025', value: 98_990.5, tags: ['suv', 'seminovo'] }],
    ['/clients', { type: 'PF', name: 'Maria Idempotente', email: 'maria@example.com' }],
  ] as const)('POST %s', (path, body) => {
    it('a retry with the same key and body replays status and body byte for byte, creates nothing and emits no event', async () => {
      const t = await h.team();
      const key = newKey();
      const first = await post(t, path, body, key);
      expect(first.status, first.text).toBe(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const events = await eventCount(t.teamId);
      expect(events).toBeGreaterThan(0);

      for (let i = 0; i < 2; i++) expectReplayOf(await post(t, path, body, key), first);

      expect(await total(t, path)).toBe(1);
      expect(await eventCount(t.teamId), 'no new event for a replay').toBe(events);
    });

    it('another key of the same team replays too (keys are per team, not per API key)', async () => {
      const t = await h.team();
      const second = await h.key(t.teamId);
      const key = newKey();
      const first = await post(t, path, body, key);
      expect(first.status).toBe(201);
      expectReplayOf(await post(second, path, body, key), first);
      expect(await total(t, path)).toBe(1);
    });

    it('the same key with a different body is 422 VALIDATION_ERROR and creates nothing', async () => {
      const t = await h.team();
      const key = newKey();
      expect((await post(t, path, body, key)).status).toBe(201);
      const events = await eventCount(t.teamId);
      const changed = path === '/deals' ? { ...body, title: 'Outra venda' } : { ...body, name: 'Outra pessoa' };
      expectFreshError(await post(t, path, changed, key), 422, 'VALIDATION_ERROR');
      expect(await total(t, path)).toBe(1);
      expect(await eventCount(t.teamId)).toBe(events);
    });

    it('a validation error (400) does not take the key: the corrected request then succeeds, and its retry replays', async () => {
      const t = await h.team();
      const key = newKey();
      const broken = path === '/deals' ? { value: -1 } : { type: 'PF' };
      expectFreshError(await post(t, path, broken, key), 400, 'VALIDATION_ERROR');
      expect(await storedKeys(t.teamId)).toBe(0);
      const fixed = await post(t, path, body, key);
      expect(fixed.status, fixed.text).toBe(201);
      expectReplayOf(await post(t, path, body, key), fixed);
      expect(await total(t, path)).toBe(1);
    });

    it('the stored answer commits with the record: when storing it fails, neither remains, and the retry creates exactly one', async () => {
      const t = await h.team();
      const key = newKey();
      const restore = await failAnswerStore();
      let failed: Response;
      try {
        failed = await post(t, path, body, key);
      } finally {
        await restore();
      }
      // Both absent: no record, no answer, no event, and the key is free again.
      expectFreshError(failed, 500, 'INTERNAL_ERROR');
      expect(await total(t, path), 'a record without its stored answer').toBe(0);
      expect(await storedKeys(t.teamId), 'an answer (or a claim) without its record').toBe(0);
      expect(await eventCount(t.teamId)).toBe(0);

      const retry = await post(t, path, body, key);
      expect(retry.status, retry.text).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
      expectReplayOf(await post(t, path, body, key), retry);
      expect(await total(t, path)).toBe(1);
    });

    it('without the header nothing is stored and every POST creates', async () => {
      const t = await h.team();
      expect((await post(t, path, body)).status).toBe(201);
      const again = await post(t, path, body);
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(await total(t, path)).toBe(2);
      expect(await storedKeys(t.teamId)).toBe(0);
    });
  });

  it('the same key on the other endpoint is 422 VALIDATION_ERROR', async () => {
    const t = await h.team();
    const key = newKey();
    expect((await post(t, '/deals', { title: 'Venda' }, key)).status).toBe(201);
    expectFreshError(await post(t, '/clients', { type: 'PF', name: 'Cliente' }, key), 422, 'VALIDATION_ERROR');
    expect(await total(t, '/clients')).toBe(0);

    const other = newKey();
    expect((await post(t, '/clients', { type: 'PF', name: 'Cliente' }, other)).status).toBe(201);
    expectFreshError(await post(t, '/deals', { title: 'Venda' }, other), 422, 'VALIDATION_ERROR');
    expect(await total(t, '/deals')).toBe(1);
  });

  it('keys are per team: another team may use the same key (and gets its own deal)', async () => {
    const a = await h.team();
    const b = await h.team();
    const key = newKey();
    const body = { title: 'Venda compartilhada' };
    const first = await post(a, '/deals', body, key);
    const second = await post(b, '/deals', body, key);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body.data.id).not.toBe(first.body.data.id);
    expect(await total(a, '/deals')).toBe(1);
    expect(await total(b, '/deals')).toBe(1);
    // Team A's deal never leaks to team B through a replay.
    expect((await post(b, '/deals', body, key)).body.data.id).toBe(second.body.data.id);
  });

  it('a key of 256 characters is 400 and creates nothing; 255 characters is accepted and replays', async () => {
    const t = await h.team();
    const body = { title: 'Venda chave longa' };
    const tooLong = 'k'.repeat(256);
    expectFreshError(await post(t, '/deals', body, tooLong), 400, 'VALIDATION_ERROR');
    expectFreshError(await post(t, '/clients', { type: 'PF', name: 'X' }, tooLong), 400, 'VALIDATION_ERROR');
    expect(await total(t, '/deals')).toBe(0);
    expect(await total(t, '/clients')).toBe(0);

    const longest = 'k'.repeat(255);
    const first = await post(t, '/deals', body, longest);
    expect(first.status, first.text).toBe(201);
    expectReplayOf(await post(t, '/deals', body, longest), first);
    expect(await total(t, '/deals')).toBe(1);
  });

  it('an empty key is 400 (keys are 1 to 255 characters)', async () => {
    const t = await h.team();
    expectFreshError(await post(t, '/deals', { title: 'Venda' }, ''), 400, 'VALIDATION_ERROR');
    expect(await total(t, '/deals')).toBe(0);
  });

  it('a stored 4xx of the handler (422 DUPLICATE_ENTRY) is replayed as it was', async () => {
    const t = await h.team();
    const client = { type: 'PF', name: 'Titular', cpf: '529.982.247-25' };
    expect((await post(t, '/clients', client)).status).toBe(201);
    const key = newKey();
    const duplicate = { type: 'PF', name: 'Outro', cpf: '529.982.247-25' };
    const first = await post(t, '/clients', duplicate, key);
    expectFreshError(first, 422, 'DUPLICATE_ENTRY');
    expectReplayOf(await post(t, '/clients', duplicate, key), first);
  });

  it('concurrency: 10 simultaneous POSTs with one key create exactly one deal; each answer is 201 (same id) or 409 IDEMPOTENCY_CONFLICT', async () => {
    const t = await h.team();
    const key = newKey();
    const body = { title: 'Venda concorrente', value: 120_000 };
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(t, '/deals', body, key)));
    const created = answers.filter((r) => r.status === 201);
    const conflicts = answers.filter((r) => r.status === 409);
    expect(created.length + conflicts.length, answers.map((r) => `${r.status} ${r.text}`).join('\n')).toBe(10);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(
      created.filter((r) => r.headers['idempotent-replayed'] === undefined),
      'exactly one answer ran the handler',
    ).toHaveLength(1);
    const id = created[0]!.body.data.id;
    for (const r of created) expect(r.body.data.id).toBe(id);
    for (const r of conflicts) expectFreshError(r, 409, 'IDEMPOTENCY_CONFLICT');
    expect(await total(t, '/deals')).toBe(1);
    const deals = await t.get('/deals');
    expect(deals.body.data.map((d: { id: string }) => d.id)).toEqual([id]);
    // Once settled, a retry replays the one deal.
    const retry = await post(t, '/deals', body, key);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.data.id).toBe(id);
  });

  it('a stored response older than 24 h is not replayed: the request runs again', async () => {
    const t = await h.team();
    const key = newKey();
    const body = { title: 'Venda antiga' };
    const first = await post(t, '/deals', body, key);
    expect(first.status).toBe(201);
    const old = new Date(Date.now() - 25 * HOUR).toISOString();
    await h.testDb.db.kysely
      .updateTable('idempotency_keys')
      .set({ created_at: old, updated_at: old })
      .where('team_id', '=', t.teamId)
      .where('key', '=', key)
      .execute();

    const again = await post(t, '/deals', body, key);
    expect(again.status, again.text).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body.data.id).not.toBe(first.body.data.id);
    expect(await total(t, '/deals')).toBe(2);
    // The new response is the one kept now.
    const replay = await post(t, '/deals', body, key);
    expectReplayOf(replay, again);
  });

  it('a stored response 23 h old is still replayed', async () => {
    const t = await h.team();
    const key = newKey();
    const body = { title: 'Venda de ontem' };
    const first = await post(t, '/deals', body, key);
    const recent = new Date(Date.now() - 23 * HOUR).toISOString();
    await h.testDb.db.kysely
      .updateTable('idempotency_keys')
      .set({ created_at: recent, updated_at: recent })
      .where('team_id', '=', t.teamId)
      .where('key', '=', key)
      .execute();
    expectReplayOf(await post(t, '/deals', body, key), first);
    expect(await total(t, '/deals')).toBe(1);
  });

  it('a "processing" record left by a crashed request (untouched for over 60 s) does not block the key', async () => {
    const t = await h.team();
    const key = newKey();
    const body = { title: 'Venda após queda' };
    const then = new Date(Date.now() - 2 * 60_000).toISOString();
    await h.testDb.db.kysely
      .insertInto('idempotency_keys')
      .values({
        team_id: t.teamId,
        key,
        fingerprint: fingerprintOf('POST', '/api/v1/deals', body),
        status: 'processing',
        status_code: null,
        response_body: null,
        created_at: then,
        updated_at: then,
      })
      .execute();
    const res = await post(t, '/deals', body, key);
    expect(res.status, res.text).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await total(t, '/deals')).toBe(1);
    expectReplayOf(await post(t, '/deals', body, key), res);
  });

  it('a "processing" record of a request still running (recent) answers 409 IDEMPOTENCY_CONFLICT and creates nothing', async () => {
    const t = await h.team();
    const key = newKey();
    const body = { title: 'Venda em andamento' };
    const now = new Date().toISOString();
    await h.testDb.db.kysely
      .insertInto('idempotency_keys')
      .values({
        team_id: t.teamId,
        key,
        fingerprint: fingerprintOf('POST', '/api/v1/deals', body),
        status: 'processing',
        status_code: null,
        response_body: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const res = await post(t, '/deals', body, key);
    expectFreshError(res, 409, 'IDEMPOTENCY_CONFLICT');
    expect(res.body.error.message).toMatch(/Idempotency-Key/);
    expect(await total(t, '/deals')).toBe(0);
  });

  it('the header on a route that does not honour it (PUT) is ignored and nothing is stored', async () => {
    const t = await h.team();
    const deal = (await post(t, '/deals', { title: 'Venda' })).body.data;
    const key = newKey();
    const put = (title: string) =>
      h.inject({ method: 'PUT', url: `/api/v1/deals/${deal.id}`, headers: { authorization: `Bearer ${t.key}`, 'idempotency-key': key }, payload: { title } });
    expect((await put('Primeiro título')).status).toBe(200);
    const second = await put('Segundo título');
    expect(second.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect((await t.get(`/deals/${deal.id}`)).body.data.title).toBe('Segundo título');
    expect(await storedKeys(t.teamId)).toBe(0);
  });
});
