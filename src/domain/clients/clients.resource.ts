import type { ResourceDescription } from '../reads/resource.js';
import { CLIENT_STATE_COLUMNS } from './clients.mapper.js';
import type { ClientSortField } from './clients.types.js';

export type ClientFilterName = 'type' | 'segment' | 'store_id';

/** Clients, as the read planner reads them (reads/resource.ts). */
export const CLIENTS: ResourceDescription<ClientFilterName, ClientSortField> = {
  table: 'clients',
  columns: CLIENT_STATE_COLUMNS,
  sort: {
    created_at: { column: 'created_at' },
    updated_at: { column: 'updated_at' },
    name: { column: 'name_key' },
    segment: { column: 'segment', nullable: true },
    status: { column: 'status' },
    type: { column: 'type' },
  },
  filters: {
    type: { column: 'type', op: '=' },
    segment: { column: 'segment', op: '=' },
    store_id: { column: 'store_id', op: '=' },
  },
  // Inactive clients are soft-deleted: listed only when asked for by status.
  listed: { column: 'status', rule: { equals: 'active' }, counted: true },
  // A full CPF or CNPJ has its own path (reads/exact-search.repository.ts).
  search: { column: 'search_text', sqliteIndex: 'clients_fts', exact: 'tax-number' },
};
