import { Command } from 'commander';
import type { TrainingReport } from '../../domain/ai/ai.types.js';
import { withContext } from '../context.js';
import { print } from '../output.js';

const pct = (x: number | null) => (x === null ? '-' : x.toFixed(3));

function describe(r: TrainingReport): string {
  const lines = [
    `Team ${r.team_id}: model version ${r.version}, trained at ${r.trained_at}`,
    `  closed deals:  ${r.closed_deals} (${r.training_rows} training rows, ${r.training_ms} ms)`,
    `  used:          ${r.used}${r.used === 'phase' ? " (the model did not beat the phase's probability: deals show the phase's)" : ''}`,
  ];
  if (r.reason) lines.push(`  ${r.reason}`);
  if (r.metrics) {
    lines.push(
      `  judged on:     ${r.metrics.evaluated_deals} deals (${r.metrics.method === 'holdout' ? 'latest 20% by close date' : '5-fold cross-validation'})`,
    );
    lines.push(`  AUC:           ${pct(r.auc)} [${pct(r.metrics.model.auc_low)}, ${pct(r.metrics.model.auc_high)}]  phase: ${pct(r.baseline_auc)}`);
    lines.push(`  AUC gain:      ${pct(r.metrics.auc_difference)} [${pct(r.metrics.auc_difference_low)}, ${pct(r.metrics.auc_difference_high)}]`);
    lines.push(`  Brier:         ${pct(r.brier)}  phase: ${pct(r.baseline_brier)}`);
  }
  return lines.join('\n');
}

export function aiCommand(): Command {
  const ai = new Command('ai').description("each team's win-probability model (ai_win_probability), trained on its own closed deals");

  ai.command('train')
    .description("train the team's model now (on a worker thread) and refresh its open deals' probabilities")
    .requiredOption('--team <team_id>', 'team id')
    .option('--json', 'print one JSON object')
    .action(async (opts: { team: string; json?: boolean }) => {
      const report = await withContext((ctx) => ctx.ai.train(opts.team));
      print(!!opts.json, report, () => describe(report));
    });

  ai.command('show')
    .description("show the team's stored model: when it was trained, on what, and its held-out metrics")
    .requiredOption('--team <team_id>', 'team id')
    .option('--json', 'print one JSON object (null when never trained)')
    .action(async (opts: { team: string; json?: boolean }) => {
      const report = await withContext((ctx) => ctx.ai.show(opts.team));
      print(!!opts.json, report, () => (report ? describe(report) : `Team ${opts.team}: no model trained yet (autosales ai train --team ${opts.team})`));
    });
  return ai;
}
