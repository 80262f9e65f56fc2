import type { DbExecutor } from '../../storage/executor.js';
import { findClientRef } from '../clients/clients.repository.js';
import { checkAll, messages, validationError } from '../shared/errors.js';
import { canonicalId } from '../shared/ids.js';
import { findDealRef, findVehicleRef } from './record-links.repository.js';

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
