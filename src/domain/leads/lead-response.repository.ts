import type { DbExecutor } from '../../storage/executor.js';

/**
 * Response time (DECISIONS.md, Leads): a lead's deal is answered by its first completed activity or
 * phase change. Stamps `lead_responded_at` once, only on a lead's deal; any later answer leaves it.
 */
export async function markLeadAnswered(db: DbExecutor, teamId: string, dealId: string, at: string): Promise<void> {
  await db
    .updateTable('deals')
    .set({ lead_responded_at: at })
    .where('team_id', '=', teamId)
    .where('id', '=', dealId)
    .where('lead_received_at', 'is not', null)
    .where('lead_responded_at', 'is', null)
    .execute();
}
