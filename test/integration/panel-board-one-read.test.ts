import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardColumnsCards } from '../../src/domain/deals/deals-board.repository.js';
import { teamScope } from '../../src/domain/reads/scope.js';
import { listDealPhases, listVehiclePhases } from '../../src/domain/phases/phases.repository.js';
import { fromCents } from '../../src/domain/shared/money.js';
import { boardTotalsByPhase } from '../../src/domain/shared/list-sql.js';
import { boardColumnsCards as vehicleColumnsCards } from '../../src/domain/vehicles/vehicles-board.repository.js';
import { fakeClock } from '../support/clock.js';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Harness } from '../support/harness.js';
import { signedIn, TEST_HASHING } from '../support/panel.js';

/**
 * The unfiltered boards and the dashboard read their phases and the phases' totals in the same
 * statement (PostgreSQL: the whole deals or vehicle board in one statement, the columns as LATERAL
 * pages of the phases' rows). This pins their answers, byte for byte, to the reads they replace: the
 * phases (listDealPhases / listVehiclePhases), the totals (boardTotalsByPhase, a phase whose counters
 * add up to 0 counted as absent), then the first page of every column with records. Covered: phases
 * reordered with new probabilities, a phase never used (no counter row), a phase emptied (counter rows
 * adding up to 0), counters of a phase that is not on the board, null values and empty boards.
 */
describe.each(DIALECTS)('boards: phases, totals and cards in one read equal the separate reads (%s)', (dialect) => {
  let h: Harness;
  const clock = fakeClock('2026-11-22T12:00:00.000Z');
  beforeAll(async () => {
    h = await createHarness(dialect, { passwordHashing: TEST_HASHING, clock });
  });
  afterAll(() => h.close());

  /** The deals board as the service built it before: phases and totals read apart, then every column with deals. */
  async function oldDealsBoard(teamId: string, perColumn: number) {
    const k = h.testDb.db.kysely;
    const [phases, totals] = await Promise.all([listDealPhases(k, teamId), boardTotalsByPhase(k, teamId, 'deals')]);
    const byPhase = new Map(totals.map((t) => [t.phase, t]));
    const read = phases.filter((p) => byPhase.has(p.name)).map((p) => p.name);
    const rows = await boardColumnsCards(k, teamScope(teamId), read, { status: 'ativo' }, perColumn + 1, clock.now().toISOString());
    return {
      header: phases.map((p) => ({
        phase: p.name,
        probability: p.probability ?? 0,
        count: byPhase.get(p.name)?.count ?? 0,
        total_value: fromCents(byPhase.get(p.name)?.total ?? 0) ?? 0,
      })),
      ids: read.map((_, i) => rows.filter((r) => r.board_column === i).map((r) => r.id)),
      read,
    };
  }

  async function oldVehiclesBoard(teamId: string, perColumn: number) {
    const k = h.testDb.db.kysely;
    const [phases, totals] = await Promise.all([listVehiclePhases(k, teamId), boardTotalsByPhase(k, teamId, 'vehicles')]);
    const byPhase = new Map(totals.map((t) => [t.phase, t.count]));
    const read = phases.filter((p) => byPhase.has(p.name)).map((p) => p.name);
    const rows = await vehicleColumnsCards(k, teamScope(teamId), read, { status: 'ativo' }, perColumn + 1);
    return {
      header: phases.map((p) => ({ phase: p.name, count: byPhase.get(p.name) ?? 0 })),
      ids: read.map((_, i) => rows.filter((r) => r.board_column === i).map((r) => r.id)),
      read,
    };
  }

  it('deals board and dashboard pipeline: the same headers and cards as the separate reads', async () => {
    const { browser, teamId } = await signedIn(h, 'owner');
    // An empty board first: every column at 0, no cards.
    const empty = (await browser.get('/deals/board')).body.data.columns;
    expect(empty.map(({ phase, probability, count, total_value }: any) => ({ phase, probability, count, total_value }))).toEqual(
      (await oldDealsBoard(teamId, 20)).header,
    );
    expect(empty.every((c: any) => c.items.length === 0 && c.has_more === false)).toBe(true);

    // Phases reordered, with new probabilities and a phase that will never be used.
    await h.services.phases.replace(teamId, 'deals', [
      { name: 'proposta', probability: 35 },
      { name: 'lead', probability: 5 },
      { name: 'nunca-usada', probability: 0 },
      { name: 'negociacao', probability: 70 },
      { name: 'esvaziada', probability: 50 },
      { name: 'fechamento', probability: 90 },
    ]);
    const plan: Array<[string, Array<number | null>]> = [
      ['proposta', [100.5, 100.5, null, 3]],
      ['lead', [1]],
      ['negociacao', [7, null, 7, 9, 2]],
      ['esvaziada', [40, 41]],
      ['fechamento', [null]],
    ];
    const byPhase = new Map<string, string[]>();
    for (const [phase, values] of plan)
      for (const [i, value] of values.entries()) {
        const deal = await h.services.deals.create(teamId, { title: `${phase} ${i}`, phase, ...(value === null ? {} : { value }) });
        byPhase.set(phase, [...(byPhase.get(phase) ?? []), deal.id]);
      }
    // Emptied: its counter rows stay, adding up to 0.
    for (const id of byPhase.get('esvaziada')!) await h.services.deals.update(teamId, id, { phase: 'lead' });
    // Counters of a phase that is not on the board (a row written by SQL outside the API).
    await sql`update deals set phase = ${'fora-do-quadro'} where id = ${byPhase.get('fechamento')![0]!}`.execute(h.testDb.db.kysely);

    for (const perColumn of [2, 20]) {
      const old = await oldDealsBoard(teamId, perColumn);
      expect(old.read).not.toContain('esvaziada');
      const res = await browser.get(`/deals/board?per_column=${perColumn}`);
      const columns = res.body.data.columns;
      expect(columns.map(({ phase, probability, count, total_value }: any) => ({ phase, probability, count, total_value }))).toEqual(old.header);
      const shown = old.ids.map((list) => list.slice(0, perColumn));
      expect(columns.filter((c: any) => old.read.includes(c.phase)).map((c: any) => c.items.map((card: any) => card.id))).toEqual(shown);
      expect(columns.filter((c: any) => !old.read.includes(c.phase)).every((c: any) => c.items.length === 0 && !c.has_more)).toBe(true);
      for (const [i, phase] of old.read.entries()) expect(columns.find((c: any) => c.phase === phase).has_more).toBe(old.ids[i]!.length > perColumn);
    }

    const dashboard = (await browser.get('/dashboard')).body.data;
    expect(dashboard.pipeline).toEqual((await oldDealsBoard(teamId, 20)).header.map(({ phase, count, total_value }) => ({ phase, count, total_value })));
    expect(Object.keys(dashboard.pipeline[0])).toEqual(['phase', 'count', 'total_value']);
  });

  it('vehicle board and dashboard stock: the same headers and cards as the separate reads', async () => {
    const { browser, teamId } = await signedIn(h, 'owner');
    const header = async () => (await oldVehiclesBoard(teamId, 20)).header;
    expect((await browser.get('/vehicles/board')).body.data.columns.map(({ phase, count }: any) => ({ phase, count }))).toEqual(await header());

    const phases = (await listVehiclePhases(h.testDb.db.kysely, teamId)).map((p) => p.name);
    await h.services.phases.replace(
      teamId,
      'vehicles',
      [...phases].reverse().map((name) => ({ name })),
    );
    const ids: string[] = [];
    for (let i = 0; i < 9; i++)
      ids.push((await h.services.vehicles.create(teamId, { title: `Carro ${i}`, brand: 'Fiat', model: 'Uno', phase: phases[i % 3]! })).id);
    // phases[2] emptied (its counter rows add up to 0); phases[3] never used.
    for (let i = 2; i < 9; i += 3) await h.services.vehicles.update(teamId, ids[i]!, { phase: phases[0]! });

    for (const perColumn of [1, 20]) {
      const old = await oldVehiclesBoard(teamId, perColumn);
      expect(old.read).not.toContain(phases[2]);
      const columns = (await browser.get(`/vehicles/board?per_column=${perColumn}`)).body.data.columns;
      expect(columns.map(({ phase, count }: any) => ({ phase, count }))).toEqual(old.header);
      expect(columns.filter((c: any) => old.read.includes(c.phase)).map((c: any) => c.items.map((card: any) => card.id))).toEqual(
        old.ids.map((list) => list.slice(0, perColumn)),
      );
      for (const [i, phase] of old.read.entries()) expect(columns.find((c: any) => c.phase === phase).has_more).toBe(old.ids[i]!.length > perColumn);
    }
    const dashboard = (await browser.get('/dashboard')).body.data;
    expect(dashboard.stock).toEqual(await header());
  });
});
