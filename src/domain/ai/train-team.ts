import type { DbExecutor } from '../../storage/executor.js';
import { ratesOf } from './context.js';
import { loadTeamData } from './team-data.js';
import { trainModel, type TrainingOutcome } from './training.js';

/** A training's outcome and what it cost (the time is the whole load + features + fit + judgement). */
export interface TimedOutcome extends TrainingOutcome {
  ms: number;
}

/** Loads a team's histories (batch statements) and trains its model: what the training thread runs. */
export async function trainTeam(db: DbExecutor, teamId: string): Promise<TimedOutcome> {
  const started = performance.now();
  const { histories, ctx } = await loadTeamData(db, teamId);
  const outcome = trainModel(histories, ctx, ratesOf(ctx));
  return { ...outcome, ms: Math.round(performance.now() - started) };
}

/** Runs a team's training somewhere (in this thread, or a worker thread: src/worker/ai-training-thread.ts). */
export type TrainingRunner = (teamId: string) => Promise<TimedOutcome>;
