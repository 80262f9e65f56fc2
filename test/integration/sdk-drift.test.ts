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
 * The SDK's committed `openapi.json` and `src/schema.d.ts` must be what `npm run sdk:generate` would
 * write today: the document is rebuilt here from src/ (so no build is needed) and fed to the same
 * script, into a temporary directory. A failure means a route schema changed: run
 * `npm run sdk:generate` and commit the result. (The document does not depend on the database:
 * one run on in-memory SQLite is enough.)
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SDK = join(ROOT, 'packages', 'sdk');
const HINT = 'the SDK is out of date with the route schemas: run `npm run sdk:generate` and commit packages/sdk/openapi.json and packages/sdk/src/schema.d.ts';

/** The first differing line, short enough to read in a failure message. */
function firstDifference(committed: string, fresh: string): string | null {
  if (committed === fresh) return null;
  const a = committed.split('\n');
  const b = fresh.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `line ${i + 1}:\n  committed: ${String(a[i]).slice(0, 300)}\n  generated: ${String(b[i]).slice(0, 300)}`;
  }
  return 'line endings differ';
}

describe('SDK generated files', () => {
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'autosales-sdk-drift-'));
    const db = createDb('sqlite::memory:');
    await migrateToLatest(db);
    const app = await buildApp({ db });
    const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    await app.close();
    await db.close();
    expect(res.statusCode).toBe(200);
    writeFileSync(join(dir, 'document.json'), res.body);
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'export-openapi.mjs'), '--doc', join(dir, 'document.json'), '--out-dir', join(dir, 'out')], {
      cwd: ROOT,
      stdio: 'pipe',
      timeout: 60_000,
    });
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('packages/sdk/openapi.json is the document the service serves', () => {
    const problem = firstDifference(readFileSync(join(SDK, 'openapi.json'), 'utf8'), readFileSync(join(dir, 'out', 'openapi.json'), 'utf8'));
    expect(problem, `${HINT}\n${problem}`).toBeNull();
  });

  it('packages/sdk/src/schema.d.ts is openapi-typescript of that document', () => {
    const problem = firstDifference(readFileSync(join(SDK, 'src', 'schema.d.ts'), 'utf8'), readFileSync(join(dir, 'out', 'schema.d.ts'), 'utf8'));
    expect(problem, `${HINT}\n${problem}`).toBeNull();
  });
});
