// npm run bench -- --ai [--db postgres://…] [--ai-deals 20000] [--ai-sizes 1000,10000,100000]
// The win-probability bench (issue 28, point 6): generated store histories of known truth
// (src/domain/ai/synthetic-histories.ts) written as a team's records, trained as production trains
// (the AI service, on a worker thread with its own connection), then judged on later deals against
// the generator's true probabilities and the phase's suggested probability; a history with no signal;
// and the training time at each size. Writes bench/results/<db>-<date>-ai.md and .json.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { createServices } from '../src/app/services.js';
import { createAiService } from '../src/domain/ai/ai.service.js';
import type { ModelMetrics } from '../src/domain/ai/ai.types.js';
import { scoreMetrics } from '../src/domain/ai/metrics.js';
import { generateHistories, type SyntheticHistory } from '../src/domain/ai/synthetic-histories.js';
import { insertSyntheticHistory } from '../src/domain/ai/synthetic.repository.js';
import { DEFAULT_PHASES } from '../src/domain/teams/teams.service.js';
import { createDb, type Db } from '../src/storage/db.js';
import { migrateToLatest } from '../src/storage/migrator.js';
import { trainingRunner } from '../src/worker/ai-training-thread.js';
import type { BenchArgs } from './args.js';
import { renderAiReport, type AiQuality, type AiReport, type AiTiming, type LoopDelay } from './ai-report.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const WORKER_FILE = fileURLToPath(new URL('../src/worker/ai-training.worker.js', import.meta.url));
const PHASE = new Map(DEFAULT_PHASES.map((p) => [p.name, p.probability / 100]));
const T0 = performance.now();
const say = (line: string) => process.stdout.write(`[${((performance.now() - T0) / 1000).toFixed(1).padStart(6)}s] ${line}\n`);

/** A fresh database: a temporary SQLite file, or a schema of its own in the given PostgreSQL database. */
async function openDatabase(args: BenchArgs, tmp: string): Promise<{ db: Db; url: string; dialect: 'sqlite' | 'postgres'; drop: () => Promise<void> }> {
  if (!args.db.startsWith('postgres')) {
    const url = args.db === 'sqlite' ? `sqlite:${join(tmp, 'ai.db')}` : `sqlite:${args.db.replace(/^sqlite:/, '')}`;
    if (args.db !== 'sqlite' && existsSync(url.slice(7))) throw new Error(`--db ${args.db}: the file exists; the benchmark only writes a fresh database`);
    const db = createDb(url, { poolMax: 4 });
    await migrateToLatest(db);
    return { db, url, dialect: 'sqlite', drop: () => Promise.resolve(args.keepDb ? undefined : rmSync(url.slice(7), { force: true })) };
  }
  const schema = `autosales_bench_ai_${Date.now().toString(36)}_${process.pid}`;
  const admin = createDb(args.db, { poolMax: 1 });
  await sql`create schema ${sql.id(schema)}`.execute(admin.kysely);
  await admin.close();
  const parsed = new URL(args.db);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  const url = parsed.toString();
  const db = createDb(url, { poolMax: 4 });
  await migrateToLatest(db);
  return {
    db,
    url,
    dialect: 'postgres',
    drop: async () => {
      if (args.keepDb) return;
      const dropper = createDb(args.db, { poolMax: 1 });
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(dropper.kysely);
      await dropper.close();
    },
  };
}

/**
 * How late the main thread's event loop ran (where the server answers requests) over a stretch: a
 * 10 ms ticker's lateness, including the stretch after its last tick (a block that ends the stretch).
 */
function loopMonitor(): { stop(): LoopDelay } {
  const PERIOD = 10;
  const gaps: number[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    gaps.push(Math.max(0, now - last - PERIOD));
    last = now;
  }, PERIOD);
  return {
    stop() {
      clearInterval(timer);
      gaps.push(Math.max(0, performance.now() - last - PERIOD));
      const sorted = gaps.sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
      return { p50Ms: at(0.5), p99Ms: at(0.99), maxMs: sorted[sorted.length - 1]! };
    },
  };
}

interface Trained {
  teamId: string;
  ids: Map<string, string>;
  metrics: ModelMetrics | null;
  used: string;
  closedDeals: number;
  trainingRows: number;
  /** The training as stored: load + features + fit + judgement, on the worker thread. */
  trainingMs: number;
  /** Worker started to outcome received, then the refresh of the team's deals (main thread). */
  workerWallMs: number;
  refreshMs: number;
  insertMs: number;
  duringTraining: LoopDelay;
  duringRefresh: LoopDelay;
}

/** Writes a generated history as a new team and trains it as production does, timing each part. */
async function trainHistory(db: Db, url: string, g: SyntheticHistory, name: string): Promise<Trained> {
  const clock = { now: () => new Date(g.now) };
  const services = createServices(db, { clock, databaseUrl: url });
  const team = await services.teams.create({ name, plan: 'starter', alertEmail: null });
  let t = performance.now();
  const ids = await insertSyntheticHistory(db.kysely, team.id, g);
  const insertMs = performance.now() - t;
  const runner = trainingRunner(db, url);
  const timing = { workerWallMs: 0, refreshMs: 0, duringTraining: { p50Ms: 0, p99Ms: 0, maxMs: 0 }, duringRefresh: { p50Ms: 0, p99Ms: 0, maxMs: 0 } };
  // The AI service as services.ts wires it, with its two steps timed.
  const ai = createAiService(db, {
    clock,
    runTraining: async (teamId) => {
      const loop = loopMonitor();
      t = performance.now();
      try {
        return await runner(teamId);
      } finally {
        timing.workerWallMs = performance.now() - t;
        timing.duringTraining = loop.stop();
      }
    },
    afterTraining: async (teamId) => {
      const loop = loopMonitor();
      t = performance.now();
      services.aiServing.invalidate(teamId);
      await services.aiServing.refreshTeam(teamId);
      timing.refreshMs = performance.now() - t;
      timing.duringRefresh = loop.stop();
    },
  });
  const report = await ai.train(team.id);
  return {
    teamId: team.id,
    ids,
    metrics: report.metrics,
    used: report.used,
    closedDeals: report.closed_deals,
    trainingRows: report.training_rows,
    trainingMs: report.training_ms,
    insertMs,
    ...timing,
  };
}

/** How the model, the truth and the phase score on `deals` (generator ids) given per-deal predictions. */
function judge(g: SyntheticHistory, deals: string[], model: (id: string) => number, phase: (id: string) => number) {
  const y = deals.map((id) => (g.outcome.get(id) ? 1 : 0));
  return {
    deals: deals.length,
    model: scoreMetrics(deals.map(model), y),
    truth: scoreMetrics(
      deals.map((id) => g.truth.get(id)!),
      y,
    ),
    phase: scoreMetrics(deals.map(phase), y),
  };
}

async function quality(db: Db, url: string, label: string, seed: number, deals: number, signal: number): Promise<AiQuality> {
  say(`quality: ${label} (seed ${seed}, ${deals} deals, signal ${signal})`);
  const g = generateHistories({ seed, deals, signal });
  const trained = await trainHistory(db, url, g, `Bench IA ${label}`);
  // Held out by the training itself: the latest 20% of closed deals by close date (metrics as stored);
  // the truth on the same deals.
  const closed = g.histories.filter((h) => h.closed_at !== null).sort((a, b) => a.closed_at! - b.closed_at!);
  const latest = closed.slice(Math.floor(closed.length * 0.8)).map((h) => h.id);
  const yLatest = latest.map((id) => (g.outcome.get(id) ? 1 : 0));
  // Later still: the deals open when the model was trained, served from their rows, scored on how they end.
  const rows = await db.kysely.selectFrom('deals').select(['id', 'phase', 'status', 'ai_win_probability']).where('team_id', '=', trained.teamId).execute();
  const byStored = new Map(rows.map((r) => [r.id, r]));
  const open = g.histories.filter((h) => h.closed_at === null).map((h) => h.id);
  const row = (id: string) => byStored.get(trained.ids.get(id)!)!;
  const served = judge(
    g,
    open,
    (id) => row(id).ai_win_probability! / 100,
    (id) => PHASE.get(row(id).phase)!,
  );
  const servedIsPhase = open.filter((id) => row(id).ai_win_probability === Math.round(PHASE.get(row(id).phase)! * 100)).length;
  const m = trained.metrics;
  say(
    `   used ${trained.used}; held-out AUC ${m?.model.auc} vs phase ${m?.baseline.auc}; served AUC ${served.model.auc} vs phase ${served.phase.auc} vs truth ${served.truth.auc}`,
  );
  return {
    label,
    seed,
    signal,
    deals,
    closedDeals: trained.closedDeals,
    openDeals: open.length,
    used: trained.used,
    trainingMs: trained.trainingMs,
    holdout: m && {
      method: m.method,
      deals: m.evaluated_deals,
      model: m.model,
      phase: m.baseline,
      truth: scoreMetrics(
        latest.map((id) => g.truth.get(id)!),
        yLatest,
      ),
      aucDifference: [m.auc_difference, m.auc_difference_low, m.auc_difference_high],
    },
    served: { ...served, servedIsPhase },
  };
}

/** A history of exactly `closedDeals` closed deals (and the open ones of its span). */
function historyWithClosed(seed: number, closedDeals: number): SyntheticHistory {
  const g = generateHistories({ seed, deals: Math.ceil(closedDeals / 0.9) + 20 });
  let k = 0;
  const histories = g.histories.filter((h) => h.closed_at === null || k++ < closedDeals);
  if (k < closedDeals) throw new Error(`generated only ${k} closed deals of ${closedDeals}`);
  return { ...g, histories };
}

async function timing(db: Db, url: string, closedDeals: number, seed: number): Promise<AiTiming> {
  say(`training time: ${closedDeals.toLocaleString('en-US')} closed deals (seed ${seed})`);
  const g = historyWithClosed(seed, closedDeals);
  const trained = await trainHistory(db, url, g, `Bench IA ${closedDeals}`);
  say(
    `   insert ${(trained.insertMs / 1000).toFixed(1)} s; training ${(trained.trainingMs / 1000).toFixed(1)} s (worker wall ${(trained.workerWallMs / 1000).toFixed(1)} s), refresh ${(trained.refreshMs / 1000).toFixed(1)} s; loop max ${trained.duringTraining.maxMs.toFixed(0)} ms while training, ${trained.duringRefresh.maxMs.toFixed(0)} ms while refreshing`,
  );
  return {
    closedDeals: trained.closedDeals,
    deals: g.histories.length,
    trainingRows: trained.trainingRows,
    used: trained.used,
    auc: trained.metrics?.model.auc ?? null,
    baselineAuc: trained.metrics?.baseline.auc ?? null,
    insertMs: Math.round(trained.insertMs),
    trainingMs: trained.trainingMs,
    workerWallMs: Math.round(trained.workerWallMs),
    refreshMs: Math.round(trained.refreshMs),
    duringTraining: trained.duringTraining,
    duringRefresh: trained.duringRefresh,
  };
}

function gitDescription(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'bench'], { cwd: ROOT, encoding: 'utf8' }).trim();
    return `${head}${dirty ? ' + uncommitted changes' : ''}`;
  } catch {
    return 'unknown';
  }
}

/** Runs the AI bench; resolves with the exit code (1 when a harness step failed). */
export async function runAiBench(args: BenchArgs): Promise<number> {
  const tmp = mkdtempSync(join(os.tmpdir(), 'autosales-bench-ai-'));
  const { db, url, dialect, drop } = await openDatabase(args, tmp);
  const report: AiReport = {
    dialect,
    startedAt: new Date().toISOString(),
    finishedAt: '',
    git: gitDescription(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model.trim() ?? '?', node: process.version, loadStart: os.loadavg(), loadEnd: [] },
    workerThread: existsSync(WORKER_FILE),
    quality: [],
    timings: [],
  };
  try {
    report.quality.push(await quality(db, url, 'with signal', 1, args.aiDeals, 1));
    report.quality.push(await quality(db, url, 'no signal', 2, Math.min(args.aiDeals, 5000), 0));
    for (const [i, size] of args.aiSizes.entries()) report.timings.push(await timing(db, url, size, 100 + i));
  } finally {
    await db.close();
    await drop();
    rmSync(tmp, { recursive: true, force: true });
  }
  report.finishedAt = new Date().toISOString();
  report.machine.loadEnd = os.loadavg();
  const markdown = renderAiReport(report);
  const outDir = resolve(ROOT, args.out);
  mkdirSync(outDir, { recursive: true });
  const base = `${dialect}-${report.startedAt.slice(0, 10)}-ai`;
  writeFileSync(join(outDir, `${base}.md`), markdown);
  writeFileSync(join(outDir, `${base}.json`), JSON.stringify(report, null, 1));
  process.stdout.write(`\n${markdown}\nReport written to ${join(outDir, `${base}.md`)}\n`);
  return 0;
}
