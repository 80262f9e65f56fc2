import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { ensureBuilt, killAllChildren, processDb, runCli, runCliJson, type ProcessDb } from '../support/cli.js';

/** `autosales stores create / list / deactivate`, as an operator runs them. */

beforeAll(() => {
  ensureBuilt();
}, 200_000);

afterAll(() => {
  killAllChildren();
});

describe.each(DIALECTS)('stores from the CLI on %s', (dialect) => {
  let db: ProcessDb;
  beforeAll(async () => {
    db = await processDb(dialect);
  }, 60_000);
  afterAll(async () => {
    await db?.cleanup();
  });

  it('creates stores (CNPJ checked), lists them as a JSON array, and deactivates one', async () => {
    const team = await runCliJson(db.url, ['teams', 'create', '--name', 'Centro automotivo', '--json']);
    const centro = await runCliJson(db.url, ['stores', 'create', '--team', team.id, '--name', 'Loja Centro', '--cnpj', '11.222.333/0001-81', '--json']);
    expect(centro).toMatchObject({ id: expect.any(String), name: 'Loja Centro', cnpj: '11.222.333/0001-81', status: 'active' });
    const sul = await runCliJson(db.url, ['stores', 'create', '--team', team.id, '--name', 'Loja Sul', '--json']);
    const bad = await runCli(db.url, ['stores', 'create', '--team', team.id, '--name', 'Errada', '--cnpj', '11.222.333/0001-82']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('CNPJ inválido');
    const taken = await runCli(db.url, ['stores', 'create', '--team', team.id, '--name', 'Repetida', '--cnpj', '11222333000181']);
    expect(taken.stderr).toContain('CNPJ já cadastrado');

    const off = await runCliJson(db.url, ['stores', 'deactivate', '--team', team.id, '--store', sul.id, '--json']);
    expect(off).toMatchObject({ id: sul.id, status: 'inactive' });
    const list = await runCliJson(db.url, ['stores', 'list', '--team', team.id, '--json']);
    expect(list.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([
      [centro.id, 'active'],
      [sul.id, 'inactive'],
    ]);
    const human = await runCli(db.url, ['stores', 'list', '--team', team.id]);
    expect(human.stdout).toContain('Loja Centro');
    const unknown = await runCli(db.url, ['stores', 'deactivate', '--team', team.id, '--store', team.id]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('Loja não encontrada');
  }, 90_000);
});
