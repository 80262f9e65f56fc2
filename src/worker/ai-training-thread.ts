import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { trainTeam, type TimedOutcome, type TrainingRunner } from '../domain/ai/train-team.js';
import type { Db } from '../storage/db.js';

const WORKER_FILE = new URL('./ai-training.worker.js', import.meta.url);

/**
 * Trains each team on a worker thread of its own with its own connection to `url` (issue 28: training
 * 100,000 closed deals takes seconds of CPU, which must not stall the server). Where the compiled
 * worker file is absent (the TypeScript sources under the test runner) or the database has no URL
 * another connection could open (`:memory:`), training runs here instead, on `db.reads`.
 */
export function trainingRunner(db: Db, url: string | undefined): TrainingRunner {
  const inline: TrainingRunner = (teamId) => trainTeam(db.reads, teamId);
  if (!url || url.includes(':memory:') || !existsSync(fileURLToPath(WORKER_FILE))) return inline;
  return (teamId) =>
    new Promise<TimedOutcome>((resolve, reject) => {
      const worker = new Worker(WORKER_FILE, { workerData: { url, teamId } });
      let settled = false;
      worker.once('message', (message: { ok: true; outcome: TimedOutcome } | { ok: false; message: string }) => {
        settled = true;
        if (message.ok) resolve(message.outcome);
        else reject(new Error(message.message));
      });
      worker.once('error', (error) => {
        settled = true;
        reject(error);
      });
      worker.once('exit', (code) => {
        if (!settled) reject(new Error(`treinamento encerrado sem resultado (código ${code})`));
      });
    });
}
