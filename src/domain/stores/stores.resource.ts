import type { ResourceDescription } from '../reads/resource.js';
import { STORE_COLUMNS } from './stores.mapper.js';
import type { StoreSortField } from './stores.types.js';

/** Stores, as the read planner reads them (reads/resource.ts). A team has a handful: no counters, no search index. */
export const STORES: ResourceDescription<never, StoreSortField> = {
  table: 'stores',
  columns: STORE_COLUMNS,
  sort: {
    created_at: { column: 'created_at' },
    updated_at: { column: 'updated_at' },
    name: { column: 'name_key' },
    status: { column: 'status' },
  },
  filters: {},
  // An inactive store is not deleted (its records stay): every store is listed; `status` asks for one.
  listed: { column: 'status', rule: { notEquals: '' }, counted: false },
  // Name and CNPJ (as written and its digits), matched by LIKE over the team's few rows.
  search: { column: 'search_text' },
};
