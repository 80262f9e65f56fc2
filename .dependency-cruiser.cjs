/**
 * Import rules of src/ (npm run lint). Layers point one way:
 *
 *   process → app → http → domain → storage
 *
 * process: the programs (src/cli, src/server.ts, src/index.ts, src/process)
 * app:     buildApp and the composition root (src/app.ts, src/app/), the runtimes they start
 *          (src/worker, src/alerts, src/observability, later src/scheduler) and src/config.ts
 * http:    Fastify plugins, schemas and routes (src/http)
 * domain:  rules, types and repositories (src/domain)
 * storage: database handle, table types, dialect, migrations (src/storage)
 *
 * A layer may import the layers to its right, never one to its left; no import cycles anywhere.
 * See docs/architecture.md.
 */
const PROCESS = '^src/(cli/|process/|server[.]ts$|index[.]ts$)';
const APP = '^src/(app[.]ts$|app/|worker/|scheduler/|alerts/|observability/|config[.]ts$|version[.]ts$)';
const HTTP = '^src/http/';
const DOMAIN = '^src/domain/';
const STORAGE = '^src/storage/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles hide which module owns what; break the cycle (move the shared part down a layer).',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'app-not-to-process',
      severity: 'error',
      comment: 'Only the programs (process layer) import the process layer: logger factory, shutdown signals, CLI, server.',
      from: { path: `${APP}|${HTTP}|${DOMAIN}|${STORAGE}` },
      to: { path: PROCESS },
    },
    {
      name: 'http-not-up-or-to-storage',
      severity: 'error',
      comment: 'http parses, calls a service and builds the answer: it imports domain only (plain values come in from the app).',
      from: { path: HTTP },
      to: { path: `${APP}|${STORAGE}` },
    },
    {
      name: 'domain-not-up',
      severity: 'error',
      comment: 'The domain owns its types and rules; it never imports http, app (config included) or process.',
      from: { path: DOMAIN },
      to: { path: `${APP}|${HTTP}` },
    },
    {
      name: 'storage-is-the-bottom',
      severity: 'error',
      comment: 'storage imports nothing of ours above it.',
      from: { path: STORAGE },
      to: { path: `${APP}|${HTTP}|${DOMAIN}` },
    },
    {
      name: 'sql-only-in-repositories',
      severity: 'error',
      comment:
        'SQL lives in repositories (*.repository.ts), their SQL helpers (domain/shared/*-sql.ts) and storage/. ' +
        'Services, routes and runtimes call repository functions; type-only imports (Trx, row types) are fine. ' +
        "Exception: the worker's dedicated LISTEN connection (src/worker/delivery-listener.ts) speaks pg directly.",
      from: { path: '^src/', pathNot: '^src/storage/|[.]repository[.]ts$|^src/domain/shared/[a-z-]+-sql[.]ts$|^src/worker/delivery-listener[.]ts$' },
      to: { path: 'node_modules/(kysely|pg|better-sqlite3)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve to a file or an installed package.',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
    {
      name: 'no-non-package-json',
      severity: 'error',
      comment: 'src/ imports only packages package.json declares (not whatever another package happened to install).',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'not-to-dev-dep',
      severity: 'error',
      comment: 'src/ ships to production: it must not import a devDependency.',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|dist-bench)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
