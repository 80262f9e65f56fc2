#!/usr/bin/env node
// Generates the SDK's committed files from the service itself:
//   packages/sdk/openapi.json    the document GET /api/v1/openapi.json serves (app built in-process on
//                                an in-memory SQLite database: nothing listens, nothing is written elsewhere)
//   packages/sdk/src/schema.d.ts openapi-typescript's types for that document
//
//   npm run sdk:generate                              build dist/, regenerate, rebuild the SDK
//   node scripts/export-openapi.mjs                   regenerate from dist/ (needs a fresh `npm run build`)
//   node scripts/export-openapi.mjs --doc FILE --out-dir DIR
//                                                     types for an existing document, written to DIR
//                                                     (the drift test uses this with a document built from src/)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SDK = join(ROOT, 'packages', 'sdk');
const OPENAPI_TYPESCRIPT = join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
/**
 * `--empty-objects-unknown`: a schema that is just `{type: object}` (an event's `previous_attributes`,
 * the payload of kinds nothing emits yet) becomes `Record<string, unknown>`, not `Record<string, never>`.
 */
const OPENAPI_TYPESCRIPT_FLAGS = ['--empty-objects-unknown'];

/** The one serialisation of the document (2-space JSON and a final newline), so diffs stay readable. */
function serialiseDocument(doc) {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

async function documentFromDist() {
  const { buildApp, createDb, migrateToLatest } = await import('../dist/index.js');
  const db = createDb('sqlite::memory:');
  try {
    await migrateToLatest(db);
    const app = await buildApp({ db });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
      if (res.statusCode !== 200) throw new Error(`GET /api/v1/openapi.json answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
      return res.json();
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
  }
}

async function main() {
  const { values } = parseArgs({ options: { doc: { type: 'string' }, 'out-dir': { type: 'string' } } });
  const openapiPath = values['out-dir'] ? join(values['out-dir'], 'openapi.json') : join(SDK, 'openapi.json');
  const schemaPath = values['out-dir'] ? join(values['out-dir'], 'schema.d.ts') : join(SDK, 'src', 'schema.d.ts');
  if (values['out-dir']) mkdirSync(values['out-dir'], { recursive: true });

  const doc = values.doc ? JSON.parse(readFileSync(values.doc, 'utf8')) : await documentFromDist();
  writeFileSync(openapiPath, serialiseDocument(doc));
  execFileSync(process.execPath, [OPENAPI_TYPESCRIPT, openapiPath, '-o', schemaPath, ...OPENAPI_TYPESCRIPT_FLAGS], { stdio: ['ignore', 'ignore', 'inherit'] });
  process.stdout.write(`wrote ${openapiPath}\nwrote ${schemaPath}\n`);
}

await main();
