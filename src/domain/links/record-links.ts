import type { DbExecutor } from '../../storage/executor.js';
import { findClientRef } from '../clients/clients.repository.js';
import { checkAll, messages, validationError } from '../shared/errors.js';
import { canonicalId } from '../shared/ids.js';
import { findDealRef, findVehicleRef, linkNames } from './record-links.repository.js';

/** The records an activity or a financial record may point at; each must be of the same team. */
export interface LinkInput {
  deal_id?: string | null;
  client_id?: string | null;
  vehicle_id?: string | null;
}

/**
 * The canonical ids of the links a write sets (only those sent), each checked to name a record of the
 * team; an unknown id, another team's, or one that is not a UUID is refused with the field named.
 */
export async function checkLinks(db: DbExecutor, teamId: string, input: LinkInput): Promise<Partial<Record<keyof LinkInput, string | null>>> {
  const out: Partial<Record<keyof LinkInput, string | null>> = {};
  const check = async (field: keyof LinkInput, find: (id: string) => Promise<unknown>, message: string) => {
    const raw = input[field];
    if (raw === undefined) return;
    if (raw === null) {
      out[field] = null;
      return;
    }
    const id = canonicalId(raw);
    if (!id || !(await find(id))) throw validationError(message, field);
    out[field] = id;
  };
  // Every unknown link at once.
  await checkAll(
    () => check('deal_id', (id) => findDealRef(db, teamId, id), messages.dealNotFound),
    () => check('client_id', (id) => findClientRef(db, teamId, id), messages.clientNotFound),
    () => check('vehicle_id', (id) => findVehicleRef(db, teamId, id), messages.vehicleNotFound),
  );
  return out;
}

/** A linked record as people read it. */
export interface LinkRef {
  id: string;
  name: string;
}

/**
 * Each record with its linked deal, client and vehicle by name (`deal`, `client`, `vehicle`: null
 * when not linked), read in one statement per kind for the whole page.
 */
export async function withLinkNames<R extends LinkInput>(
  db: DbExecutor,
  teamId: string,
  records: R[],
): Promise<Array<R & { deal: LinkRef | null; client: LinkRef | null; vehicle: LinkRef | null }>> {
  const ids = (field: keyof LinkInput) => records.map((r) => r[field]).filter((id): id is string => typeof id === 'string');
  const names = await linkNames(db, teamId, { deals: ids('deal_id'), clients: ids('client_id'), vehicles: ids('vehicle_id') });
  const ref = (map: Map<string, string>, id: string | null | undefined) => (id && map.has(id) ? { id, name: map.get(id)! } : null);
  return records.map((r) => ({ ...r, deal: ref(names.deals, r.deal_id), client: ref(names.clients, r.client_id), vehicle: ref(names.vehicles, r.vehicle_id) }));
}
