import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/services.js';
import { AppError } from '../../src/domain/shared/errors.js';
import { newId } from '../../src/domain/shared/ids.js';
import { DEFAULT_PHASES } from '../../src/domain/teams/teams.service.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { ensureBuilt, killAllChildren, processDb, runCli, runCliJson, type ProcessDb } from '../support/cli.js';
import { DIALECTS, openTestDb, stepMigrator } from '../support/dialects.js';
import { createHarness, type Harness } from '../support/harness.js';

const VEHICLE_DEFAULTS = ['entrada', 'preparacao', 'documentacao', 'disponivel', 'reservado'];

/** The error a service call fails with. */
async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

for (const dialect of DIALECTS) {
  describe(`boards: deal pipeline and vehicle board (${dialect})`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await createHarness(dialect);
    });
    afterAll(() => h.close());

    it('a new team has the default deal pipeline and the default vehicle board', async () => {
      const t = await h.team();
      expect(await h.services.phases.list(t.teamId, 'deals')).toEqual(DEFAULT_PHASES);
      expect(await h.services.phases.list(t.teamId, 'vehicles')).toEqual(VEHICLE_DEFAULTS.map((name, i) => ({ name, position: i + 1 })));
    });

    it('replaces a board in the given order; deal phases keep their probability unless given', async () => {
      const t = await h.team();
      const deals = await h.services.phases.replace(t.teamId, 'deals', [
        { name: 'qualificado' },
        { name: 'lead', probability: 5 },
        { name: 'test_drive', probability: 40 },
      ]);
      expect(deals).toEqual([
        { name: 'qualificado', position: 1, probability: 25 },
        { name: 'lead', position: 2, probability: 5 },
        { name: 'test_drive', position: 3, probability: 40 },
      ]);
      // The deals service sees the new pipeline.
      expect((await t.post('/deals', { title: 'x', phase: 'test_drive' })).status).toBe(201);
      expect((await t.post('/deals', { title: 'x', phase: 'proposta' })).body.error.message).toBe('Fase inválida');
      const vehicles = await h.services.phases.replace(t.teamId, 'vehicles', [{ name: 'entrada' }, { name: 'vitrine' }]);
      expect(vehicles).toEqual([
        { name: 'entrada', position: 1 },
        { name: 'vitrine', position: 2 },
      ]);
      // Boards are apart: the deal pipeline did not change.
      expect((await h.services.phases.list(t.teamId, 'deals')).map((p) => p.name)).toEqual(['qualificado', 'lead', 'test_drive']);
    });

    it('refuses bad lists with Portuguese messages', async () => {
      const t = await h.team();
      const cases: Array<[Parameters<typeof h.services.phases.replace>, RegExp]> = [
        [[t.teamId, 'deals', []], /ao menos uma fase/],
        [[t.teamId, 'deals', [{ name: 'nova' }]], /Informe a probabilidade da fase 'nova'/],
        [[t.teamId, 'deals', [{ name: 'lead', probability: 101 }]], /entre 0 e 100/],
        [[t.teamId, 'deals', [{ name: 'lead' }, { name: 'lead' }]], /Fase repetida/],
        [[t.teamId, 'vehicles', [{ name: 'entrada', probability: 10 }]], /não têm probabilidade/],
        [[t.teamId, 'vehicles', [{ name: ' ' }]], /não pode ser vazio/],
        [[t.teamId, 'vehicles', [{ name: 'x'.repeat(51) }]], /no máximo 50/],
        [[t.teamId, 'boats' as never, [{ name: 'x' }]], /Quadro inválido/],
        [['0190a000-0000-7000-8000-000000000000', 'deals', [{ name: 'lead' }]], /Time não encontrado/],
      ];
      for (const [args, message] of cases) expect((await failure(h.services.phases.replace(...args))).message).toMatch(message);
      expect(await h.services.phases.list(t.teamId, 'vehicles')).toHaveLength(5);
    });

    it('a phase still used by a record (any status) cannot be removed', async () => {
      const t = await h.team();
      const deal = await h.services.deals.create(t.teamId, { title: 'Corolla', phase: 'proposta' });
      await h.services.deals.archive(t.teamId, deal.id);
      const error = await failure(h.services.phases.replace(t.teamId, 'deals', [{ name: 'lead' }, { name: 'qualificado' }]));
      expect(error.statusCode).toBe(422);
      expect(error.message).toBe("Fase em uso não pode ser removida: 'proposta' (1 negócio). Mova esses registros para outra fase antes de removê-la.");
      expect((await h.services.phases.list(t.teamId, 'deals')).map((p) => p.name)).toEqual(DEFAULT_PHASES.map((p) => p.name));

      await insertVehicle(h, t.teamId, 'preparacao');
      await insertVehicle(h, t.teamId, 'preparacao');
      const inUse = await failure(h.services.phases.replace(t.teamId, 'vehicles', [{ name: 'entrada' }]));
      expect(inUse.message).toBe("Fase em uso não pode ser removida: 'preparacao' (2 veículos). Mova esses registros para outra fase antes de removê-la.");
      // Unused phases go; the one in use stays wherever the new list puts it.
      expect((await h.services.phases.replace(t.teamId, 'vehicles', [{ name: 'preparacao' }, { name: 'entrada' }])).map((p) => p.name)).toEqual([
        'preparacao',
        'entrada',
      ]);
    });

    it('the database refuses deleting a vehicle phase in use, whoever deletes it (foreign key)', async () => {
      const t = await h.team();
      await insertVehicle(h, t.teamId, 'reservado');
      await expect(h.testDb.db.kysely.deleteFrom('vehicle_phases').where('team_id', '=', t.teamId).where('name', '=', 'reservado').execute()).rejects.toThrow();
    });
  });

  describe(`migration 0005 on a database with data (${dialect})`, () => {
    it('seeds the vehicle board of existing teams and gives full keys the vehicle scopes', async () => {
      const testDb = await openTestDb(dialect, { migrate: false });
      try {
        const kysely = testDb.db.kysely;
        const migrator = await stepMigrator(testDb.db);
        expect((await migrator.migrateTo('0004-list-performance')).error).toBeUndefined();
        const team = { id: newId(), name: 'Loja antiga', plan: 'starter' as const, alert_email: null, created_at: new Date().toISOString() };
        await kysely.insertInto('teams').values(team).execute();
        const key = (scopes: string) => ({
          id: newId(),
          team_id: team.id,
          name: null,
          prefix: 'ask_x',
          key_hash: newId(),
          scopes,
          created_at: team.created_at,
          revoked_at: null,
        });
        const full = key('deals:read deals:write clients:read clients:write');
        const readOnly = key('deals:read clients:read');
        await kysely.insertInto('api_keys').values([full, readOnly]).execute();

        await migrateToLatest(testDb.db);
        const { phases } = createServices(testDb.db);
        expect((await phases.list(team.id, 'vehicles')).map((p) => p.name)).toEqual(VEHICLE_DEFAULTS);
        const scopes = async (id: string) => (await kysely.selectFrom('api_keys').select('scopes').where('id', '=', id).executeTakeFirstOrThrow()).scopes;
        expect(await scopes(full.id)).toBe('deals:read deals:write clients:read clients:write vehicles:read vehicles:write');
        expect(await scopes(readOnly.id)).toBe('deals:read clients:read');
      } finally {
        await testDb.close();
      }
    });
  });
}

/** A minimal vehicle row in `phase` (the vehicles service is not needed to hold a phase). */
async function insertVehicle(h: Harness, teamId: string, phase: string): Promise<void> {
  const now = new Date().toISOString();
  await h.testDb.db.kysely
    .insertInto('vehicles')
    .values({
      id: newId(),
      team_id: teamId,
      title: 'Onix',
      brand: 'Chevrolet',
      model: 'Onix',
      condition: 'usado',
      phase,
      status: 'ativo',
      features: '[]',
      tags: '[]',
      search_text: 'onix',
      title_key: 'onix',
      brand_key: 'chevrolet',
      model_key: 'onix',
      created_at: now,
      updated_at: now,
    })
    .execute();
}

describe('autosales teams phases (CLI)', () => {
  let db: ProcessDb;
  beforeAll(async () => {
    ensureBuilt();
    db = await processDb(DIALECTS.includes('postgres') ? 'postgres' : 'sqlite');
  }, 200_000);
  afterAll(async () => {
    killAllChildren();
    await db.cleanup();
  });

  it('lists and replaces either board', async () => {
    const team = await runCliJson(db.url, ['teams', 'create', '--name', 'Loja Quadros', '--json']);
    expect(await runCliJson(db.url, ['teams', 'phases', '--team', team.id, '--board', 'vehicles', '--json'])).toEqual(
      VEHICLE_DEFAULTS.map((name, i) => ({ name, position: i + 1 })),
    );
    const set = await runCliJson(db.url, [
      'teams',
      'phases',
      '--team',
      team.id,
      '--board',
      'deals',
      '--set',
      'lead:10, qualificado:25,visita:40,fechamento',
      '--json',
    ]);
    expect(set).toEqual([
      { name: 'lead', position: 1, probability: 10 },
      { name: 'qualificado', position: 2, probability: 25 },
      { name: 'visita', position: 3, probability: 40 },
      { name: 'fechamento', position: 4, probability: 90 },
    ]);
    const human = await runCli(db.url, ['teams', 'phases', '--team', team.id, '--board', 'vehicles', '--set', 'entrada,vitrine']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/position\s+name\n1\s+entrada\n2\s+vitrine/);
    const bad = await runCli(db.url, ['teams', 'phases', '--team', team.id, '--board', 'vehicles', '--set', 'entrada:10']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/não têm probabilidade/);
    const noBoard = await runCli(db.url, ['teams', 'phases', '--team', team.id]);
    expect(noBoard.code).not.toBe(0);
    expect(noBoard.stderr).toMatch(/--board/);
  }, 60_000);
});
