// The Markdown of the AI bench (bench/ai.ts). `node dist-bench/bench/ai-report.js <file>-ai.json`
// renders it again from the JSON.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ScoreMetrics } from '../src/domain/ai/ai.types.js';

export interface LoopDelay {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface Judged {
  deals: number;
  model: ScoreMetrics;
  truth: ScoreMetrics;
  phase: ScoreMetrics;
}

export interface AiQuality {
  label: string;
  seed: number;
  signal: number;
  deals: number;
  closedDeals: number;
  openDeals: number;
  used: string;
  trainingMs: number;
  /** The training's own judgement (latest 20% of closed deals, or cross-validation), and the truth on those deals. */
  holdout: (Judged & { method: string; aucDifference: [number, number, number] }) | null;
  /** The deals open at training time: served probabilities scored on how they end. */
  served: Judged & { servedIsPhase: number };
}

export interface AiTiming {
  closedDeals: number;
  deals: number;
  trainingRows: number;
  used: string;
  auc: number | null;
  baselineAuc: number | null;
  insertMs: number;
  trainingMs: number;
  workerWallMs: number;
  refreshMs: number;
  duringTraining: LoopDelay;
  duringRefresh: LoopDelay;
}

export interface AiReport {
  dialect: string;
  startedAt: string;
  finishedAt: string;
  git: string;
  machine: { cpus: number; model: string; node: string; loadStart: number[]; loadEnd: number[] };
  /** The compiled training worker was present: training ran on a worker thread, as in `serve`. */
  workerThread: boolean;
  quality: AiQuality[];
  timings: AiTiming[];
}

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '–');
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');

function scoresTable(j: Judged, model: string): string[] {
  const row = (name: string, s: ScoreMetrics) => `| ${name} | ${f3(s.auc)} (${f3(s.auc_low)}–${f3(s.auc_high)}) | ${f3(s.brier)} |`;
  return ['| scores | AUC (95% interval) | Brier |', '|---|---|---|', row(model, j.model), row('known truth', j.truth), row('phase baseline', j.phase)];
}

function calibrationTable(j: Judged): string[] {
  const lines = ['| decile | model: n, predicted → observed | truth: n, predicted → observed | phase: n, predicted → observed |', '|---|---|---|---|'];
  const cell = (s: ScoreMetrics, d: number) => {
    const b = s.calibration.find((c) => c.decile === d);
    if (!b) return '';
    const gap = Math.abs(b.predicted - b.observed);
    return `${b.count}, ${pct(b.predicted)} → ${pct(b.observed)}${b.count >= 30 && gap > 0.1 ? ' **(off by > 10 pts)**' : ''}`;
  };
  for (let d = 0; d < 10; d++) {
    const cells = [cell(j.model, d), cell(j.truth, d), cell(j.phase, d)];
    if (cells.some((c) => c)) lines.push(`| ${d * 10}–${d * 10 + 10}% | ${cells.join(' | ')} |`);
  }
  return lines;
}

export function renderAiReport(r: AiReport): string {
  const out: string[] = [
    `# Win-probability bench (${r.dialect}, ${r.startedAt.slice(0, 10)})`,
    '',
    `Commit ${r.git}; ${r.machine.cpus} × ${r.machine.model}, Node ${r.machine.node}; load average ${load(r.machine.loadStart)} at the start, ${load(r.machine.loadEnd)} at the end (1/5/15 min). ` +
      `Started ${r.startedAt}, finished ${r.finishedAt}. Training on a worker thread: ${r.workerThread ? 'yes' : 'NO (compiled worker missing: in this thread)'}.`,
    '',
    'Histories from `src/domain/ai/synthetic-histories.ts` (seeded; docs/ai.md lists the effects), written as a team’s records and trained by the AI service as `serve` trains. ' +
      '"Known truth" is the generator’s probability of winning given the deal’s attributes at creation; the deal’s life (phases, contacts, overdue activities) depends on its outcome, so a model that reads it can rank better than that truth.',
  ];
  for (const q of r.quality) {
    out.push('', `## Quality: ${q.label}`, '');
    out.push(
      `Seed ${q.seed}, signal ${q.signal}: ${q.deals.toLocaleString('en-US')} deals, ${q.closedDeals.toLocaleString('en-US')} closed (trained on), ${q.openDeals} open at training time. ` +
        `Training ${sec(q.trainingMs)}; the service uses: **${q.used}**.`,
    );
    if (q.holdout) {
      const [d, lo, hi] = q.holdout.aucDifference;
      out.push('', `### Held out by the training (${q.holdout.method}, ${q.holdout.deals} deals, one moment each)`, '');
      out.push(`AUC(model) − AUC(phase) = ${f3(d)}, 95% DeLong interval ${f3(lo)} … ${f3(hi)} (the model is used when the low end is above 0).`, '');
      out.push(...scoresTable(q.holdout, 'model (as judged)'), '', ...calibrationTable(q.holdout));
    }
    out.push('', `### Later deals: the ${q.served.deals} deals open at training time, as served, scored on how they end`, '');
    out.push(`Served probability equal to the phase’s: ${q.served.servedIsPhase} of ${q.served.deals}.`, '');
    out.push(...scoresTable(q.served, q.used === 'model' ? 'served (model)' : `served (${q.used})`), '', ...calibrationTable(q.served));
  }
  if (r.timings.length) {
    out.push('', '## Training time', '');
    out.push(
      'Training = what the worker thread does (load the team in six statements, features at every moment, fit, judgement, refit), as stored in `ai_models.training_ms`. ' +
        'Worker wall = start of the thread to its answer. Refresh = the main thread rewriting the team’s deals’ fields with the new model afterwards. ' +
        'Event-loop delay: how late a 10 ms timer on the main thread ran while each part ran (the server answers requests on that thread). One run per size on a shared machine: noisy.',
      '',
      '| closed deals | deals | training rows | insert | training | worker wall | loop delay while training (p99 / max) | refresh | loop delay while refreshing (p99 / max) | used | AUC vs phase |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const t of r.timings) {
      out.push(
        `| ${t.closedDeals.toLocaleString('en-US')} | ${t.deals.toLocaleString('en-US')} | ${t.trainingRows.toLocaleString('en-US')} | ${sec(t.insertMs)} | **${sec(t.trainingMs)}** | ${sec(t.workerWallMs)} | ` +
          `${t.duringTraining.p99Ms.toFixed(0)} / ${t.duringTraining.maxMs.toFixed(0)} ms | ${sec(t.refreshMs)} | ${t.duringRefresh.p99Ms.toFixed(0)} / ${t.duringRefresh.maxMs.toFixed(0)} ms | ${t.used} | ${t.auc === null ? '–' : `${f3(t.auc)} vs ${f3(t.baselineAuc!)}`} |`,
      );
    }
  }
  return `${out.join('\n')}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.stdout.write(renderAiReport(JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as AiReport));
}
