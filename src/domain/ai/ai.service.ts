import { randomUUID } from 'node:crypto';
import type { Db } from '../../storage/db.js';
import type { AiModelRow } from '../../storage/database.js';
import { isoNow, type Clock } from '../shared/clock.js';
import { AppError, notFound } from '../shared/errors.js';
import { canonicalId } from '../shared/ids.js';
import { toApiTimestamp } from '../shared/time.js';
import { findTeam } from '../teams/teams.repository.js';
import { MIN_CLOSED_DEALS, RETRAIN_EVERY_CLOSES, type ModelMetrics, type TrainingReport } from './ai.types.js';
import * as repo from './ai.repository.js';
import { trainTeam, type TrainingRunner } from './train-team.js';

/** A training holds its team's lease at most this long (a crashed trainer's lease expires). */
const LEASE_MS = 15 * 60_000;
const DAY = 86_400_000;

export function reportOf(row: AiModelRow): TrainingReport {
  const metrics = row.metrics === null ? null : (JSON.parse(row.metrics) as ModelMetrics);
  return {
    team_id: row.team_id,
    version: row.version,
    trained_at: row.trained_at === null ? '' : toApiTimestamp(row.trained_at),
    closed_deals: row.closed_deals,
    training_rows: row.training_rows,
    training_ms: row.training_ms,
    used: row.used,
    auc: metrics?.model.auc ?? null,
    baseline_auc: metrics?.baseline.auc ?? null,
    brier: metrics?.model.brier ?? null,
    baseline_brier: metrics?.baseline.brier ?? null,
    metrics,
    reason: row.used === 'none' ? `São necessários ao menos ${MIN_CLOSED_DEALS} negócios fechados (ganhos ou perdidos); o time tem ${row.closed_deals}.` : null,
  };
}

export interface AiServiceDeps {
  clock: Clock;
  /** Where training runs: a worker thread in `serve` and the CLI (src/worker/ai-training-thread.ts); this thread by default. */
  runTraining?: TrainingRunner;
  /** Called after a model is stored (the refresh of the team's open deals). */
  afterTraining?: (teamId: string) => Promise<void>;
}

export function createAiService(db: Db, deps: AiServiceDeps) {
  const k = db.kysely;
  const run: TrainingRunner = deps.runTraining ?? ((teamId) => trainTeam(db.reads, teamId));

  async function teamOrThrow(rawId: string): Promise<string> {
    const id = canonicalId(rawId);
    if (!id || !(await findTeam(k, id))) throw notFound('Time não encontrado');
    return id;
  }

  /** Trains under the team's lease; undefined when another process holds it. */
  async function trainLeased(teamId: string): Promise<TrainingReport | undefined> {
    const token = randomUUID();
    const now = deps.clock.now();
    if (!(await repo.claimTraining(k, teamId, token, now.toISOString(), new Date(now.getTime() + LEASE_MS).toISOString()))) return undefined;
    try {
      const previous = await repo.findModel(k, teamId);
      const outcome = await run(teamId);
      await repo.saveModel(k, {
        team_id: teamId,
        version: (previous?.version ?? 0) + 1,
        trained_at: isoNow(deps.clock),
        closed_deals: outcome.closedDeals,
        training_rows: outcome.trainingRows,
        training_ms: outcome.ms,
        used: outcome.used,
        model: outcome.model === null ? null : JSON.stringify(outcome.model),
        metrics: outcome.metrics === null ? null : JSON.stringify(outcome.metrics),
      });
      await deps.afterTraining?.(teamId);
      return reportOf((await repo.findModel(k, teamId))!);
    } finally {
      await repo.releaseTraining(k, teamId, token);
    }
  }

  return {
    /** `autosales ai train`: trains now (refused while another process trains the same team). */
    async train(rawTeamId: string): Promise<TrainingReport> {
      const teamId = await teamOrThrow(rawTeamId);
      const report = await trainLeased(teamId);
      if (!report) throw new AppError(503, 'SERVICE_UNAVAILABLE', 'Um treinamento deste time já está em andamento');
      return report;
    },

    /** The stored model's report; null when the team was never trained. */
    async show(rawTeamId: string): Promise<TrainingReport | null> {
      const teamId = await teamOrThrow(rawTeamId);
      const row = await repo.findModel(k, teamId);
      return row && row.trained_at !== null ? reportOf(row) : null;
    },

    /**
     * The scheduler's look: trains each team with 40 or more closed deals whose model is missing, a
     * day old, or 20 or more closes behind. Each team under its lease, so across processes once.
     * Resolves with the teams trained.
     */
    async trainDue(): Promise<string[]> {
      const now = deps.clock.now().getTime();
      const trained: string[] = [];
      for (const c of await repo.trainingCandidates(k)) {
        if (c.closed < MIN_CLOSED_DEALS) continue;
        const due = c.trained_at === null || now - c.trained_at >= DAY || c.closed - (c.trained_on ?? 0) >= RETRAIN_EVERY_CLOSES;
        if (due && (await trainLeased(c.team_id))) trained.push(c.team_id);
      }
      return trained;
    },
  };
}

export type AiService = ReturnType<typeof createAiService>;
