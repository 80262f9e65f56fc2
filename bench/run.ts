// npm run bench [-- --db postgres://… --smoke --duration 10 --connections 10 --scale 10000,100000,1000000 --skip-1m --cpu-prof]
// Seeds a reproducible data set, measures the ceiling (bare Fastify) and every hot path of the
// service against it, and writes bench/results/<db>-<date>.md. See bench/README.md.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { toDealView } from '../src/domain/deals/deals.mapper.js';
import { findDeal } from '../src/domain/deals/deals.repository.js';
import { createServices } from '../src/app/services.js';
import { SESSION_COOKIE } from '../src/http/panel/panel-auth.js';
import { createDb, type Db } from '../src/storage/db.js';
import { migrateToLatest } from '../src/storage/migrator.js';
import { runAiBench } from './ai.js';
import { parseBenchArgs, type BenchArgs } from './args.js';
import { createExplainer, type Explainer } from './explain.js';
import { combineLoads, percentile, runLoad, type LoadResult } from './load.js';
import { cpuMs, freePort, spawnChild, waitIdle, type Child } from './processes.js';
import { summarizeProfile } from './profile.js';
import { Prng } from './prng.js';
import { preciseNow, startReceiver, type Receiver } from './receiver.js';
import { computeTargets, renderReport, type RunReport, type ScenarioResult } from './report.js';
import {
  byIdScenarios,
  dealBody,
  listSearchScenarios,
  panelScenarios,
  spreadByIdScenario,
  vehicleScenarios,
  writeScenarios,
  type HttpScenario,
  type RequestBudget,
} from './scenarios.js';
import { afterBulkLoad, seedTeam, type SeededTeam } from './seed.js';

/** Why a run with plan limits on ended before its duration, if it did. */
function budgetNote(budget: RequestBudget | undefined, load: LoadResult): string | undefined {
  return budget?.spent ? `stopped after ${load.durationS.toFixed(1)} s: every team had used 90% of its plan's requests per minute` : undefined;
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** A scenario whose single request takes longer than this is measured with one connection. */
const SLOW_PROBE_MS = 1500;
const DEAL_EVENTS = ['deal.created', 'deal.updated', 'deal.phase_changed', 'deal.won', 'deal.lost'];

interface ServerOptions {
  rateLimits: boolean;
  worker: boolean;
  redisUrl?: string;
  pollMs?: number;
  concurrency?: number;
  /** Extra environment of the server (e.g. AUTH_CACHE=off for an A/B in the same run). */
  env?: Record<string, string>;
}

const T0 = performance.now();
const say = (line: string) => process.stdout.write(`[${((performance.now() - T0) / 1000).toFixed(1).padStart(6)}s] ${line}\n`);
const print = (text: string) => process.stdout.write(`${text}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const slug = (s: string) =>
  s
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();

class Bench {
  readonly args: BenchArgs;
  readonly prng: Prng;
  readonly report: RunReport;
  readonly tmp: string;
  readonly logDir: string;
  readonly profileDir: string;
  dbUrl = '';
  db!: Db;
  receiver!: Receiver;
  explainer: Explainer | null = null;
  teams: SeededTeam[] = [];
  large!: SeededTeam;
  private cleanups: Array<() => Promise<void> | void> = [];
  private children = new Set<Child>();
  private redisChild: ChildProcess | null = null;
  private currentScenario = '';

  constructor(args: BenchArgs) {
    this.args = args;
    this.prng = new Prng(`${args.seed}:load`);
    this.tmp = mkdtempSync(join(os.tmpdir(), 'autosales-bench-'));
    this.logDir = join(this.tmp, 'logs');
    mkdirSync(this.logDir);
    const day = new Date().toISOString().slice(0, 10);
    const dialect = args.db.startsWith('postgres') ? 'postgres' : 'sqlite';
    this.profileDir = resolve(ROOT, args.out, 'profiles', `${dialect}-${day}`);
    this.report = {
      args,
      dialect,
      dbVersion: '',
      startedAt: new Date().toISOString(),
      finishedAt: '',
      machine: {
        cpus: os.cpus().length,
        model: os.cpus()[0]?.model.trim() ?? '?',
        node: process.version,
        memGb: os.totalmem() / 2 ** 30,
        loadStart: os.loadavg(),
        loadEnd: [],
        kernel: `${os.type()} ${os.release()}`,
      },
      git: gitDescription(),
      seeding: [],
      maintenance: [],
      ceiling: [],
      results: [],
      servers: [],
      problems: [],
      notes: [],
    };
  }

  // ---------- database ----------

  async openDatabase(): Promise<void> {
    const { args } = this;
    if (this.report.dialect === 'sqlite') {
      if (args.db === 'sqlite') this.dbUrl = `sqlite:${join(this.tmp, 'bench.db')}`;
      else {
        const path = args.db.replace(/^sqlite:/, '');
        if (existsSync(path)) throw new Error(`--db ${args.db}: the file exists; the benchmark only writes a fresh database`);
        this.dbUrl = `sqlite:${path}`;
      }
      if (!args.keepDb) this.cleanups.push(() => rmSync(this.dbUrl.slice(7), { force: true }));
    } else {
      // A schema of its own in the given database, dropped at the end: the run never touches other tables.
      const schema = `autosales_bench_${Date.now().toString(36)}_${process.pid}`;
      const admin = createDb(args.db, { poolMax: 1 });
      await sql`create schema ${sql.id(schema)}`.execute(admin.kysely);
      await admin.close();
      const url = new URL(args.db);
      url.searchParams.set('options', `-c search_path=${schema}`);
      this.dbUrl = url.toString();
      if (!args.keepDb) {
        this.cleanups.push(async () => {
          const dropper = createDb(args.db, { poolMax: 1 });
          await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(dropper.kysely);
          await dropper.close();
        });
      } else this.report.notes.push(`Database kept: schema ${schema}`);
    }
    this.db = createDb(this.dbUrl, { poolMax: 4 });
    await migrateToLatest(this.db);
    const version =
      this.db.dialect === 'sqlite'
        ? await sql<{ v: string }>`select sqlite_version() as v`.execute(this.db.kysely)
        : await sql<{ v: string }>`show server_version`
            .execute(this.db.kysely)
            .then((r) => ({ rows: r.rows.map((x) => ({ v: (x as unknown as { server_version: string }).server_version })) }));
    this.report.dbVersion = version.rows[0]?.v ?? '?';
  }

  async seedMain(): Promise<void> {
    const { args } = this;
    say(`== seeding: ${args.teams} teams (large: ${args.large} deals + ${args.large} clients; others: ${args.others} each), seed '${args.seed}'`);
    const t0 = performance.now();
    this.large = await seedTeam(this.db, args.seed, { label: 'grande', deals: args.large, clients: args.large, vehicles: args.large });
    const largeMs = performance.now() - t0;
    say(
      `   large team: ${(largeMs / 1000).toFixed(1)} s (clients ${(this.large.clientsMs / 1000).toFixed(1)} s, deals ${(this.large.dealsMs / 1000).toFixed(1)} s, vehicles ${(this.large.vehiclesMs / 1000).toFixed(1)} s)`,
    );
    this.teams = [this.large];
    const t1 = performance.now();
    for (let i = 1; i < args.teams; i++) {
      this.teams.push(await seedTeam(this.db, args.seed, { label: `loja-${String(i).padStart(3, '0')}`, deals: args.others, clients: args.others }));
    }
    const othersMs = performance.now() - t1;
    say(`   ${args.teams - 1} other teams: ${(othersMs / 1000).toFixed(1)} s`);
    this.report.seeding.push({ label: `large team (${args.large.toLocaleString('en-US')})`, teams: 1, clients: args.large, deals: args.large, ms: largeMs });
    this.report.seeding.push({
      label: 'other teams',
      teams: args.teams - 1,
      clients: args.others * (args.teams - 1),
      deals: args.others * (args.teams - 1),
      ms: othersMs,
    });
    const t2 = performance.now();
    await afterBulkLoad(this.db);
    this.report.maintenance.push({
      label: this.db.dialect === 'postgres' ? 'VACUUM ANALYZE after the load' : 'WAL checkpoint after the load',
      ms: performance.now() - t2,
    });
    this.report.seeding.push({
      label: 'main data set, total',
      teams: args.teams,
      clients: args.large + args.others * (args.teams - 1),
      deals: args.large + args.others * (args.teams - 1),
      ms: performance.now() - t0,
    });
  }

  // ---------- processes ----------

  private profileDirFor(name: string): string {
    return join(this.profileDir, slug(name));
  }

  async startServer(name: string, options: ServerOptions): Promise<Child> {
    const port = await freePort();
    const env: Record<string, string> = {
      DATABASE_URL: this.dbUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      LOG_LEVEL: this.args.logLevel,
      RATE_LIMITS: options.rateLimits ? 'on' : 'off',
      WEBHOOK_WORKER: options.worker ? 'on' : 'off',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      NODE_EXTRA_CA_CERTS: this.receiver.caFile,
    };
    if (options.redisUrl) env.REDIS_URL = options.redisUrl;
    if (options.pollMs !== undefined) env.WEBHOOK_POLL_MS = String(options.pollMs);
    if (options.concurrency !== undefined) env.WEBHOOK_CONCURRENCY = String(options.concurrency);
    Object.assign(env, options.env);
    let nodeFlags: string[] = [];
    if (this.args.cpuProf) {
      const dir = this.profileDirFor(name);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      nodeFlags = ['--cpu-prof', `--cpu-prof-dir=${dir}`];
    }
    const child = await spawnChild({
      name: slug(name),
      args: ['bin/autosales.js', 'serve'],
      env,
      readyPath: '/ready',
      logDir: this.logDir,
      cwd: ROOT,
      nodeFlags,
      port,
    });
    this.children.add(child);
    return child;
  }

  async stopServer(child: Child, name: string, profiled?: ScenarioResult): Promise<void> {
    await child.stop();
    this.children.delete(child);
    this.report.servers.push({ name, rssMb: child.finalRssMb });
    if (this.args.cpuProf && profiled) {
      const dir = this.profileDirFor(name);
      const file = existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith('.cpuprofile')) : undefined;
      if (file) profiled.profile = summarizeProfile(join(dir, file));
    }
  }

  async startCeiling(): Promise<Child> {
    const sample = await findDeal(this.db.kysely, this.large.id, this.large.samples.dealIds[0]!);
    const dealFile = join(this.tmp, 'ceiling-deal.json');
    writeFileSync(dealFile, JSON.stringify(toDealView(sample!)));
    // The same page the default list scenario answers (the list ceiling serves it as static JSON).
    const pageFile = join(this.tmp, 'ceiling-page.json');
    writeFileSync(pageFile, JSON.stringify(await createServices(this.db).deals.list(this.large.id, {})));
    const port = await freePort();
    const child = await spawnChild({
      name: `ceiling-${this.report.ceiling.length + 1}`,
      args: [join(ROOT, 'dist-bench/bench/ceiling-server.js'), String(port), dealFile, pageFile],
      env: {},
      readyPath: '/health',
      logDir: this.logDir,
      cwd: ROOT,
      port,
    });
    this.children.add(child);
    return child;
  }

  /** Both ceilings on one bare server: one deal by id, then the default list's first page. */
  async measureCeiling(): Promise<void> {
    const child = await this.startCeiling();
    const ids = this.large.samples.dealIds;
    const measure = async (next: () => { method: 'GET'; path: string }) => {
      const spec = { baseUrl: child.url, connections: this.args.connections, headers: {}, next };
      if (this.args.warmup > 0) await runLoad({ ...spec, duration: this.args.warmup });
      return runLoad({ ...spec, duration: this.args.duration });
    };
    const result = await measure(() => ({ method: 'GET', path: `/api/v1/deals/${ids[Math.floor(this.prng.next() * ids.length)]}` }));
    this.report.ceiling.push(result);
    say(`   ceiling #${this.report.ceiling.length}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms`);
    const page = await measure(() => ({ method: 'GET', path: '/api/v1/deals' }));
    (this.report.listCeiling ??= []).push(page);
    say(`   list-page ceiling #${this.report.listCeiling.length}: ${page.rps.toFixed(0)} req/s, p50 ${page.p50.toFixed(2)} ms, p99 ${page.p99.toFixed(2)} ms`);
    await child.stop();
    this.children.delete(child);
  }

  // ---------- scenarios ----------

  async measure(server: Child, sc: HttpScenario, overrides: { duration?: number; warmup?: number } = {}): Promise<ScenarioResult> {
    this.currentScenario = sc.title;
    const duration = overrides.duration ?? this.args.duration;
    const warmup = overrides.warmup ?? this.args.warmup;
    const budget = sc.budget;
    const spec = { baseUrl: server.url, connections: this.args.connections, headers: sc.headers, next: sc.next, stopWhen: budget && (() => budget.spent) };
    const idle = async () => {
      const waited = await this.waitIdle(server);
      if (waited > 3000) say(`   (waited ${(waited / 1000).toFixed(1)} s for the server to finish requests left over by the previous run)`);
    };
    await idle();
    // A probe: when one request alone takes seconds, ten concurrent ones only pile up a backlog
    // (SQLite runs them one after another); measure that scenario with one connection instead.
    const probe = await this.probe(server, sc);
    if (probe > SLOW_PROBE_MS) {
      await idle();
      const load1 = os.loadavg()[0];
      const load = await runLoad({ ...spec, connections: 1, duration: Math.max(duration, (3 * probe) / 1000) });
      await idle();
      const result: ScenarioResult = {
        id: sc.id,
        title: sc.title,
        group: sc.group,
        teamSize: sc.teamSize,
        load,
        oneConnection: true,
        load1,
        note: [`one request took ${(probe / 1000).toFixed(1)} s alone: measured with 1 connection only (a lower bound for ${this.args.connections})`, sc.note]
          .filter(Boolean)
          .join('; '),
      };
      say(
        `   ${sc.title.padEnd(62)} ${load.rps.toFixed(1).padStart(6)} req/s  p50 ${load.p50.toFixed(0).padStart(7)}  p99 ${load.p99.toFixed(0).padStart(7)} ms  (1 connection: one request takes ${(probe / 1000).toFixed(1)} s)`,
      );
      return result;
    }
    if (warmup > 0) {
      await runLoad({ ...spec, duration: warmup, stopWhen: budget && (() => budget.warm) });
      // (The smoke's tiny data set leaves nothing behind worth waiting for.)
      if (!this.args.smoke) await idle();
    }
    const load1 = os.loadavg()[0];
    const cpu0 = cpuMs(server.pid);
    const t0 = performance.now();
    const load = await runLoad({ ...spec, duration });
    const wall = performance.now() - t0;
    const cpu1 = cpuMs(server.pid);
    const stoppedEarly = budgetNote(budget, load);
    const result: ScenarioResult = {
      id: sc.id,
      title: sc.title,
      group: sc.group,
      teamSize: sc.teamSize,
      load,
      load1,
      note: [sc.note, stoppedEarly].filter(Boolean).join('; ') || undefined,
    };
    if (cpu0 !== null && cpu1 !== null) result.serverCpuPct = (100 * (cpu1 - cpu0)) / wall;
    if (sc.single && !this.args.smoke) {
      await idle();
      result.single = await runLoad({ ...spec, connections: 1, duration: Math.max(2, Math.min(5, duration / 2)) });
    }
    // Statements are explained next: on an idle server.
    if (sc.explain && !this.args.smoke) await idle();
    // Slow answers are a finding, not a harness failure; error statuses and refused connections are.
    const bad = load.non2xx + load.errors + load.timeouts;
    if (load.non2xx + load.errors - load.timeouts > 0)
      this.report.problems.push(
        `${sc.title} @ ${sc.teamSize}: ${load.non2xx} non-2xx, ${load.errors - load.timeouts} connection errors (${JSON.stringify(load.statusCodes)})`,
      );
    if (load.noneCompleted)
      this.report.notes.push(
        `${sc.title} @ ${sc.teamSize}: no request completed within the ${duration} s run; its latencies are shown as the run's length (a lower bound)`,
      );
    say(
      `   ${sc.title.padEnd(62)} ${load.rps.toFixed(0).padStart(6)} req/s  p50 ${load.noneCompleted ? '>' : ' '}${load.p50.toFixed(1).padStart(6)}  p99 ${load.p99.toFixed(1).padStart(6)}  max ${load.max.toFixed(0).padStart(5)} ms  cpu ${result.serverCpuPct?.toFixed(0) ?? '?'}%${bad ? `  ${bad} BAD` : ''}${result.single ? `  | 1 conn p50 ${result.single.p50.toFixed(1)} p99 ${result.single.p99.toFixed(1)}` : ''}`,
    );
    return result;
  }

  /** Wall time of one request of the scenario, alone. */
  async probe(server: Child, sc: HttpScenario): Promise<number> {
    const next = sc.next();
    const t = performance.now();
    const res = await fetch(`${server.url}${next.path}`, {
      method: next.method,
      headers: { ...sc.headers, ...(next.body === undefined ? {} : { 'content-type': 'application/json' }), ...next.headers },
      body: next.body,
    });
    await res.arrayBuffer();
    return performance.now() - t;
  }

  /** Until the server process is idle and, on PostgreSQL, no statement of ours is still running. */
  async waitIdle(server: Child): Promise<number> {
    const t0 = Date.now();
    await waitIdle(server.pid);
    if (this.db.dialect === 'postgres') {
      for (;;) {
        const { rows } = await sql<{
          n: number;
        }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`.execute(
          this.db.kysely,
        );
        if ((rows[0]?.n ?? 0) === 0 || Date.now() - t0 > 120_000) break;
        await sleep(250);
      }
    }
    return Date.now() - t0;
  }

  /** Runs scenarios on one server, or (with --cpu-prof) on a fresh profiled server each. */
  async runScenarios(
    serverName: string,
    options: ServerOptions,
    scenarios: HttpScenario[],
    after?: (sc: HttpScenario, result: ScenarioResult) => Promise<void>,
    overrides?: { duration?: number; warmup?: number },
  ): Promise<ScenarioResult[]> {
    const out: ScenarioResult[] = [];
    if (this.args.cpuProf) {
      for (const sc of scenarios) {
        const name = `${serverName}: ${sc.id}@${sc.teamSize}`;
        const server = await this.startServer(name, options);
        const result = await this.measure(server, sc, overrides);
        await this.stopServer(server, name, result);
        out.push(result);
        this.report.results.push(result);
        await after?.(sc, result);
      }
      return out;
    }
    const server = await this.startServer(serverName, options);
    try {
      for (const sc of scenarios) {
        const result = await this.measure(server, sc, overrides);
        out.push(result);
        this.report.results.push(result);
        await after?.(sc, result);
      }
    } finally {
      await this.stopServer(server, serverName);
    }
    return out;
  }

  /** Limiter cost: the spread by-id load with plan limits on, in memory and (when available) in Redis. */
  async limiterScenarios(duration: number, warmup: number): Promise<void> {
    say('== limiter cost (plan limits on, memory store)');
    // Each run starts a server: the memory store's windows start over.
    await this.runScenarios('serve (limiter: memory)', { rateLimits: true, worker: false }, [spreadByIdScenario(this.teams, this.prng, 'memory')], undefined, {
      duration,
      warmup,
    });
    const redisUrl = await this.redisUrl();
    if (redisUrl) {
      say(`== limiter cost (plan limits on, Redis store at ${redisUrl})`);
      await this.resetRedisCounters(redisUrl);
      await this.runScenarios(
        'serve (limiter: Redis)',
        { rateLimits: true, worker: false, redisUrl },
        [spreadByIdScenario(this.teams, this.prng, 'redis')],
        undefined,
        { duration, warmup },
      );
    }
  }

  /**
   * Scaling out (issue 15 point 3): the spread by-id load with plan limits in Redis, on one server
   * process and then on two behind the same database (the connections split between them: the
   * same offered concurrency). Needs Redis: limits must be shared between the processes.
   */
  async scaleOutScenarios(duration: number, warmup: number): Promise<void> {
    const redisUrl = await this.redisUrl();
    if (!redisUrl) return;
    const options: ServerOptions = { rateLimits: true, worker: false, redisUrl };
    const scenario = spreadByIdScenario(this.teams, this.prng, 'redis');
    for (const processes of [1, 2]) {
      say(`== scaling out: ${processes} server process${processes > 1 ? 'es' : ''}, plan limits in Redis`);
      await this.resetRedisCounters(redisUrl);
      scenario.budget?.reset();
      const servers: Array<{ child: Child; name: string }> = [];
      for (let i = 1; i <= processes; i++) {
        const name = `serve (scale-out ${i} of ${processes})`;
        servers.push({ child: await this.startServer(name, options), name });
      }
      try {
        const share = Math.max(1, Math.floor(this.args.connections / processes));
        const { budget } = scenario;
        const stopWhen = budget && (() => budget.spent);
        const specs = servers.map(({ child }) => ({ baseUrl: child.url, connections: share, headers: scenario.headers, next: scenario.next, stopWhen }));
        const warm = budget && (() => budget.warm);
        if (warmup > 0) await Promise.all(specs.map((spec) => runLoad({ ...spec, duration: warmup, stopWhen: warm })));
        for (const { child } of servers) await this.waitIdle(child);
        await this.resetRedisCounters(redisUrl);
        scenario.budget?.reset();
        const load1 = os.loadavg()[0];
        const cpu0 = servers.map(({ child }) => cpuMs(child.pid));
        const t0 = performance.now();
        const loads = await Promise.all(specs.map((spec) => runLoad({ ...spec, duration })));
        const wall = performance.now() - t0;
        const cpu = servers.map(({ child }, i) => {
          const end = cpuMs(child.pid);
          return end === null || cpu0[i] === null ? null : (100 * (end - cpu0[i]!)) / wall;
        });
        const load = combineLoads(loads);
        const result: ScenarioResult = {
          id: `scale-out-${processes}`,
          title: `${scenario.title}, ${processes} server process${processes > 1 ? 'es' : ''}`,
          group: 'scale-out',
          teamSize: scenario.teamSize,
          load,
          load1,
          note: [
            `${this.args.connections} connections split over ${processes} process(es); server CPU per process: ${cpu.map((c) => (c === null ? '?' : `${c.toFixed(0)}%`)).join(', ')}`,
            budgetNote(budget, load),
          ]
            .filter(Boolean)
            .join('; '),
        };
        if (cpu.every((c) => c !== null)) result.serverCpuPct = cpu.reduce((a: number, b) => a + (b ?? 0), 0);
        if (load.non2xx + load.errors > 0)
          this.report.problems.push(`${result.title}: ${load.non2xx} non-2xx, ${load.errors} connection errors (${JSON.stringify(load.statusCodes)})`);
        this.report.results.push(result);
        say(
          `   ${result.title}: ${load.rps.toFixed(0)} req/s, p50 ${load.p50.toFixed(1)}, p99 ${load.p99.toFixed(1)} ms, server CPU ${cpu.map((c) => c?.toFixed(0)).join(' + ')}%`,
        );
      } finally {
        for (const { child, name } of servers) await this.stopServer(child, name);
      }
    }
  }

  async explainInto(sc: HttpScenario, result: ScenarioResult): Promise<void> {
    if (!sc.explain) return;
    this.explainer ??= createExplainer(this.dbUrl);
    try {
      result.statements = await this.explainer.explain(sc.explain);
    } catch (error) {
      this.report.notes.push(`EXPLAIN of ${sc.title} failed: ${(error as Error).message}`);
    }
  }

  // ---------- Redis ----------

  async redisUrl(): Promise<string | null> {
    if (!this.args.redis) return null;
    if (await redisAnswers(this.args.redis)) return this.args.redis;
    try {
      execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    } catch {
      this.report.notes.push(`Redis at ${this.args.redis} does not answer and no redis-server is installed: the Redis limiter run is skipped`);
      return null;
    }
    const port = await freePort();
    this.redisChild = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const url = `redis://127.0.0.1:${port}`;
    for (let i = 0; i < 50 && !(await redisAnswers(url)); i++) await sleep(100);
    this.report.notes.push(`Redis at ${this.args.redis} did not answer: a private redis-server was started on port ${port}`);
    return url;
  }

  /** Forgets the limiter counters of our teams (only their keys: autosales:rl:<plan>:<window>:<team id>). */
  async resetRedisCounters(url: string): Promise<void> {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    const keys = this.teams.flatMap((t) =>
      ['starter', 'professional', 'autoshopping'].flatMap((plan) => ['minute', 'day'].map((w) => `autosales:rl:${plan}:${w}:${t.id}`)),
    );
    for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
    redis.disconnect();
  }

  // ---------- webhooks ----------

  async webhookScenarios(): Promise<void> {
    const k = this.db.kysely;
    const { args } = this;
    const now = () => new Date().toISOString();
    const pendingCount = async () =>
      Number(
        (
          await k
            .selectFrom('deliveries')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('status', '=', 'pending')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const backlog = await pendingCount();
    const target = Math.min(args.smoke ? backlog : Math.floor(backlog / 2), args.smoke ? 100 : Math.max(200, Math.round(args.duration * 600)));
    // Keep the oldest `target` deliveries due; the rest are set aside (failed, 0 attempts) so the run stays bounded.
    const setAside = async (keep: number) => {
      const kept = k.selectFrom('deliveries').select('id').where('status', '=', 'pending').orderBy('next_attempt_at').orderBy('id').limit(keep);
      await k
        .updateTable('deliveries')
        .set({ status: 'failed', completed_at: now(), next_attempt_at: null })
        .where('status', '=', 'pending')
        .where('id', 'not in', kept)
        .execute();
    };
    await setAside(target);
    say(`== webhook delivery: ${backlog} deliveries queued by the write scenarios, draining ${target} with the worker in the server`);

    const measureDrain = async (
      name: string,
      options: ServerOptions,
      concurrency: string,
      id: string,
      title: string,
      latencyId: string,
      latencyTitle: string,
      pollLabel: string,
    ) => {
      // Counted from before the start: the worker begins delivering while the server is still being polled for readiness.
      const a0 = this.receiver.arrivals.length;
      const server = await this.startServer(name, options);
      const result: ScenarioResult = { id, title, group: 'webhook', teamSize: this.large.deals, load1: os.loadavg()[0] };
      const latencyResult: ScenarioResult = { id: latencyId, title: latencyTitle, group: 'webhook', teamSize: this.large.deals };
      try {
        const cpu0 = cpuMs(server.pid);
        const t0 = performance.now();
        // Bounded in time: the rate is taken over what arrived (first to last arrival).
        const windowMs = args.smoke ? 15_000 : Math.max(30_000, args.duration * 3_000);
        await this.receiver.waitFor(a0 + target, windowMs);
        const wall = performance.now() - t0;
        const cpu1 = cpuMs(server.pid);
        const got = this.receiver.arrivals.slice(a0);
        const span = got.length > 1 ? got[got.length - 1]!.at - got[0]!.at : NaN;
        const perSecond = got.length > 1 ? ((got.length - 1) * 1000) / span : 0;
        result.deliveries = { count: got.length, perSecond, backlog, concurrency };
        if (cpu0 !== null && cpu1 !== null) result.serverCpuPct = (100 * (cpu1 - cpu0)) / wall;
        if (got.length < target)
          this.report.notes.push(
            `${title}: ${got.length} of the ${target} deliveries set aside for the measurement arrived within its ${(windowMs / 1000).toFixed(0)} s window`,
          );
        if (got.length < 2) this.report.problems.push(`${title}: ${got.length} deliveries arrived`);
        say(`   ${title}: ${got.length} in ${(span / 1000).toFixed(1)} s = ${perSecond.toFixed(0)}/s (server CPU ${result.serverCpuPct?.toFixed(0)}%)`);
        // Idle queue: set aside whatever is left, then wait for the receiver to go quiet.
        await setAside(0);
        await this.receiver.quiet(1000, 20_000);
        latencyResult.load1 = os.loadavg()[0];
        latencyResult.latency = { ...(await this.commitToReceipt(server, args.latencySamples)), pollMs: pollLabel };
        say(
          `   ${latencyTitle}: p50 ${latencyResult.latency.p50.toFixed(1)} ms, p99 ${latencyResult.latency.p99.toFixed(1)} ms over ${latencyResult.latency.samples}`,
        );
      } finally {
        await this.stopServer(server, name, result);
      }
      this.report.results.push(result, latencyResult);
    };

    await measureDrain(
      'serve, worker on (deliveries)',
      { rateLimits: false, worker: true },
      'WEBHOOK_CONCURRENCY=8 (default)',
      'webhook-throughput',
      'Webhook deliveries to a local HTTPS receiver',
      'webhook-latency',
      'Commit-to-receipt latency, idle queue',
      'WEBHOOK_POLL_MS=500 (default)',
    );
    const failed = await k
      .selectFrom('delivery_attempts')
      .select(['error_class', 'status_code', (eb) => eb.fn.countAll<number>().as('n')])
      .where((eb) => eb.or([eb('error_class', 'is not', null), eb('status_code', '>=', 300)]))
      .groupBy(['error_class', 'status_code'])
      .execute();
    if (failed.length)
      this.report.notes.push(`Webhook deliveries: failed attempts ${failed.map((f) => `${f.error_class ?? ''} ${f.status_code ?? ''}: ${f.n}`).join(', ')}`);

    if (!args.smoke) {
      // What-if: more deliveries in flight and a short poll, on another slice of the same backlog (set aside above with 0 attempts).
      const requeue = k
        .selectFrom('deliveries')
        .select('id')
        .where('status', '=', 'failed')
        .where('attempts', '=', 0)
        .orderBy('created_at')
        .orderBy('id')
        .limit(target);
      await k.updateTable('deliveries').set({ status: 'pending', completed_at: null, next_attempt_at: now() }).where('id', 'in', requeue).execute();
      await this.receiver.quiet(500, 5_000);
      await measureDrain(
        'serve, worker on, WEBHOOK_CONCURRENCY=32, WEBHOOK_POLL_MS=25',
        { rateLimits: false, worker: true, pollMs: 25, concurrency: 32 },
        'WEBHOOK_CONCURRENCY=32 (what-if)',
        'webhook-throughput-c32',
        'Webhook deliveries, WEBHOOK_CONCURRENCY=32 (what-if)',
        'webhook-latency-poll-25',
        'Commit-to-receipt latency, idle queue, WEBHOOK_POLL_MS=25 (what-if)',
        'WEBHOOK_POLL_MS=25',
      );
    }
  }

  /** Sequential POST /deals with random gaps; latency = receipt at the receiver − arrival of the 201 at the client. */
  async commitToReceipt(server: Child, samples: number): Promise<{ samples: number; missing: number; p50: number; p90: number; p99: number; max: number }> {
    const sent = new Map<string, number>();
    const headers = { authorization: `Bearer ${this.large.key}`, 'content-type': 'application/json' };
    for (let i = 0; i < samples; i++) {
      await sleep(20 + Math.floor(this.prng.next() * 100));
      const res = await fetch(`${server.url}/api/v1/deals`, { method: 'POST', headers, body: dealBody(this.large, this.prng) });
      const at = preciseNow();
      const body = (await res.json()) as { data?: { id: string } };
      if (res.status !== 201 || !body.data) {
        this.report.problems.push(`commit-to-receipt: POST /deals answered ${res.status}`);
        continue;
      }
      sent.set(body.data.id, at);
    }
    const deadline = Date.now() + 20_000;
    const arrivedFor = () => this.receiver.arrivals.filter((a) => a.eventType === 'deal.created' && a.objectId !== null && sent.has(a.objectId));
    while (arrivedFor().length < sent.size && Date.now() < deadline) await sleep(50);
    const latencies = arrivedFor()
      .map((a) => a.at - sent.get(a.objectId!)!)
      .sort((a, b) => a - b);
    const missing = sent.size - latencies.length;
    if (missing) this.report.problems.push(`commit-to-receipt: ${missing} of ${sent.size} deliveries did not arrive within 20 s`);
    return {
      samples: latencies.length,
      missing,
      p50: percentile(latencies, 50),
      p90: percentile(latencies, 90),
      p99: percentile(latencies, 99),
      max: latencies[latencies.length - 1] ?? NaN,
    };
  }

  // ---------- the run ----------

  async run(): Promise<number> {
    const { args } = this;
    say(
      `== autosales benchmark: ${this.report.dialect}${args.smoke ? ' (smoke)' : ''}, ${os.cpus().length} CPUs, Node ${process.version}, load average ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
    );
    await this.openDatabase();
    this.receiver = await startReceiver();
    this.cleanups.push(() => this.receiver.close());
    await this.seedMain();
    if (args.seedOnly) {
      say(`seeded: DATABASE_URL='${this.dbUrl}'`);
      say(`large team ${this.large.id}, API key ${this.large.key}`);
      return 0;
    }

    const { webhooks, users, sessions } = createServices(this.db, { allowPrivateWebhookTargets: true });
    await webhooks.create({ teamId: this.large.id, url: this.receiver.url, events: DEAL_EVENTS });
    // The panel's scenarios run signed in as an owner of the large team (a session made by the service, no password).
    const { user } = await users.create({ teamId: this.large.id, email: 'dono@bench.example', name: 'Dono da Loja', role: 'owner' });
    const panelCookie = `${SESSION_COOKIE}=${(await sessions.create(user.id)).token}`;

    say('== ceiling: bare Fastify, one static deal JSON and one static list page');
    await this.measureCeiling();

    say(`== scenarios on the large team (${this.large.deals.toLocaleString('en-US')} deals), RATE_LIMITS=off, worker off`);
    const section = (word: string) => !args.only || args.only.test(word);
    const main: HttpScenario[] = [
      ...byIdScenarios(this.large, this.prng),
      ...listSearchScenarios(this.large, this.prng),
      ...vehicleScenarios(this.large, this.prng),
      ...panelScenarios(this.large, panelCookie, this.prng),
      spreadByIdScenario(this.teams, this.prng, 'off'),
      ...writeScenarios(this.large, this.prng),
    ].filter((sc) => !args.only || args.only.test(sc.id));
    const results = await this.runScenarios('serve (main)', { rateLimits: false, worker: false }, main, (sc, r) => this.explainInto(sc, r));

    // A/B in the same run: the by-id reads on a server started with one setting changed.
    const variants: { suffix: string; label: string; say: string; env: Record<string, string> }[] = [
      // Every key looked up in the database (as before issue 15).
      { suffix: 'auth-cache-off', label: 'AUTH_CACHE=off', say: 'every request looks its key up', env: { AUTH_CACHE: 'off' } },
      // No access-log line per request: what writing that line costs.
      { suffix: 'log-warn', label: 'LOG_LEVEL=warn', say: 'no access-log line per request', env: { LOG_LEVEL: 'warn' } },
    ];
    for (const variant of variants.filter((v) => args.only?.test(v.suffix))) {
      say(`== by-id reads with ${variant.label} (${variant.say})`);
      const before = [...byIdScenarios(this.large, this.prng), spreadByIdScenario(this.teams, this.prng, 'off')].map((sc) => ({
        ...sc,
        id: `${sc.id}-${variant.suffix}`,
        title: `${sc.title}, ${variant.label}`,
      }));
      await this.runScenarios(`serve (${variant.label})`, { rateLimits: false, worker: false, env: variant.env }, before);
    }

    // A/B in the same run: the writes with one transaction per request (as before group commit, issue 15).
    if (this.db.dialect === 'sqlite' && args.only?.test('group-commit-off')) {
      say('== writes with SQLITE_GROUP_COMMIT=off (one transaction and one COMMIT per request)');
      const before = writeScenarios(this.large, this.prng)
        .filter((sc) => args.only!.test(sc.id))
        .map((sc) => ({
          ...sc,
          id: `${sc.id}-group-commit-off`,
          title: `${sc.title}, SQLITE_GROUP_COMMIT=off`,
        }));
      await this.runScenarios('serve (SQLITE_GROUP_COMMIT=off)', { rateLimits: false, worker: false, env: { SQLITE_GROUP_COMMIT: 'off' } }, before);
    }

    // Limiter cost: the same spread load with plan limits on. Keep every team under 1,000 requests a
    // minute: runs are shortened from the unlimited rate, and the scenario's budget stops a run that
    // would still go over it (a faster machine than the estimate).
    const off = results.find((r) => r.id === 'by-id-teams-off')?.load?.rps ?? 0;
    let limiterDuration = args.duration;
    let limiterWarmup = args.warmup;
    const budget = 900 * this.teams.length;
    if (off * (args.duration + args.warmup) * 1.2 > budget) {
      limiterWarmup = Math.min(args.warmup, 1);
      limiterDuration = Math.max(1, budget / (off * 1.2) - limiterWarmup);
      this.report.notes.push(
        `Limiter runs shortened to ${limiterDuration.toFixed(1)} s (+${limiterWarmup} s warm-up) so no team exceeds 1,000 requests in its minute window at ~${off.toFixed(0)} req/s over ${this.teams.length} teams`,
      );
    }
    if (section('limiter')) await this.limiterScenarios(limiterDuration, limiterWarmup);
    if (section('scale-out')) await this.scaleOutScenarios(limiterDuration, limiterWarmup);
    if (section('webhooks')) await this.webhookScenarios();

    say('== ceiling again');
    await this.measureCeiling();

    for (const size of section('scaling') ? args.scales : []) {
      if (size === args.large) continue;
      say(`== scaling: a team with ${size.toLocaleString('en-US')} deals and ${size.toLocaleString('en-US')} clients`);
      const t0 = performance.now();
      const team = await seedTeam(this.db, args.seed, { label: `escala-${size}`, deals: size, clients: size });
      const seedMs = performance.now() - t0;
      this.report.seeding.push({ label: `scaling team (${size.toLocaleString('en-US')})`, teams: 1, clients: size, deals: size, ms: seedMs });
      say(`   seeded in ${(seedMs / 1000).toFixed(1)} s`);
      const t1 = performance.now();
      await afterBulkLoad(this.db);
      this.report.maintenance.push({ label: `maintenance after the ${size.toLocaleString('en-US')} team`, ms: performance.now() - t1 });
      // The smoke explains once (main data set) to stay short.
      await this.runScenarios(
        `serve (scale ${size})`,
        { rateLimits: false, worker: false },
        listSearchScenarios(team, this.prng),
        args.smoke ? undefined : (sc, r) => this.explainInto(sc, r),
      );
    }
    // Keep the result order readable: main scenarios, then scaling by size.
    return 0;
  }

  finish(): { file: string; exit: number } {
    if (this.args.seedOnly) {
      this.report.finishedAt = new Date().toISOString();
      return { file: '', exit: 0 };
    }
    this.report.finishedAt = new Date().toISOString();
    this.report.machine.loadEnd = os.loadavg();
    if (this.report.dialect === 'sqlite')
      this.report.notes.push('SQLite: the service never runs ANALYZE, so the bench does not either (plans are the ones a production file gets).');
    else this.report.notes.push('PostgreSQL: VACUUM ANALYZE after each bulk load (what autovacuum does shortly after such a load in production).');
    this.report.notes.push('Write scenarios run after the read, list and search scenarios, so those saw exactly the seeded data.');
    const targets = computeTargets(this.report);
    const markdown = renderReport(this.report, targets);
    const outDir = resolve(ROOT, this.args.out);
    mkdirSync(outDir, { recursive: true });
    const base = `${this.report.dialect}-${this.report.startedAt.slice(0, 10)}${this.args.smoke ? '-smoke' : ''}`;
    const file = join(outDir, `${base}.md`);
    writeFileSync(file, markdown);
    writeFileSync(join(outDir, `${base}.json`), JSON.stringify({ ...this.report, targets }, null, 1));
    print('');
    print(markdown);
    print(`Report written to ${file}`);
    return { file, exit: this.report.problems.length ? 1 : 0 };
  }

  async cleanup(): Promise<void> {
    for (const child of this.children) await child.stop().catch(() => undefined);
    this.children.clear();
    await this.explainer?.close().catch(() => undefined);
    await this.db?.close().catch(() => undefined);
    for (const fn of this.cleanups.reverse()) await Promise.resolve(fn()).catch((e: unknown) => say(`cleanup: ${(e as Error).message}`));
    this.redisChild?.kill('SIGKILL');
    // Server logs stay for a look when something went wrong.
    if (this.args.keepDb && this.report.dialect === 'sqlite' && this.args.db === 'sqlite') say(`database and logs kept in ${this.tmp}`);
    else if (this.report.problems.length || !this.report.finishedAt) say(`server logs kept in ${this.logDir}`);
    else rmSync(this.tmp, { recursive: true, force: true });
  }

  describeFailure(error: unknown): string {
    return `${this.currentScenario ? `during '${this.currentScenario}': ` : ''}${(error as Error)?.stack ?? String(error)}`;
  }
}

async function redisAnswers(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

function gitDescription(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: ROOT, encoding: 'utf8' }).trim();
    return `${head}${dirty ? ` + uncommitted changes in src/ (${dirty.split('\n').length} files)` : ''}`;
  } catch {
    return 'unknown';
  }
}

const args = parseBenchArgs(process.argv.slice(2));
// `--ai`: the win-probability bench alone (bench/ai.ts); the HTTP bench (and the smoke) never runs it.
if (args.ai) process.exit(await runAiBench(args));
const bench = new Bench(args);
let exitCode: number;
const interrupted = () => {
  say('interrupted: stopping child processes');
  void bench.cleanup().finally(() => process.exit(130));
};
process.once('SIGINT', interrupted);
process.once('SIGTERM', interrupted);
try {
  await bench.run();
  exitCode = bench.finish().exit;
} catch (error) {
  process.stderr.write(`bench failed ${bench.describeFailure(error)}\n`);
  exitCode = 1;
} finally {
  await bench.cleanup();
}
process.exit(exitCode);
