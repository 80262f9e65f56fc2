import type { Address } from '../clients/clients.types.js';
import { toApiTimestamp } from '../shared/time.js';
import type { StoreStatus, StoreView } from './stores.types.js';

/** The columns a store's answer is read from. */
export const STORE_COLUMNS = ['id', 'name', 'cnpj', 'phone', 'whatsapp', 'email', 'address', 'status', 'created_at', 'updated_at'] as const;

export interface StoreRow {
  id: string;
  name: string;
  cnpj: string | null;
  phone: string | null;
  whatsapp: string | null;
  email: string | null;
  address: string | null;
  status: StoreStatus;
  created_at: Date | string;
  updated_at: Date | string;
}

export const toStoreView = (row: StoreRow): StoreView => ({
  id: row.id,
  name: row.name,
  cnpj: row.cnpj,
  phone: row.phone,
  whatsapp: row.whatsapp,
  email: row.email,
  address: row.address === null ? null : (JSON.parse(row.address) as Address),
  status: row.status,
  created_at: toApiTimestamp(row.created_at),
  updated_at: toApiTimestamp(row.updated_at),
});
