import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listVehiclePhases } from '../../src/domain/phases/phases.repository.js';
import { toApiTimestamp } from '../../src/domain/shared/time.js';
import { fakeClock } from '../support/clock.js';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Harness } from '../support/harness.js';
import { signedIn, TEST_HASHING } from '../support/panel.js';

/**
 * The boards read all their columns' first pages in one statement (a UNION ALL of the columns' own
 * page queries, with the cards' client, responsible and overdue mark in the same rows). This pins
 * the answers to the column-by-column reading they replace: the same cards in the same order, the
 * same "more" flags, overdue marks and responsibles, on columns of 0, 1, page-size and page-size + 1
 * cards and more, with ties in the sort key (value, and the entry time of vehicles) and null values.
 */
describe.each(DIALECTS)('boards in one statement equal the column-by-column reads (%s)', (dialect) => {
  let h: Harness;
  // A clock that does not move: every record gets the same timestamps (ties in the vehicles' sort key).
  const clock = fakeClock('2026-11-22T12:00:00.000Z');
  beforeAll(async () => {
    h = await createHarness(dialect, { passwordHashing: TEST_HASHING, clock });
  });
  afterAll(() => h.close());

  const PAGE = 3;
  const nullsLast = dialect === 'postgres' ? 'nulls last' : '';
  const raw = async <R>(text: string, parameters: unknown[]): Promise<R[]> =>
    (await h.testDb.db.kysely.executeQuery<R>(CompiledQuery.raw(text, parameters))).rows;
  const p = (i: number) => (dialect === 'postgres' ? `$${i}` : '?');

  /** The deals board as it was read before: one page query per column, then the overdue marks of all cards, then the team's people. */
  async function dealColumnsOneByOne(teamId: string, phases: string[], offset: number, limit: number, responsibleId?: string) {
    const pages = [];
    for (const phase of phases) {
      const byResponsible = responsibleId === undefined ? '' : ` and deals.responsible_id = ${p(3)}`;
      const rows = await raw<any>(
        `select deals.*, clients.name as client_name from deals
         left join clients on clients.id = deals.client_id and clients.team_id = deals.team_id
         where deals.team_id = ${p(1)} and deals.status = 'ativo' and deals.phase = ${p(2)}${byResponsible}
         order by deals.value_cents desc ${nullsLast}, deals.id desc limit ${limit + 1} offset ${offset}`,
        responsibleId === undefined ? [teamId, phase] : [teamId, phase, responsibleId],
      );
      pages.push(rows);
    }
    const ids = pages.flat().map((r) => r.id);
    const overdue = new Set(
      ids.length === 0
        ? []
        : (
            await h.testDb.db.kysely
              .selectFrom('activities')
              .select('deal_id')
              .distinct()
              .where('team_id', '=', teamId)
              .where('deal_id', 'in', ids)
              .where('status', 'in', ['pending', 'in_progress'])
              .where('due_at', '<', clock.now().toISOString())
              .execute()
          ).map((r) => r.deal_id),
    );
    const people = new Map(
      (await h.testDb.db.kysely.selectFrom('users').select(['id', 'name']).where('team_id', '=', teamId).execute()).map((u) => [u.id, u.name]),
    );
    return pages.map((rows) => ({
      has_more: rows.length > limit,
      items: rows.slice(0, limit).map((r: any) => ({
        id: r.id,
        title: r.title,
        value: r.value_cents === null ? null : Number(r.value_cents) / 100,
        currency: 'BRL',
        priority: r.priority,
        phase: r.phase,
        status: r.status,
        client: r.client_id && r.client_name !== null ? { id: r.client_id, name: r.client_name } : null,
        responsible: r.responsible_id === null ? null : { id: r.responsible_id, name: people.get(r.responsible_id) ?? r.responsible_id },
        has_overdue_activity: overdue.has(r.id),
        ai_win_probability: r.ai_win_probability,
        updated_at: toApiTimestamp(r.updated_at),
      })),
    }));
  }

  it('deals board, its column pages and a filtered board: the same cards, order, "more" flags, responsibles and overdue marks', async () => {
    const { browser, teamId, user } = await signedIn(h, 'owner');
    const client = await h.services.clients.create(teamId, { type: 'PF', name: 'Ana Souza' } as never);
    // lead: 0 cards; qualificado: 1; proposta: PAGE; negociacao: PAGE + 1; fechamento: 8 with ties and nulls.
    const plan: Array<[string, Array<number | null>]> = [
      ['qualificado', [500]],
      ['proposta', [100, 100, 100]],
      ['negociacao', [300, null, 300, 200]],
      ['fechamento', [50, 50, null, 70, 50, null, 70, 10]],
    ];
    const responsibles = [user.id, 'crm-vendedor-42', undefined];
    const deals = [];
    let n = 0;
    for (const [phase, values] of plan)
      for (const value of values) {
        const i = n++;
        const deal = await h.services.deals.create(teamId, {
          title: `Negócio ${i}`,
          phase,
          ...(value === null ? {} : { value }),
          ...(i % 2 === 0 ? { client_id: client.id } : {}),
          ...(responsibles[i % 3] === undefined ? {} : { responsible_id: responsibles[i % 3] }),
        });
        deals.push(deal);
      }
    // Off the board: won and archived deals in a column.
    const won = await h.services.deals.create(teamId, { title: 'Ganho', phase: 'proposta', value: 999 });
    await h.services.deals.update(teamId, won.id, { status: 'ganho' } as never);
    const archived = await h.services.deals.create(teamId, { title: 'Arquivado', phase: 'negociacao', value: 999 });
    await h.services.deals.archive(teamId, archived.id);
    // Overdue marks: an open activity past due (two on one deal), one due in the future.
    for (const [deal, due] of [
      [deals[0], '2020-01-01T10:00:00Z'],
      [deals[3], '2020-01-01T10:00:00Z'],
      [deals[3], '2021-01-01T10:00:00Z'],
      [deals[9], '2099-01-01T10:00:00Z'],
      [deals[10], '2020-06-01T10:00:00Z'],
    ] as const)
      await h.services.activities.create(teamId, { type: 'call', title: 'Ligar', deal_id: deal!.id, due_at: due } as never);

    const phases = ['lead', 'qualificado', 'proposta', 'negociacao', 'fechamento'];
    const board = (await browser.get(`/deals/board?per_column=${PAGE}`)).body.data.columns;
    expect(board.map((c: any) => [c.phase, c.count])).toEqual([
      ['lead', 0],
      ['qualificado', 1],
      ['proposta', 3],
      ['negociacao', 4],
      ['fechamento', 8],
    ]);
    // Same JSON byte for byte: the fields in the same order too.
    expect(Object.keys(board[4])).toEqual(['phase', 'label', 'probability', 'count', 'total_value', 'has_more', 'items']);
    expect(Object.keys(board[4].items[0])).toEqual([
      'id',
      'title',
      'value',
      'currency',
      'priority',
      'phase',
      'status',
      'client',
      'responsible',
      'has_overdue_activity',
      'ai_win_probability',
      'updated_at',
    ]);
    expect(Object.keys((await browser.get('/deals/board/fechamento?offset=1')).body.data)).toEqual(['has_more', 'items']);
    const expected = await dealColumnsOneByOne(teamId, phases, 0, PAGE);
    expect(board.map(({ items, has_more }: any) => ({ items, has_more }))).toEqual(expected);
    expect(expected.map((c) => [c.items.length, c.has_more])).toEqual([
      [0, false],
      [1, false],
      [3, false],
      [3, true],
      [3, true],
    ]);
    expect(expected.flatMap((c) => c.items).filter((c) => c.has_overdue_activity)).toHaveLength(2);

    // The default page size, and every page of every column ("carregar mais").
    const full = (await browser.get('/deals/board')).body.data.columns;
    expect(full.map(({ items, has_more }: any) => ({ items, has_more }))).toEqual(await dealColumnsOneByOne(teamId, phases, 0, 20));
    expect(full.flatMap((c: any) => c.items).filter((c: any) => c.has_overdue_activity)).toHaveLength(3);
    for (const phase of phases)
      for (const offset of [0, 1, PAGE, PAGE + 1, 2 * PAGE, 9]) {
        const page = (await browser.get(`/deals/board/${phase}?offset=${offset}&limit=${PAGE}`)).body.data;
        expect(page, `${phase} at ${offset}`).toEqual((await dealColumnsOneByOne(teamId, [phase], offset, PAGE))[0]);
      }

    // A filtered board (not the compiled statement) and its column pages.
    for (const responsible of [user.id, 'crm-vendedor-42']) {
      const filtered = (await browser.get(`/deals/board?per_column=2&responsible_id=${responsible}`)).body.data.columns;
      const reads = await dealColumnsOneByOne(teamId, phases, 0, 2, responsible);
      // A column without matches is not read: its card list is empty either way.
      expect(filtered.map(({ items, has_more }: any) => ({ items, has_more }))).toEqual(reads);
      const page = (await browser.get(`/deals/board/fechamento?offset=1&limit=2&responsible_id=${responsible}`)).body.data;
      expect(page).toEqual((await dealColumnsOneByOne(teamId, ['fechamento'], 1, 2, responsible))[0]);
    }
  });

  it('vehicle board and its column pages: the same cards and order (ties in entry time go by id), the same "more" flags', async () => {
    const { browser, teamId } = await signedIn(h, 'owner');
    const phases = (await listVehiclePhases(h.testDb.db.kysely, teamId)).map((ph) => ph.name);
    expect(phases.length).toBeGreaterThanOrEqual(4);
    // First phase: 0 cards; then 1, PAGE, PAGE + 1 and 7 (the clock does not move: every entry time ties).
    const sizes = [0, 1, PAGE, PAGE + 1, 7];
    let n = 0;
    for (const [i, phase] of phases.entries())
      for (let j = 0; j < (sizes[i] ?? 2); j++) {
        const k = n++;
        await h.services.vehicles.create(teamId, {
          title: `Carro ${k}`,
          brand: 'Fiat',
          model: 'Uno',
          phase,
          ...(k % 2 === 0 ? { price: 10_000 + k, model_year: 2020, mileage: 1000 * k } : {}),
        });
      }
    // Different entry times in the last column, with ties among them.
    const last = phases.at(-1)!;
    await sql`update vehicles set created_at = ${dialect === 'postgres' ? '2026-10-01T00:00:00Z' : '2026-10-01T00:00:00.000Z'} where team_id = ${teamId} and phase = ${last} and title in ('Carro 20', 'Carro 22')`.execute(
      h.testDb.db.kysely,
    );

    const oneByOne = async (phase: string, offset: number, limit: number) => {
      const rows = await raw<any>(
        `select * from vehicles where team_id = ${p(1)} and status = 'ativo' and phase = ${p(2)} order by created_at, id limit ${limit + 1} offset ${offset}`,
        [teamId, phase],
      );
      return { ids: rows.slice(0, limit).map((r: any) => r.id), has_more: rows.length > limit };
    };
    const cardIds = (c: any) => ({ ids: c.items.map((i: any) => i.id), has_more: c.has_more });

    for (const perColumn of [PAGE, 20]) {
      const board = (await browser.get(`/vehicles/board?per_column=${perColumn}`)).body.data.columns;
      expect(board.map((c: any) => c.phase)).toEqual(phases);
      for (const [i, phase] of phases.entries()) expect(cardIds(board[i]), `${phase} per ${perColumn}`).toEqual(await oneByOne(phase, 0, perColumn));
    }
    for (const phase of phases)
      for (const offset of [0, 1, PAGE, PAGE + 1, 6]) {
        const page = (await browser.get(`/vehicles/board/${phase}?offset=${offset}&limit=${PAGE}`)).body.data;
        expect(cardIds(page), `${phase} at ${offset}`).toEqual(await oneByOne(phase, offset, PAGE));
      }
    // The cards themselves are the API's vehicles, field for field, in the same order as before.
    const board = (await browser.get('/vehicles/board')).body.data.columns;
    expect(Object.keys(board[1])).toEqual(['phase', 'label', 'count', 'items', 'has_more']);
    expect(Object.keys(board[1].items[0])).toEqual([
      'id',
      'title',
      'brand',
      'model',
      'price',
      'plate',
      'model_year',
      'mileage',
      'phase',
      'status',
      'days_in_stock',
      'created_at',
    ]);
    expect(Object.keys((await browser.get(`/vehicles/board/${last}?offset=1`)).body.data)).toEqual(['items', 'has_more']);
    for (const card of board.flatMap((c: any) => c.items)) {
      const v = await h.services.vehicles.get(teamId, card.id);
      const { id, title, brand, model, price, plate, model_year, mileage, phase, status, created_at } = v as any;
      expect(card).toEqual({ id, title, brand, model, price, plate, model_year, mileage, phase, status, days_in_stock: card.days_in_stock, created_at });
    }
  });
});
