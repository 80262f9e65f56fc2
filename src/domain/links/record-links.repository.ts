import type { DbExecutor } from '../../storage/executor.js';

export const findDealRef = (db: DbExecutor, teamId: string, id: string) =>
  db.selectFrom('deals').select('id').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();

/** A vehicle of the team (any status: an archived or sold vehicle keeps its history of records). */
export const findVehicleRef = (db: DbExecutor, teamId: string, id: string): Promise<{ id: string } | undefined> =>
  db.selectFrom('vehicles').select('id').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();

/** The names people read for the team's deals (title), clients (name) and vehicles (title) among `ids`. */
export async function linkNames(db: DbExecutor, teamId: string, ids: { deals: string[]; clients: string[]; vehicles: string[] }) {
  const read = async (table: 'deals' | 'clients' | 'vehicles', list: string[]) => {
    if (list.length === 0) return new Map<string, string>();
    const column = table === 'clients' ? 'name' : 'title';
    const rows = await db
      .selectFrom(table)
      .select(['id', `${column} as name`] as never)
      .where('team_id', '=', teamId)
      .where('id', 'in', [...new Set(list)])
      .execute();
    return new Map((rows as Array<{ id: string; name: string }>).map((r) => [r.id, r.name]));
  };
  const [deals, clients, vehicles] = await Promise.all([read('deals', ids.deals), read('clients', ids.clients), read('vehicles', ids.vehicles)]);
  return { deals, clients, vehicles };
}
