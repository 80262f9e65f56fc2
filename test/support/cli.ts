import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createServices } from '../../src/app/services.js';
import { createDb } from '../../src/storage/db.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { spawnChild, type ChildHandle } from './child.js';
import { withSearchPath } from './dialects.js';
import { waitUntil } from './wait.js';

/** The child exited while a test waited for it to become ready: no point waiting longer. */
class ExitedEarly extends Error {}

/**
 * Helpers for tests that run the *built* program as a separate process (`node bin/autosales.js …`),
 * the way an operator does: the CLI commands, and `autosales serve`.
 *
 * Build policy: `npm test` is plain `vitest run` and does not compile, so every file that uses these
 * helpers calls `ensureBuilt()` in its `beforeAll`. It runs `npm run build` only when some
 * `src/**\/*.ts` has no compiled `dist/**\/*.js` or is newer than it, under a lock so that test files
 * running side by side never compile at the same time (the second one waits, sees a fresh `dist/`
 * and skips). With `npm run build && npx vitest run` it costs one directory walk.
 *
 * Every child process started here is tracked and killed (SIGKILL) by `killAllChildren()`, which
 * test files call in `afterAll`, and again when the worker exits.
 */

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = join(ROOT, 'bin', 'autosales.js');
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');

// ---------------------------------------------------------------------------------------------
// Build

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The source files whose compiled output is missing or older than the source (empty: dist is fresh). */
export function staleSources(): string[] {
  return sourceFiles(SRC).filter((src) => {
    const out = join(DIST, relative(SRC, src)).replace(/\.ts$/, '.js');
    return !existsSync(out) || statSync(out).mtimeMs < statSync(src).mtimeMs;
  });
}

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Compiles src/ to dist/ (once, under a cross-process lock) when dist/ is missing or older than the sources. */
export function ensureBuilt(): void {
  if (existsSync(join(DIST, 'cli', 'main.js')) && staleSources().length === 0) return;
  const lock = join(tmpdir(), `autosales-build-${Buffer.from(ROOT).toString('hex').slice(-24)}.lock`);
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      // A lock left behind by a crashed run is taken over after 3 minutes.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 180_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        /* released meanwhile */
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for the build lock ${lock}`);
      sleepSync(200);
    }
  }
  try {
    const main = join(DIST, 'cli', 'main.js');
    // Sources may change while tsc runs (other people edit src/ too): one more build then, at most.
    for (let attempt = 1; attempt <= 2; attempt++) {
      if (existsSync(main) && staleSources().length === 0) return;
      try {
        execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe', timeout: 170_000 });
      } catch (error) {
        // tsc emits even with type errors; such errors are reported, not fatal, as long as dist/ exists.
        const output = String((error as { stdout?: Buffer }).stdout ?? '') + String((error as { stderr?: Buffer }).stderr ?? '');
        if (!existsSync(main)) throw new Error(`npm run build failed and dist/cli/main.js is missing:\n${output}`, { cause: error });
        process.stderr.write(`warning: npm run build reported errors (dist/ was emitted anyway):\n${output}\n`);
      }
    }
    const stale = staleSources();
    if (stale.length) process.stderr.write(`warning: still older than their sources after two builds: ${stale.map((f) => relative(ROOT, f)).join(', ')}\n`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Child processes

/** Children are spawned and tracked by ./child.ts; `killAllChildren` (also re-exported here) ends them all. */
export { killAllChildren, track } from './child.js';

/** The environment for a child: ours, minus the variables the program reads (config.ts), plus `env` (undefined removes). */
export function childEnv(env: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(out)) {
    if (/^(DATABASE_URL|DATABASE_POOL_MAX|PORT|HOST|LOG_LEVEL|SMTP_URL|ALERT_EMAIL_FROM|WEBHOOK_.*|SCHEDULER.*)$/.test(name)) delete out[name];
  }
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete out[name];
    else out[name] = value;
  }
  return out;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Extra environment (DATABASE_URL is set from `databaseUrl` unless given here). */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Killed (SIGKILL) after this many ms; the result then has signal SIGKILL. */
  timeoutMs?: number;
}

/** Without DATABASE_URL the program uses ./data/autosales.db: never let a test do that in the project itself. */
function guardedEnv(cwd: string, env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const out = childEnv(env);
  if (!out.DATABASE_URL && resolvePath(cwd) === resolvePath(ROOT)) {
    throw new Error('refusing to run autosales without DATABASE_URL in the project directory (it would use ./data); pass a temp cwd');
  }
  return out;
}

/** Runs `node bin/autosales.js ...args` with DATABASE_URL and resolves when it exits. */
export async function runCli(databaseUrl: string | undefined, args: string[], options: CliOptions = {}): Promise<CliResult> {
  const cwd = options.cwd ?? ROOT;
  const env = guardedEnv(cwd, { DATABASE_URL: databaseUrl, ...options.env });
  const run = spawnChild(process.execPath, [BIN, ...args], { cwd, env, name: `autosales ${args.join(' ')}` });
  const timer = setTimeout(() => run.child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
  // 'close' (not 'exit'): both streams are fully read.
  const closed = new Promise<void>((resolve, reject) => {
    run.child.once('error', reject);
    run.child.once('close', () => resolve());
  });
  try {
    await closed;
  } finally {
    clearTimeout(timer);
  }
  const { code, signal } = await run.exited;
  return { code, signal, stdout: run.stdout(), stderr: run.stderr() };
}

/** Runs the CLI and parses its stdout as one JSON value; fails loudly with both streams otherwise. */
export async function runCliJson<T = any>(databaseUrl: string | undefined, args: string[], options?: CliOptions): Promise<T> {
  const result = await runCli(databaseUrl, args, options);
  if (result.code !== 0) {
    throw new Error(`autosales ${args.join(' ')} exited ${result.code ?? result.signal}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  }
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`autosales ${args.join(' ')} did not print JSON:\n${result.stdout}`);
  }
}

/** A TCP port that was free a moment ago (the server's PORT=0 choice is not reported back). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess extends ChildHandle {
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
}

export interface ServeOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** How long to wait for GET /health to answer 200. */
  readyTimeoutMs?: number;
}

/**
 * Starts `autosales serve` on a free port (HOST 127.0.0.1, LOG_LEVEL warn unless `env` says otherwise),
 * and resolves once GET /health answers 200. Rejects with the process output if it exits or does not
 * become healthy in time (the process is then killed).
 */
export async function startServe(databaseUrl: string | undefined, options: ServeOptions = {}): Promise<ServerProcess> {
  const port = await freePort();
  const cwd = options.cwd ?? ROOT;
  const env = guardedEnv(cwd, { DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...options.env });
  const server: ServerProcess = {
    ...spawnChild(process.execPath, [BIN, 'serve'], { cwd, env, name: 'autosales serve' }),
    port,
    url: `http://127.0.0.1:${port}`,
  };
  await waitUntil(
    async () => {
      if (!server.running())
        throw new ExitedEarly(`autosales serve exited (${server.child.exitCode ?? server.child.signalCode}) before answering /health\n${server.output()}`);
      const res = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(1_000) }).catch(() => null);
      await res?.body?.cancel();
      return res?.status === 200;
    },
    options.readyTimeoutMs ?? 20_000,
    'GET /health of autosales serve',
    { failFast: (error) => error instanceof ExitedEarly },
  ).catch(async (error: unknown) => {
    server.child.kill('SIGKILL');
    await server.exited;
    if (error instanceof ExitedEarly) throw error;
    throw new Error(`${(error as Error).message}\n${server.output()}`, { cause: error });
  });
  return server;
}

// ---------------------------------------------------------------------------------------------
// Databases for child processes

export interface ProcessDb {
  url: string;
  /** SQLite: the temp directory holding the file (`x.db`). */
  dir: string | null;
  cleanup(): Promise<void>;
}

/**
 * A database of its own for child processes, not yet migrated:
 * SQLite: a brand-new (not yet created) file `x.db` in a fresh temp directory.
 * PostgreSQL: a fresh, empty schema in TEST_DATABASE_URL, selected through the connection's
 * search_path (own tables matter: a server's delivery worker claims every due delivery it can see).
 */
export async function processDb(dialect: 'sqlite' | 'postgres'): Promise<ProcessDb> {
  if (dialect === 'postgres') {
    const base = process.env.TEST_DATABASE_URL;
    if (!base) throw new Error('TEST_DATABASE_URL is not set');
    const schema = `t_cli_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      await admin.query(`create schema ${schema}`);
    } finally {
      await admin.end();
    }
    return {
      url: withSearchPath(base, schema),
      dir: null,
      cleanup: async () => {
        const cleaner = new pg.Client({ connectionString: base });
        await cleaner.connect();
        try {
          await cleaner.query(`drop schema if exists ${schema} cascade`);
        } finally {
          await cleaner.end();
        }
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'autosales-proc-'));
  return { url: `sqlite:${join(dir, 'x.db')}`, dir, cleanup: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })) };
}

/** A small authenticated HTTP client for a running server. */
export async function api(
  base: string,
  key: string | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any; text: string }> {
  const headers: Record<string, string> = {};
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text };
}

let seededTeams = 0;

/**
 * Migrates the database a child process will use (before any server starts, so two servers never
 * race on it) and adds a team with an all-scopes key, in-process.
 */
export async function seedTeam(url: string, plan = 'starter'): Promise<{ teamId: string; key: string }> {
  const db = createDb(url, { poolMax: 2 });
  try {
    await migrateToLatest(db);
    const { teams, keys } = createServices(db);
    const team = await teams.create({ name: `Loja processo ${++seededTeams} ${Date.now().toString(36)}`, plan });
    const created = await keys.create({ teamId: team.id });
    return { teamId: team.id, key: created.key };
  } finally {
    await db.close();
  }
}

/** How many deals the team has, read straight from the database. */
export async function countDeals(url: string, teamId: string): Promise<number> {
  const db = createDb(url, { poolMax: 1 });
  try {
    const row = await db.kysely
      .selectFrom('deals')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('team_id', '=', teamId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await db.close();
  }
}
