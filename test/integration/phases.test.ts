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
const VEHICLE_LABELS = ['Entrada', 'Preparação', 'Documentação', 'Disponível', 'Reservado'];
const DEAL_LABELS = ['Lead', 'Qualificado', 'Proposta', 'Negociação', 'Fechamento'];
const vehicleDefaults = () => VEHICLE_DEFAULTS.map((name, i) => ({ name, label: VEHICLE_LABELS[i], position: i + 1 }));

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
      expect(await h.services.phases.list(t.teamId, 'deals')).toEqual(DEFAULT_PHASES.map((p, i) => ({ ...p, label: DEAL_LABELS[i] })));
      expect(await h.services.phases.list(t.teamId, 'vehicles')).toEqual(vehicleDefaults());
    });

    it('replaces a board in the given order; deal phases keep their probability unless given', async () => {
      const t = await h.team();
      const deals = await h.services.phases.replace(t.teamId, 'deals', [
        { name: 'qualificado' },
        { name: 'lead', probability: 5 },
        { name: 'test_drive', probability: 40 },
      ]);
      expect(deals).toEqual([
        { name: 'qualificado', label: 'Qualificado', position: 1, probability: 25 },
        { name: 'lead', label: 'Lead', position: 2, probability: 5 },
        { name: 'test_drive', label: 'Test drive', position: 3, probability: 40 },
      ]);
      // The deals service sees the new pipeline.
      expect((await t.post('/deals', { title: 'x', phase: 'test_drive' })).status).toBe(201);
      expect((await t.post('/deals', { title: 'x', phase: 'proposta' })).body.error.message).toBe('Fase inválida');
      const vehicles = await h.services.phases.replace(t.teamId, 'vehicles', [{ name: 'entrada' }, { name: 'vitrine' }]);
      expect(vehicles).toEqual([
        { name: 'entrada', label: 'Entrada', position: 1 },
        { name: 'vitrine', label: 'Vitrine', position: 2 },
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
        [[t.teamId, 'deals', [{ name: 'lead' }, { name: 'lead' }]], /^Fase já existe$/],
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

  describe(`phase names and labels (${dialect})`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await createHarness(dialect);
    });
    afterAll(() => h.close());

    it('a phase typed as a label gets its name derived once; relabelling never changes the name', async () => {
      const t = await h.team();
      const kept = (await h.services.phases.list(t.teamId, 'deals')).map(({ name }) => ({ name }));
      const added = await h.services.phases.replace(t.teamId, 'deals', [...kept, { label: '  Aguardando   financiamento ', probability: 60 }], {
        typedAsLabels: true,
      });
      expect(added.at(-1)).toEqual({ name: 'aguardando_financiamento', label: 'Aguardando financiamento', position: 6, probability: 60 });
      // A name that is not the board's, sent by the panel, is a label too (never stored as typed).
      const typed = await h.services.phases.replace(t.teamId, 'vehicles', [{ name: 'entrada' }, { name: 'Pós-venda (garantia)' }], { typedAsLabels: true });
      expect(typed[1]).toEqual({ name: 'posvenda_garantia', label: 'Pós-venda (garantia)', position: 2 });
      const relabelled = await h.services.phases.replace(
        t.teamId,
        'deals',
        added.map((p) => (p.name === 'aguardando_financiamento' ? { name: p.name, label: 'Financiamento em análise' } : { name: p.name })),
        { typedAsLabels: true },
      );
      expect(relabelled.at(-1)).toEqual({ name: 'aguardando_financiamento', label: 'Financiamento em análise', position: 6, probability: 60 });
      // The API still reads and writes names.
      const deal = await t.post('/deals', { title: 'Onix', phase: 'aguardando_financiamento' });
      expect(deal.status).toBe(201);
      expect(deal.body.data.phase).toBe('aguardando_financiamento');
      expect((await t.post('/deals', { title: 'Onix', phase: 'Financiamento em análise' })).body.error.message).toBe('Fase inválida');
    });

    it('names or labels equal once case, accents, spaces and invisible characters are ignored: 400 Fase já existe', async () => {
      const t = await h.team();
      const vehicles = (await h.services.phases.list(t.teamId, 'vehicles')).map(({ name }) => ({ name }));
      for (const label of ['Entrada', 'ENTRADA', 'entrada\u200b', '\u200bEn trada', 'Preparacao', 'DISPONÍVEL', 'Docu\u00admentação']) {
        const error = await failure(h.services.phases.replace(t.teamId, 'vehicles', [...vehicles, { label }], { typedAsLabels: true }));
        expect([error.statusCode, error.code, error.message, error.extras.field], label).toEqual([400, 'VALIDATION_ERROR', 'Fase já existe', 'phases']);
      }
      // A label equal to another phase's name, or two new labels alike.
      expect((await failure(h.services.phases.replace(t.teamId, 'vehicles', [{ name: 'entrada', label: 'Reservado' }, { name: 'reservado' }]))).message).toBe(
        'Fase já existe',
      );
      expect(
        (await failure(h.services.phases.replace(t.teamId, 'vehicles', [{ label: 'Vitrine' }, { label: 'vitrine ' }], { typedAsLabels: true }))).message,
      ).toBe('Fase já existe');
      expect((await failure(h.services.phases.replace(t.teamId, 'vehicles', [{ label: '🚗 !!' }], { typedAsLabels: true }))).message).toBe(
        'O nome da fase precisa de ao menos uma letra ou número',
      );
      expect((await failure(h.services.phases.replace(t.teamId, 'vehicles', [{ label: '\u200b ' }], { typedAsLabels: true }))).message).toBe(
        'O nome da fase não pode ser vazio',
      );
      expect(await h.services.phases.list(t.teamId, 'vehicles')).toEqual(vehicleDefaults());
    });
  });

  describe(`migration 0013 on a database with data (${dialect})`, () => {
    it('gives the existing phases of both boards their labels', async () => {
      const testDb = await openTestDb(dialect, { migrate: false });
      try {
        const kysely = testDb.db.kysely;
        const migrator = await stepMigrator(testDb.db);
        expect((await migrator.migrateTo('0012-exact-search')).error).toBeUndefined();
        const team = { id: newId(), name: 'Loja antiga', plan: 'starter' as const, alert_email: null, created_at: new Date().toISOString() };
        await kysely.insertInto('teams').values(team).execute();
        const deals = [
          ...DEFAULT_PHASES.map(({ name, position, probability }) => ({ name, position, probability })),
          { name: 'test_drive', position: 6, probability: 40 },
        ];
        await kysely
          .insertInto('team_phases')
          .values(deals.map((p) => ({ ...p, team_id: team.id })))
          .execute();
        await kysely
          .insertInto('vehicle_phases')
          .values(VEHICLE_DEFAULTS.map((name, i) => ({ team_id: team.id, name, position: i + 1 })))
          .execute();

        await migrateToLatest(testDb.db);
        const { phases } = createServices(testDb.db);
        expect((await phases.list(team.id, 'deals')).map((p) => p.label)).toEqual([...DEAL_LABELS, 'Test drive']);
        expect(await phases.list(team.id, 'vehicles')).toEqual(vehicleDefaults());
        expect((await kysely.selectFrom('team_phases').select('label').where('name', '=', 'negociacao').executeTakeFirstOrThrow()).label).toBe('Negociação');
      } finally {
        await testDb.close();
      }
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

        // The scopes as 0005 leaves them (later migrations add later scopes, e.g. 0016's leads:write).
        expect((await migrator.migrateTo('0005-vehicles')).error).toBeUndefined();
        const scopes = async (id: string) => (await kysely.selectFrom('api_keys').select('scopes').where('id', '=', id).executeTakeFirstOrThrow()).scopes;
        expect(await scopes(full.id)).toBe('deals:read deals:write clients:read clients:write vehicles:read vehicles:write');
        expect(await scopes(readOnly.id)).toBe('deals:read clients:read');
        await migrateToLatest(testDb.db);
        const { phases } = createServices(testDb.db);
        expect((await phases.list(team.id, 'vehicles')).map((p) => p.name)).toEqual(VEHICLE_DEFAULTS);
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
    expect(await runCliJson(db.url, ['teams', 'phases', '--team', team.id, '--board', 'vehicles', '--json'])).toEqual(vehicleDefaults());
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
      { name: 'lead', label: 'Lead', position: 1, probability: 10 },
      { name: 'qualificado', label: 'Qualificado', position: 2, probability: 25 },
      { name: 'visita', label: 'Visita', position: 3, probability: 40 },
      { name: 'fechamento', label: 'Fechamento', position: 4, probability: 90 },
    ]);
    const human = await runCli(db.url, ['teams', 'phases', '--team', team.id, '--board', 'vehicles', '--set', 'entrada,vitrine']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/position\s+name\s+label\n1\s+entrada\s+Entrada\n2\s+vitrine\s+Vitrine/);
    const bad = await runCli(db.url, ['teams', 'phases', '--team', team.id, '--board', 'vehicles', '--set', 'entrada:10']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/não têm probabilidade/);
    const noBoard = await runCli(db.url, ['teams', 'phases', '--team', team.id]);
    expect(noBoard.code).not.toBe(0);
    expect(noBoard.stderr).toMatch(/--board/);
  }, 60_000);
});
