import type { DbExecutor } from '../../storage/executor.js';

/** The team's stored loss reasons (JSON), null while it keeps the defaults; undefined: no such team. */
export async function findLossReasons(db: DbExecutor, teamId: string): Promise<string | null | undefined> {
  const row = await db.selectFrom('teams').select('loss_reasons').where('id', '=', teamId).executeTakeFirst();
  return row === undefined ? undefined : row.loss_reasons;
}

export async function saveLossReasons(db: DbExecutor, teamId: string, json: string): Promise<void> {
  await db.updateTable('teams').set({ loss_reasons: json }).where('id', '=', teamId).execute();
}
