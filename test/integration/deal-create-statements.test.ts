import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dealValues, insertDealWithEventsPostgres, type CreatedDealRow } from '../../src/domain/deals/deal-create.repository.js';
import { createHarness, type Harness } from '../support/harness.js';
import { DIALECTS } from '../support/dialects.js';
import { waitUntil } from '../support/wait.js';

/**
 * Issue 15, "fewer statements per create on PostgreSQL": POST /deals reads the phase, the client and
 * the team's webhooks in one statement, then writes the deal, its event, its deliveries and the
 * worker's NOTIFY in one statement (was: BEGIN, phase, client, deal, event, webhooks, deliveries,
 * COMMIT). The guarantees it touches: the deal and its events are stored together or not at all,
 * every failure keeps its envelope and stores nothing, and an Idempotency-Key's answer commits with
 * the deal.
 */

const UNKNOWN_CLIENT = '0190a000-0000-7000-8000-000000000000';

describe.runIf(DIALECTS.includes('postgres'))('postgres: statements per POST /deals', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('postgres');
  });
  afterAll(async () => h?.close());

  /** The statements one request sends, once the key is served from the cache. */
  async function statementsOf(send: () => Promise<{ status: number; text: string }>, status: number): Promise<string[]> {
    const query = vi.spyOn(pg.Client.prototype, 'query');
    try {
      query.mockClear();
      const res = await send();
      expect(res.status, res.text).toBe(status);
      return query.mock.calls.map(([text]) => (typeof text === 'string' ? text : (text as { text: string }).text));
    } finally {
      query.mockRestore();
    }
  }

  const isAuth = (text: string) => /auth_epoch|api_keys/.test(text);

  /** The statements one request sends as named prepared statements (compiled once, storage/compiled-query.ts). */
  async function namedOf(send: () => Promise<{ status: number; text: string }>, status: number): Promise<string[]> {
    const query = vi.spyOn(pg.Client.prototype, 'query');
    try {
      query.mockClear();
      const res = await send();
      expect(res.status, res.text).toBe(status);
      return query.mock.calls.flatMap(([q]) =>
        typeof q === 'object' && q !== null && 'name' in q && (q as { name?: string }).name ? [(q as { text: string }).text] : [],
      );
    } finally {
      query.mockRestore();
    }
  }

  it('a create with a client and a subscribed webhook: one read and one write (plus the authentication), and the deal has its event and delivery', async () => {
    const t = await h.team();
    const client = (await t.post('/clients', { type: 'PF', name: 'Maria da Silva' })).body.data.id as string;
    await h.services.webhooks.create({ teamId: t.teamId, url: 'https://receiver.example.com/hook', events: ['deal.created'] });
    // Warm: the key comes to be served from the cache.
    await waitUntil(async () => (await statementsOf(() => t.post('/deals', { title: 'Aquecimento' }), 201)).filter(isAuth).length <= 1, 10_000, 'a cached key');

    const sent = await statementsOf(() => t.post('/deals', { title: 'Venda Civic 2024', value: 150000, phase: 'proposta', client_id: client }), 201);
    const own = sent.filter((text) => !isAuth(text));
    // Two statements and no transaction around them (a BEGIN and a COMMIT would be two more): the
    // write is atomic by being one statement; what it stored is checked below.
    expect(own).toHaveLength(2);

    const deals = await h.testDb.db.kysely
      .selectFrom('deals')
      .select(['id', 'client_id', 'probability'])
      .where('team_id', '=', t.teamId)
      .where('title', '=', 'Venda Civic 2024')
      .execute();
    expect(deals).toHaveLength(1);
    expect(deals[0]).toMatchObject({ client_id: client, probability: 50 });
    const events = await h.testDb.db.kysely
      .selectFrom('events')
      .select(['id', 'object'])
      .where('team_id', '=', t.teamId)
      .where('type', '=', 'deal.created')
      .execute();
    const event = events.find((e) => (JSON.parse(e.object) as { id: string }).id === deals[0]!.id);
    expect(event).toBeDefined();
    const deliveries = await h.testDb.db.kysely.selectFrom('deliveries').select('id').where('event_id', '=', event!.id).execute();
    expect(deliveries).toHaveLength(1);
  });

  it('the write is one statement compiled once (a named prepared statement) with 0 or 1 webhook; 2 webhooks take the general path; the stored event is the answer either way', async () => {
    const t = await h.team();
    const client = (await t.post('/clients', { type: 'PF', name: 'João Araújo' })).body.data.id as string;
    const body = {
      title: 'Venda Onix 2023 — à vista',
      value: 72990.5,
      phase: 'proposta',
      client_id: client,
      tags: ['suv', 'ônibus'],
      description: 'Cliente "fiel"',
    };
    const created: Array<{ hooks: number; answer: string; named: string[] }> = [];
    for (const hooks of [0, 1, 2]) {
      if (hooks > 0) await h.services.webhooks.create({ teamId: t.teamId, url: `https://receiver.example.com/hook-${hooks}`, events: ['deal.created'] });
      let answer = '';
      const named = await namedOf(async () => {
        const res = await t.post('/deals', body);
        answer = res.text;
        return res;
      }, 201);
      created.push({ hooks, answer, named: named.filter((text) => !isAuth(text)) });
    }
    // With 0 or 1 webhook the read and the write are both compiled once (named); with 2 the write is built per request.
    expect(created.map((c) => c.named.length)).toEqual([2, 2, 1]);
    const db = h.testDb.db.kysely;
    for (const { hooks, answer } of created) {
      const deal = (JSON.parse(answer) as { data: { id: string } }).data;
      const events = await db.selectFrom('events').selectAll().where('team_id', '=', t.teamId).where('type', '=', 'deal.created').execute();
      const event = events.find((e) => (JSON.parse(e.object) as { id: string }).id === deal.id)!;
      // The event's object is the answer's data, byte for byte, with no previous attributes.
      expect(event.object).toBe(JSON.stringify(deal));
      expect(event.previous_attributes).toBeNull();
      const deliveries = await db.selectFrom('deliveries').selectAll().where('event_id', '=', event.id).execute();
      expect(deliveries).toHaveLength(hooks);
      for (const d of deliveries) expect(d).toMatchObject({ team_id: t.teamId, status: 'pending', attempts: 0 });
      expect(String(event.created_at)).toBe(String(deliveries[0]?.created_at ?? event.created_at));
    }
    // Exact counters: the board's total moved by the three creates.
    const board = await db
      .selectFrom('board_totals')
      .select(['n', 'total'])
      .where('team_id', '=', t.teamId)
      .where('board', '=', 'deals')
      .where('phase', '=', 'proposta')
      .execute();
    expect(board.reduce((sum, r) => sum + Number(r.n), 0)).toBe(3);
    expect(board.reduce((sum, r) => sum + Number(r.total), 0)).toBe(3 * 7_299_050);
  });

  it('failures answer their envelope after the one read and write nothing', async () => {
    const t = await h.team();
    for (let i = 0; i < 5; i++) await t.post('/deals', { title: `Aquecimento ${i}` });
    const cases = [
      { body: { title: 'Fase errada', phase: 'inexistente' }, message: 'Fase inválida', field: 'phase' },
      { body: { title: 'Cliente errado', client_id: UNKNOWN_CLIENT }, message: 'Cliente não encontrado', field: 'client_id' },
      { body: { title: 'Cliente não UUID', client_id: 'nao-e-um-id' }, message: 'Cliente não encontrado', field: 'client_id' },
      // Both wrong: the phase is named first, as before.
      { body: { title: 'Os dois', phase: 'inexistente', client_id: UNKNOWN_CLIENT }, message: 'Fase inválida', field: 'phase' },
    ];
    for (const { body, message, field } of cases) {
      let answer: { status: number; text: string; body: { error: { code: string; message: string; field: string } } } | undefined;
      const sent = await statementsOf(async () => (answer = await t.post('/deals', body)), 400);
      expect(answer!.body.error).toMatchObject({ code: 'VALIDATION_ERROR', message, field });
      expect(sent.filter((text) => /insert/i.test(text))).toEqual([]);
    }
    const stored = await h.testDb.db.kysely.selectFrom('deals').select('title').where('team_id', '=', t.teamId).execute();
    expect(stored).toHaveLength(5);
  });

  it('with an Idempotency-Key the answer is stored in the same transaction as the deal: a replay gives the same bytes', async () => {
    const t = await h.team();
    const post = () =>
      h.inject({
        method: 'POST',
        url: '/api/v1/deals',
        headers: { authorization: `Bearer ${t.key}`, 'idempotency-key': 'chave-1' },
        payload: { title: 'Com chave' },
      });
    const sent = await statementsOf(post, 201);
    expect(sent.some((text) => /^begin/i.test(text))).toBe(true);
    expect(sent.some((text) => /^commit/i.test(text))).toBe(true);
    const first = await h.testDb.db.kysely
      .selectFrom('idempotency_keys')
      .select(['status', 'response_body'])
      .where('team_id', '=', t.teamId)
      .executeTakeFirstOrThrow();
    expect(first.status).toBe('completed');
    const again = await post();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.response_body);
    const stored = await h.testDb.db.kysely.selectFrom('deals').select('id').where('team_id', '=', t.teamId).execute();
    expect(stored).toHaveLength(1);
  });

  it('the write is one statement, so all or nothing even outside a transaction: a delivery that cannot be stored takes the deal and its event with it', async () => {
    const t = await h.team();
    const now = new Date().toISOString();
    const row: CreatedDealRow = {
      id: '0190a000-0000-7000-8000-0000000000aa',
      team_id: t.teamId,
      title: 'Tudo ou nada',
      description: null,
      value_cents: null,
      currency: 'BRL',
      phase: 'lead',
      priority: 'media',
      priority_rank: 2,
      probability: 10,
      status: 'ativo',
      expected_close_date: null,
      source: null,
      loss_reason: null,
      tags: '[]',
      is_starred: 0,
      store_id: null,
      client_id: null,
      responsible_id: null,
      case_id: null,
      search_text: 'tudo ou nada',
      title_key: 'tudo ou nada',
      archived_at: null,
      created_at: now,
      updated_at: now,
      ai_win_probability: null,
      ai_summary: null,
      phase_changed_at: now,
    };
    // A webhook that does not exist (deleted after the read): its delivery's foreign key fails.
    const gone = [{ id: '0190a000-0000-7000-8000-0000000000bb', events: '[]' }];
    await expect(
      insertDealWithEventsPostgres(
        h.testDb.db.kysely,
        dealValues(row),
        t.teamId,
        [{ type: 'deal.created', object: { id: row.id }, previous: null }],
        now,
        gone,
      ),
    ).rejects.toThrow(/foreign key/);
    const db = h.testDb.db.kysely;
    expect(await db.selectFrom('deals').select('id').where('team_id', '=', t.teamId).execute()).toEqual([]);
    expect(await db.selectFrom('events').select('id').where('team_id', '=', t.teamId).execute()).toEqual([]);
    // The board totals (a trigger of the insert) did not move either.
    expect(await db.selectFrom('board_totals').select('n').where('team_id', '=', t.teamId).where('board', '=', 'deals').where('n', '!=', 0).execute()).toEqual(
      [],
    );
  });
});
