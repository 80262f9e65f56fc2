#!/usr/bin/env node
// Generates the panel app's API types from the server itself:
//   packages/panel/src/api/schema.d.ts   openapi-typescript's types for GET /panel/api/openapi.json
//                                        (app built in-process on an in-memory SQLite database)
//
//   npm run panel:generate                                 build dist/, regenerate
//   node scripts/export-panel-openapi.mjs --doc FILE --out FILE
//                                                          types for an existing document (the drift test)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OPENAPI_TYPESCRIPT = join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
const TARGET = join(ROOT, 'packages', 'panel', 'src', 'api', 'schema.d.ts');

async function documentFromDist() {
  const { buildApp, createDb, migrateToLatest } = await import('../dist/index.js');
  const db = createDb('sqlite::memory:');
  try {
    await migrateToLatest(db);
    const app = await buildApp({ db });
    try {
      const res = await app.inject({ method: 'GET', url: '/panel/api/openapi.json' });
      if (res.statusCode !== 200) throw new Error(`GET /panel/api/openapi.json answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
      return res.body;
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
  }
}

const { values } = parseArgs({ options: { doc: { type: 'string' }, out: { type: 'string' } } });
const out = values.out ?? TARGET;
let docPath = values.doc;
let tmp;
if (!docPath) {
  tmp = mkdtempSync(join(tmpdir(), 'autosales-panel-openapi-'));
  docPath = join(tmp, 'panel-openapi.json');
  writeFileSync(docPath, await documentFromDist());
}
try {
  execFileSync(process.execPath, [OPENAPI_TYPESCRIPT, docPath, '-o', out, '--empty-objects-unknown'], { stdio: ['ignore', 'ignore', 'inherit'] });
} finally {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}
process.stdout.write(`wrote ${out}\n`);
