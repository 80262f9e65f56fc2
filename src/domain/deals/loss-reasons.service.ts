import type { Db } from '../../storage/db.js';
import { cleanLossReasons, lossReasonsOf } from './loss-reasons.js';
import * as repo from './loss-reasons.repository.js';

/** Settings -> Quadros: the team's list of loss reasons (the panel offers it when a deal is lost). */
export function createLossReasonsService(db: Db) {
  return {
    async list(teamId: string): Promise<string[]> {
      return lossReasonsOf(await repo.findLossReasons(db.kysely, teamId));
    },
    /** Replaces the list (cleaned; an empty list leaves only "Outro", free text). */
    async replace(teamId: string, labels: readonly string[]): Promise<string[]> {
      const kept = cleanLossReasons(labels);
      await repo.saveLossReasons(db.kysely, teamId, JSON.stringify(kept));
      return kept;
    },
  };
}

export type LossReasonsService = ReturnType<typeof createLossReasonsService>;
