import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/services.js';
import { runCli, runCliJson } from '../support/cli.js';
import { DIALECTS, openTestDb, type TestDb } from '../support/dialects.js';

/** `autosales teams preview` and `autosales teams time-zone` (issue 12 point 5), and the default scopes of a new key. Runs the built program. */

describe.each(DIALECTS)('agenda CLI (%s)', (dialect) => {
  let testDb: TestDb;
  let teamId: string;

  beforeAll(async () => {
    testDb = await openTestDb(dialect);
    teamId = (await runCliJson<{ id: string }>(testDb.url, ['teams', 'create', '--name', `Loja agenda ${dialect}`, '--json'])).id;
  });
  afterAll(() => testDb?.close());

  it('teams preview --enable / --disable turns areas on and off; the team view shows them', async () => {
    expect(await runCliJson(testDb.url, ['teams', 'preview', '--team', teamId, '--enable', 'financial,activities', '--json'])).toEqual({
      id: teamId,
      preview: ['activities', 'financial'],
    });
    const services = createServices(testDb.db);
    expect(await services.teams.previewEnabled(teamId, 'financial')).toBe(true);
    expect(await services.teams.previewEnabled(teamId, 'webhooks')).toBe(false);
    expect(await runCliJson(testDb.url, ['teams', 'preview', '--team', teamId, '--disable', 'financial', '--enable', 'webhooks', '--json'])).toEqual({
      id: teamId,
      preview: ['activities', 'webhooks'],
    });
    const text = await runCli(testDb.url, ['teams', 'preview', '--team', teamId, '--disable', 'activities,webhooks']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('preview (none)');
  });

  it('refuses unknown areas and a call without --enable or --disable (non-zero, message on stderr)', async () => {
    const bad = await runCli(testDb.url, ['teams', 'preview', '--team', teamId, '--enable', 'vehicles']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('Área de preview inválida: vehicles. Use: financial, activities, webhooks');
    const none = await runCli(testDb.url, ['teams', 'preview', '--team', teamId]);
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/--enable/);
  });

  it('teams time-zone sets an IANA zone and refuses an unknown one', async () => {
    expect(await runCliJson(testDb.url, ['teams', 'time-zone', '--team', teamId, '--zone', 'America/Manaus', '--json'])).toEqual({
      id: teamId,
      time_zone: 'America/Manaus',
    });
    const bad = await runCli(testDb.url, ['teams', 'time-zone', '--team', teamId, '--zone', 'Mars/Olympus']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("Fuso horário desconhecido: 'Mars/Olympus'");
  });

  it('a key created without --scopes holds no preview scope; naming them grants them', async () => {
    const plain = await runCliJson<{ scopes: string[] }>(testDb.url, ['keys', 'create', '--team', teamId, '--json']);
    expect(plain.scopes.filter((s) => /^(financial|activities|webhooks):/.test(s))).toEqual([]);
    const preview = await runCliJson<{ scopes: string[] }>(testDb.url, [
      'keys',
      'create',
      '--team',
      teamId,
      '--scopes',
      'financial:read,webhooks:write',
      '--json',
    ]);
    expect(preview.scopes).toEqual(['financial:read', 'webhooks:write']);
  });
});
