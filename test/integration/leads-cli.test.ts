import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { ensureBuilt, killAllChildren, processDb, runCli, runCliJson, type ProcessDb } from '../support/cli.js';

/** `autosales teams settings` and `users create --takes-leads`, as an operator runs them. */

beforeAll(() => {
  ensureBuilt();
}, 200_000);

afterAll(() => {
  killAllChildren();
});

describe.each(DIALECTS)('lead settings from the CLI on %s', (dialect) => {
  let db: ProcessDb;
  beforeAll(async () => {
    db = await processDb(dialect);
  }, 60_000);
  afterAll(async () => {
    await db?.cleanup();
  });

  it('users create --takes-leads, and teams settings shows and changes the distribution and the response target', async () => {
    const team = await runCliJson(db.url, ['teams', 'create', '--name', 'Loja dos leads', '--json']);
    const user = (email: string, ...more: string[]) =>
      runCliJson(db.url, ['users', 'create', '--team', team.id, '--email', email, '--name', email, '--password', 'senha-forte-123', ...more, '--json']);
    expect((await user('vendedor@example.com')).takes_leads).toBe(true);
    expect((await user('vendedor2@example.com', '--takes-leads', 'false')).takes_leads).toBe(false);
    const manager = await user('gerente@example.com', '--role', 'manager', '--takes-leads', 'true');
    expect(manager.takes_leads).toBe(true);

    expect(await runCliJson(db.url, ['teams', 'settings', '--team', team.id, '--json'])).toEqual({
      id: team.id,
      leads: { distribution: 'round_robin', user_id: null, response_minutes: 15 },
    });
    const fixed = await runCliJson(db.url, [
      'teams',
      'settings',
      '--team',
      team.id,
      '--lead-distribution',
      'fixed',
      '--lead-user',
      manager.id,
      '--response-minutes',
      '10',
      '--json',
    ]);
    expect(fixed.leads).toEqual({ distribution: 'fixed', user_id: manager.id, response_minutes: 10 });
    const refused = await runCli(db.url, ['teams', 'settings', '--team', team.id, '--response-minutes', '0']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('A meta de resposta deve ser um número inteiro de 1 a 1440 minutos');
  }, 60_000);
});
