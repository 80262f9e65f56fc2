import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardCardQuery } from '../../src/domain/deals/deals-board.repository.js';
import { teamScope } from '../../src/domain/reads/scope.js';
import { newId } from '../../src/domain/shared/ids.js';
import { DIALECTS } from '../support/dialects.js';
import { expectError } from '../support/expect.js';
import { createHarness, type Harness } from '../support/harness.js';
import { signedIn, TEST_HASHING } from '../support/panel.js';

/**
 * The deals board of the panel (PANEL2.md): columns per phase with count and summed value, column
 * paging, the deals records through the deals service (same validation and events as the API), the
 * people picker and the changes cursor the app polls.
 */
describe.each(DIALECTS)('panel deals board (%s)', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(dialect, { passwordHashing: TEST_HASHING });
  });
  afterAll(() => h.close());

  const eventTypes = async (teamId: string) =>
    (await h.testDb.db.kysely.selectFrom('events').select('type').where('team_id', '=', teamId).orderBy('created_at').orderBy('id').execute()).map(
      (e) => e.type,
    );

  it('columns follow the pipeline with count, total value and cards (client, responsible, overdue marker); won deals are off the board', async () => {
    const { browser, teamId, user } = await signedIn(h, 'seller');
    const client = await h.services.clients.create(teamId, { type: 'PF', name: 'Ana Souza' } as never);
    const a = (await browser.post('/deals', { title: 'Onix 2022', value: 80000, client_id: client.id, responsible_id: user.id })).body.data;
    await browser.post('/deals', { title: 'HB20', value: 60000.5, phase: 'proposta', priority: 'alta' });
    await browser.post('/deals', { title: 'Sem valor' });
    const won = (await browser.post('/deals', { title: 'Ganho', value: 1 })).body.data;
    expect((await browser.put(`/deals/${won.id}`, { status: 'ganho' })).status).toBe(200);
    await h.services.activities.create(teamId, { type: 'call', title: 'Ligar', deal_id: a.id, due_at: '2020-01-01T10:00:00Z' } as never);

    const res = await browser.get('/deals/board?per_column=1');
    expect(res.status, res.text).toBe(200);
    const columns = res.body.data.columns;
    expect(columns.map((c: any) => c.phase)).toEqual(['lead', 'qualificado', 'proposta', 'negociacao', 'fechamento']);
    const lead = columns[0];
    expect(lead).toMatchObject({ phase: 'lead', count: 2, total_value: 80000, has_more: true });
    expect(lead.items).toEqual([
      {
        id: a.id,
        title: 'Onix 2022',
        value: 80000,
        currency: 'BRL',
        priority: 'media',
        phase: 'lead',
        status: 'ativo',
        client: { id: client.id, name: 'Ana Souza' },
        responsible: { id: user.id, name: user.name },
        has_overdue_activity: true,
        // Null: the team has fewer than 40 closed deals, so no model.
        ai_win_probability: null,
        updated_at: a.updated_at,
      },
    ]);
    expect(columns[2]).toMatchObject({ count: 1, total_value: 60000.5, has_more: false, items: [{ title: 'HB20', has_overdue_activity: false }] });
    expect(columns[1]).toMatchObject({ count: 0, total_value: 0, items: [], has_more: false });

    const more = await browser.get('/deals/board/lead?offset=1&limit=5');
    expect(more.body.data).toMatchObject({ has_more: false, items: [{ title: 'Sem valor', value: null, responsible: null, client: null }] });
    const filtered = await browser.get(`/deals/board?responsible_id=${user.id}`);
    expect(filtered.body.data.columns.map((c: any) => c.count)).toEqual([1, 0, 0, 0, 0]);
    const searched = await browser.get('/deals/board?search=hb20');
    expect(searched.body.data.columns[2].items.map((c: any) => c.title)).toEqual(['HB20']);
  });

  it('a deal moved through the panel emits deal.updated then deal.phase_changed; won and lost follow the API rules', async () => {
    const { browser, teamId } = await signedIn(h, 'seller');
    const deal = (await browser.post('/deals', { title: 'Corolla' })).body.data;
    const moved = await browser.put(`/deals/${deal.id}`, { phase: 'negociacao' });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.data).toMatchObject({ id: deal.id, phase: 'negociacao', probability: 75, status: 'ativo' });
    expect(await eventTypes(teamId)).toEqual(['deal.created', 'deal.updated', 'deal.phase_changed']);

    expectError(await browser.put(`/deals/${deal.id}`, { phase: 'nada' }), 400, 'VALIDATION_ERROR', 'Fase inválida');
    expect((await browser.put(`/deals/${deal.id}`, { phase: 'nada' })).body.error.field).toBe('phase');
    const lost = await browser.put(`/deals/${deal.id}`, { status: 'perdido', loss_reason: 'Preço' });
    expect(lost.body.data).toMatchObject({ status: 'perdido', loss_reason: 'Preço' });
    expect((await eventTypes(teamId)).slice(-2)).toEqual(['deal.updated', 'deal.lost']);
    const archived = await browser.delete(`/deals/${deal.id}`);
    expect(archived.body.data).toMatchObject({ id: deal.id, status: 'arquivado' });
    expectError(await browser.get(`/deals/${newId()}`), 404, 'NOT_FOUND', 'Negócio não encontrado');
    const created = await browser.post('/deals', { title: '' });
    expect(created.status).toBe(400);
    expect(created.body.error.field).toBe('title');
  });

  it('the list view is the API list (sort, paging); people lists the team; another team sees nothing', async () => {
    const { browser, teamId, user } = await signedIn(h, 'manager');
    for (const title of ['b', 'a', 'c']) await browser.post('/deals', { title });
    const list = await browser.get('/deals?sort=title&limit=2&page=2');
    expect(list.body.data.map((d: any) => d.title)).toEqual(['c']);
    expect(list.body.pagination).toEqual({ page: 2, limit: 2, total: 3, pages: 2 });
    expect((await browser.get('/people')).body.data).toEqual([{ id: user.id, name: user.name, role: 'manager', active: true }]);
    const other = await signedIn(h, 'owner');
    expect((await other.browser.get('/deals/board')).body.data.columns.every((c: any) => c.count === 0)).toBe(true);
    expect((await other.browser.get(`/deals/${list.body.data[0].id}`)).status).toBe(404);
    expect(teamId).not.toBe(other.teamId);
  });

  it('changes: a cursor without types first, then the types recorded since (an integrator creating a lead through the API)', async () => {
    const { browser, teamId } = await signedIn(h, 'seller');
    expect((await browser.get('/changes')).body.data).toEqual({ cursor: null, types: [] });
    await browser.post('/deals', { title: 'Primeiro' });
    const first = (await browser.get('/changes')).body.data;
    expect(first.types).toEqual([]);
    expect(first.cursor).toMatch(/^evt_/);
    expect((await browser.get(`/changes?after=${first.cursor}`)).body.data).toEqual({ cursor: first.cursor, types: [] });
    const key = await h.key(teamId);
    expect((await key.post('/deals', { title: 'Lead do site' })).status).toBe(201);
    await browser.post('/deals', { title: 'Outro' }).then((r) => browser.put(`/deals/${r.body.data.id}`, { phase: 'proposta' }));
    const next = (await browser.get(`/changes?after=${first.cursor}`)).body.data;
    expect(next.types).toEqual(['deal.created', 'deal.updated', 'deal.phase_changed']);
    expect(next.cursor).not.toBe(first.cursor);
    expect((await browser.get(`/changes?after=${next.cursor}`)).body.data).toEqual({ cursor: next.cursor, types: [] });
    // Another team's cursor is unknown here: answered like a first call.
    expect((await browser.get('/changes?after=evt_nao_existe')).body.data).toEqual({ cursor: next.cursor, types: [] });
  });

  it('a column of a large team is one paged read of the phase index: 20 cards of 3,000, most valuable first', async () => {
    const { browser, teamId } = await signedIn(h, 'seller');
    const now = new Date().toISOString();
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      id: newId(),
      team_id: teamId,
      title: `Negócio ${i}`,
      description: null,
      value_cents: (i % 500) * 100,
      currency: 'BRL',
      phase: 'qualificado',
      priority: 'media',
      priority_rank: 2,
      probability: 25,
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
      search_text: `negocio ${i}`,
      title_key: `negocio ${i}`,
      archived_at: null,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await h.testDb.db.kysely
        .insertInto('deals')
        .values(rows.slice(i, i + 500) as never)
        .execute();

    const board = (await browser.get('/deals/board')).body.data.columns[1];
    expect(board).toMatchObject({ phase: 'qualificado', count: 3000, total_value: 6 * 124_750, has_more: true });
    expect(board.items).toHaveLength(20);
    expect(board.items.map((c: any) => c.value)).toEqual([...Array(6).fill(499), ...Array(6).fill(498), ...Array(6).fill(497), 496, 496]);
    const page = (await browser.get('/deals/board/qualificado?offset=2990&limit=20')).body.data;
    expect(page.items).toHaveLength(10);
    expect(page.has_more).toBe(false);
    expect(page.items.map((c: any) => c.value)).toEqual([1, 1, 1, 1, 0, 0, 0, 0, 0, 0]);

    // The column's query reads the (team, phase, value, id, status) index in order: no sort of the phase's rows.
    const query = boardCardQuery(h.testDb.db.kysely, dialect, teamScope(teamId), 'qualificado', { status: 'ativo' }, 0, 21, now).compile();
    const explain = dialect === 'sqlite' ? 'explain query plan' : 'explain';
    const plan = await h.testDb.db.kysely.executeQuery(CompiledQuery.raw(`${explain} ${query.sql}`, [...query.parameters]));
    const text = (plan.rows as Array<Record<string, string>>).map((r) => r.detail ?? r['QUERY PLAN']).join('\n');
    expect(text).toContain('deals_team_phase_value_idx');
    if (dialect === 'sqlite') expect(text).not.toContain('TEMP B-TREE');
  });
});
