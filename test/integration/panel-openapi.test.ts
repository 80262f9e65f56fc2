import { validate } from '@readme/openapi-parser';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createDb } from '../../src/storage/db.js';
import { migrateToLatest } from '../../src/storage/migrator.js';

/**
 * The panel's own OpenAPI document (GET /panel/api/openapi.json): valid OpenAPI 3.1, only the panel's
 * routes (and the public document none of them), and the panel app's committed types
 * (packages/panel/src/api/schema.d.ts) are what `npm run panel:generate` writes today.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HINT = 'the panel types are out of date with the route schemas: run `npm run panel:generate` and commit packages/panel/src/api/schema.d.ts';

describe('panel OpenAPI document', () => {
  let dir: string;
  let panel: any;
  let api: any;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'autosales-panel-drift-'));
    const db = createDb('sqlite::memory:');
    await migrateToLatest(db);
    const app = await buildApp({ db });
    const res = await app.inject({ method: 'GET', url: '/panel/api/openapi.json' });
    api = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    await app.close();
    await db.close();
    expect(res.statusCode).toBe(200);
    panel = res.json();
    writeFileSync(join(dir, 'document.json'), res.body);
    execFileSync(
      process.execPath,
      [join(ROOT, 'scripts', 'export-panel-openapi.mjs'), '--doc', join(dir, 'document.json'), '--out', join(dir, 'schema.d.ts')],
      {
        cwd: ROOT,
        stdio: 'pipe',
        timeout: 60_000,
      },
    );
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is valid OpenAPI 3.1 with only /panel/api paths; the public document has none of them', async () => {
    const result = await validate(structuredClone(panel));
    expect(result.valid, JSON.stringify(result)).toBe(true);
    expect(panel.openapi).toBe('3.1.0');
    const paths = Object.keys(panel.paths);
    expect(paths.length).toBeGreaterThanOrEqual(20);
    expect(paths.filter((p) => !p.startsWith('/panel/api/'))).toEqual([]);
    expect(Object.keys(api.paths).filter((p) => p.startsWith('/panel'))).toEqual([]);
  });

  it('packages/panel/src/api/schema.d.ts is what panel:generate writes', () => {
    const committed = readFileSync(join(ROOT, 'packages', 'panel', 'src', 'api', 'schema.d.ts'), 'utf8');
    const fresh = readFileSync(join(dir, 'schema.d.ts'), 'utf8');
    expect(committed === fresh, HINT).toBe(true);
  });
});
