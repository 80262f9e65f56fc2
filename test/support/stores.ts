import type { Harness } from './harness.js';

/** A real store of the team (a record's store_id must name one): its id. */
export async function storeOf(h: Harness, teamId: string, name = 'Loja Centro'): Promise<string> {
  return (await h.services.stores.create(teamId, { name })).id;
}
