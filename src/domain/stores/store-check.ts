import type { DbExecutor } from '../../storage/executor.js';
import { messages, validationError } from '../shared/errors.js';
import { canonicalId } from '../shared/ids.js';
import { storeStatus } from './stores.repository.js';

/**
 * The check of a `store_id` a record is written with (deals, clients, vehicles, activities, financial
 * records; DECISIONS "Stores"): null is no store; else it must name a store of the team (400 `Loja não
 * encontrada`) that is active (400 `Loja inativa`). Answers the id to store (canonical, lower case);
 * undefined when none was sent.
 */
export async function checkStoreId<T extends string | null | undefined>(executor: DbExecutor, teamId: string, storeId: T): Promise<T> {
  if (storeId === undefined || storeId === null) return storeId;
  const id = canonicalId(storeId);
  const found = id ? await storeStatus(executor, teamId, id) : undefined;
  if (!found) throw validationError(messages.storeNotFound, 'store_id');
  if (found.status !== 'active') throw validationError(messages.storeInactive, 'store_id');
  return id as T;
}
