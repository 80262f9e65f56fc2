import type { ResourceDescription } from '../reads/resource.js';
import { VEHICLE_VIEW_COLUMNS } from './vehicles.mapper.js';
import type { VehicleSortField } from './vehicles.types.js';

export type VehicleFilterName =
  'phase' | 'brandKey' | 'modelKey' | 'condition' | 'fuel' | 'transmission' | 'store_id' | 'minCents' | 'maxCents' | 'minYear' | 'maxYear' | 'maxMileage';

/** Vehicles, as the read planner reads them (reads/resource.ts). */
export const VEHICLES: ResourceDescription<VehicleFilterName, VehicleSortField> = {
  table: 'vehicles',
  columns: VEHICLE_VIEW_COLUMNS,
  sort: {
    created_at: { column: 'created_at' },
    updated_at: { column: 'updated_at' },
    title: { column: 'title_key' },
    brand: { column: 'brand_key' },
    price: { column: 'price_cents', nullable: true },
    model_year: { column: 'model_year', nullable: true },
    mileage: { column: 'mileage', nullable: true },
    // The board order of the team's vehicle phases.
    phase: { phasePosition: 'vehicle_phases' },
    status: { column: 'status' },
  },
  filters: {
    phase: { column: 'phase', op: '=' },
    // Folded (brand_key / model_key).
    brandKey: { column: 'brand_key', op: '=' },
    modelKey: { column: 'model_key', op: '=' },
    condition: { column: 'condition', op: '=' },
    fuel: { column: 'fuel', op: '=' },
    transmission: { column: 'transmission', op: '=' },
    store_id: { column: 'store_id', op: '=' },
    minCents: { column: 'price_cents', op: '>=', range: true },
    maxCents: { column: 'price_cents', op: '<=', range: true },
    minYear: { column: 'model_year', op: '>=', range: true },
    maxYear: { column: 'model_year', op: '<=', range: true },
    maxMileage: { column: 'mileage', op: '<=', range: true },
  },
  // Archived vehicles are soft-deleted: listed only when asked for by status.
  listed: { column: 'status', rule: { notEquals: 'arquivado' }, counted: true },
  // A whole plate has its own path on PostgreSQL (reads/exact-search.repository.ts).
  search: { column: 'search_text', sqliteIndex: 'vehicles_fts', exact: 'plate' },
  board: {
    phases: 'vehicle_phases',
    // The longest in stock first (vehicles_team_phase_idx).
    cardOrder: { column: 'created_at', direction: 'asc' },
    cardColumns: ['id', 'title', 'brand', 'model', 'price_cents', 'plate', 'model_year', 'mileage', 'phase', 'status', 'created_at'],
    totals: 'vehicles',
  },
  rangeCounts: { table: 'vehicle_price_counts', filters: ['minCents', 'maxCents'] },
};
