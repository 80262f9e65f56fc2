import type { DbExecutor } from '../../storage/executor.js';
import { canonicalId } from '../shared/ids.js';

/** `{id, name}` of a client of the team, or null: what a deal embeds, and how its client_id is checked. */
export async function findClientRef(db: DbExecutor, teamId: string, rawId: string): Promise<{ id: string; name: string } | null> {
  const id = canonicalId(rawId);
  if (!id) return null;
  const row = await db.selectFrom('clients').select(['id', 'name']).where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
  return row ?? null;
}
