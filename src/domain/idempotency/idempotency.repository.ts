import type { DbExecutor } from '../../storage/executor.js';
import { uniqueViolationIndex } from '../../storage/unique-violation.js';

/** Inserts the key as `processing`; false when the team already has a record for it (the unique index decides). */
export async function insertProcessing(db: DbExecutor, row: { teamId: string; key: string; fingerprint: string; now: string }): Promise<boolean> {
  try {
    await db
      .insertInto('idempotency_keys')
      .values({
        team_id: row.teamId,
        key: row.key,
        fingerprint: row.fingerprint,
        status: 'processing',
        status_code: null,
        response_body: null,
        created_at: row.now,
        updated_at: row.now,
      })
      .execute();
    return true;
  } catch (error) {
    if (uniqueViolationIndex(error) === null) throw error;
    return false;
  }
}

export const findKey = (db: DbExecutor, teamId: string, key: string) =>
  db.selectFrom('idempotency_keys').selectAll().where('team_id', '=', teamId).where('key', '=', key).executeTakeFirst();

/** Deletes the record only if it is still the one read (same updated_at): one contender wins. */
export async function deleteIfUnchanged(db: DbExecutor, teamId: string, key: string, updatedAt: Date | string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('team_id', '=', teamId).where('key', '=', key).where('updated_at', '=', updatedAt).execute();
}

/** Stores the answer; run on the transaction that created the record, it commits (or not) with it. */
export async function storeAnswer(db: DbExecutor, teamId: string, key: string, answer: { statusCode: number; body: string; now: string }): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status: 'completed', status_code: answer.statusCode, response_body: answer.body, updated_at: answer.now })
    .where('team_id', '=', teamId)
    .where('key', '=', key)
    .execute();
}

/** Forgets a key whose request is still `processing`. */
export async function deleteProcessing(db: DbExecutor, teamId: string, key: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('team_id', '=', teamId).where('key', '=', key).where('status', '=', 'processing').execute();
}

export async function deleteCreatedBefore(db: DbExecutor, before: string): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
