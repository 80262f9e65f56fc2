import type { ScheduleService } from '../domain/schedule/schedule.service.js';
import type { Logger } from '../domain/shared/logger.js';
import type { AiService } from '../domain/ai/ai.service.js';
import type { AiServing } from '../domain/ai/ai-serving.service.js';

export interface SchedulerDeps {
  /** From the composition root: claims due rows and records their events. */
  schedule: Pick<ScheduleService, 'fireDue'>;
  logger: Logger;
  /** Time between two looks at the due rows; an event fires at most this late (plus one batch). */
  pollMs: number;
  /**
   * Win-probability training (issue 28): each team with 40+ closed deals whose model is a day old or
   * 20 closes behind, under the team's lease in the database (once across processes), on a worker thread.
   */
  ai?: Pick<AiService, 'trainDue'>;
  /**
   * After each look for trainings: every team's deals' `ai_win_probability` and `ai_summary` at most
   * once an hour (days in phase and without contact move with time, not with writes).
   */
  aiRefresh?: Pick<AiServing, 'refreshDue'>;
  /** Time between two looks for teams due a training (default one minute; the look reads a few counters per team). */
  aiPollMs?: number;
}

export interface Scheduler {
  /** Fires what is due now; resolves with the number of rows claimed. */
  runOnce(): Promise<number>;
  /** Runs until `stop()`: one look at once, then one every `pollMs`. */
  start(): void;
  /** Stops looking; waits for a look in progress to commit. */
  stop(): Promise<void>;
}

/**
 * The scheduler of time-driven events (`activity.due_soon`, `activity.overdue`, `financial.overdue`).
 * It keeps no state: what is due and what has fired live in the database (`scheduled_events`), and the
 * claim there decides who fires what, so any number of schedulers (in `serve` and in `autosales
 * worker`, on one or many machines) fire each event exactly once.
 */
export function createScheduler({ schedule, logger, pollMs, ai, aiRefresh, aiPollMs = 60_000 }: SchedulerDeps): Scheduler {
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> = Promise.resolve();
  let aiTimer: NodeJS.Timeout | undefined;
  let aiCurrent: Promise<unknown> = Promise.resolve();

  async function train(): Promise<void> {
    try {
      const teams = await ai!.trainDue();
      if (teams.length > 0) logger.info({ teams }, 'agendador: modelos de probabilidade treinados');
    } catch (error) {
      logger.warn({ err: error }, 'agendador: falha ao treinar modelos de probabilidade');
    }
    try {
      const changed = await aiRefresh?.refreshDue();
      if (changed) logger.debug({ changed }, 'agendador: probabilidades e resumos dos negócios atualizados');
    } catch (error) {
      logger.warn({ err: error }, 'agendador: falha ao atualizar probabilidades e resumos');
    }
  }

  function nextTraining(): void {
    if (!running || !ai) return;
    aiTimer = setTimeout(() => {
      aiCurrent = train().then(nextTraining);
    }, aiPollMs);
  }

  async function look(): Promise<number> {
    try {
      const claimed = await schedule.fireDue();
      if (claimed > 0) logger.debug({ claimed }, 'agendador: eventos programados disparados');
      return claimed;
    } catch (error) {
      // A failed look (database briefly away, lock timeout) is retried at the next one.
      logger.warn({ err: error }, 'agendador: falha ao disparar eventos programados');
      return 0;
    }
  }

  function next(): void {
    if (!running) return;
    timer = setTimeout(() => {
      current = look().then(next);
    }, pollMs);
  }

  return {
    runOnce: () => schedule.fireDue(),
    start() {
      if (running) return;
      running = true;
      current = look().then(next);
      if (ai) aiCurrent = train().then(nextTraining);
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      if (aiTimer) clearTimeout(aiTimer);
      await Promise.all([current, aiCurrent]);
    },
  };
}
