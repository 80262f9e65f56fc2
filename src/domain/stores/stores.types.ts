import type { Address } from '../clients/clients.types.js';
import type { ListInput } from '../shared/list.types.js';

export const STORE_STATUSES = ['active', 'inactive'] as const;
export type StoreStatus = (typeof STORE_STATUSES)[number];

export const STORE_SORT_FIELDS = ['created_at', 'updated_at', 'name', 'status'] as const;
export type StoreSortField = (typeof STORE_SORT_FIELDS)[number];

/** A store of the team, as GET /stores/:id answers it (DECISIONS "Stores"). */
export interface StoreView {
  id: string;
  name: string;
  cnpj: string | null;
  phone: string | null;
  whatsapp: string | null;
  email: string | null;
  address: Address | null;
  status: StoreStatus;
  created_at: string;
  updated_at: string;
}

/** What creating a store takes (the CLI, the panel's Settings -> Lojas). */
export interface StoreCreateInput {
  name: string;
  cnpj?: string | null;
  phone?: string | null;
  whatsapp?: string | null;
  email?: string | null;
  address?: Partial<Address> | null;
}

/** An update: any subset of the create's fields (`address` merged), and `status` to reactivate or deactivate. */
export interface StoreUpdateInput extends Partial<StoreCreateInput> {
  status?: StoreStatus;
}

export const STORE_UPDATABLE = ['name', 'cnpj', 'phone', 'whatsapp', 'email', 'address', 'status'] as const;

export interface StoreListInput extends Omit<ListInput, 'store_id'> {
  status?: StoreStatus;
}
