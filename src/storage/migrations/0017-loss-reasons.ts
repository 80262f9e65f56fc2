import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * The team's list of loss reasons (issue 25; DECISIONS "Closing a deal in the panel"): what the panel
 * offers when a deal is marked lost, edited in Settings -> Quadros. A JSON array of labels on the team;
 * null until the team edits it, when the defaults of the time apply (src/domain/deals/loss-reasons.ts).
 */
export function lossReasons(_dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`alter table teams add column loss_reasons text`.execute(db);
    },
  };
}
