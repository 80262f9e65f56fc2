import type { ListInput } from '../shared/list.types.js';

export const VEHICLE_STATUSES = ['ativo', 'vendido', 'arquivado'] as const;
export type VehicleStatus = (typeof VEHICLE_STATUSES)[number];

export const FUELS = ['flex', 'gasolina', 'etanol', 'diesel', 'eletrico', 'hibrido', 'gnv'] as const;
export type Fuel = (typeof FUELS)[number];

export const TRANSMISSIONS = ['manual', 'automatico', 'automatizado', 'cvt'] as const;
export type Transmission = (typeof TRANSMISSIONS)[number];

export const BODY_TYPES = ['hatch', 'sedan', 'suv', 'picape', 'minivan', 'perua', 'cupe', 'conversivel', 'van', 'utilitario'] as const;
export type BodyType = (typeof BODY_TYPES)[number];

export const CONDITIONS = ['novo', 'seminovo', 'usado'] as const;
export type Condition = (typeof CONDITIONS)[number];

export const VEHICLE_SORT_FIELDS = ['created_at', 'updated_at', 'title', 'brand', 'price', 'model_year', 'mileage', 'phase', 'status'] as const;
export type VehicleSortField = (typeof VEHICLE_SORT_FIELDS)[number];

/** POST /vehicles: title, brand and model are required. */
export interface VehicleCreateInput {
  title: string;
  brand: string;
  model: string;
  version?: string | null;
  plate?: string | null;
  renavam?: string | null;
  chassis?: string | null;
  manufacture_year?: number | null;
  model_year?: number | null;
  mileage?: number | null;
  color?: string | null;
  fuel?: Fuel | null;
  transmission?: Transmission | null;
  body_type?: BodyType | null;
  doors?: number | null;
  condition?: Condition;
  fipe_code?: string | null;
  price?: number | null;
  purchase_price?: number | null;
  phase?: string;
  description?: string | null;
  features?: string[];
  tags?: string[];
  store_id?: string | null;
}

/** PUT /vehicles/:id: any subset, plus the status (and the sale time). */
export interface VehicleUpdateInput extends Partial<VehicleCreateInput> {
  status?: VehicleStatus;
  sold_at?: string | null;
}

export interface VehicleListInput extends ListInput {
  status?: VehicleStatus;
  phase?: string;
  brand?: string;
  model?: string;
  condition?: Condition;
  fuel?: Fuel;
  transmission?: Transmission;
  min_price?: number;
  max_price?: number;
  /** Model year bounds, inclusive. */
  min_year?: number;
  max_year?: number;
  max_mileage?: number;
}

/** A vehicle as GET /vehicles and GET /vehicles/:id return it. */
export interface VehicleView {
  id: string;
  title: string;
  brand: string;
  model: string;
  version: string | null;
  plate: string | null;
  renavam: string | null;
  chassis: string | null;
  manufacture_year: number | null;
  model_year: number | null;
  mileage: number | null;
  color: string | null;
  fuel: Fuel | null;
  transmission: Transmission | null;
  body_type: BodyType | null;
  doors: number | null;
  condition: Condition;
  fipe_code: string | null;
  price: number | null;
  purchase_price: number | null;
  phase: string;
  status: VehicleStatus;
  sold_at: string | null;
  description: string | null;
  features: string[];
  tags: string[];
  store_id: string | null;
  created_at: string;
  updated_at: string;
}

/** `data.object` of vehicle events: exactly the contract's eight fields. */
export interface VehicleEventObject {
  id: string;
  title: string;
  brand: string;
  model: string;
  price: number | null;
  phase: string;
  status: VehicleStatus;
  created_at: string;
}

/** Fields a PUT may change, in the record's order. */
export const VEHICLE_UPDATABLE = [
  'title',
  'brand',
  'model',
  'version',
  'plate',
  'renavam',
  'chassis',
  'manufacture_year',
  'model_year',
  'mileage',
  'color',
  'fuel',
  'transmission',
  'body_type',
  'doors',
  'condition',
  'fipe_code',
  'price',
  'purchase_price',
  'phase',
  'status',
  'sold_at',
  'description',
  'features',
  'tags',
  'store_id',
] as const satisfies ReadonlyArray<keyof VehicleUpdateInput & keyof VehicleView>;
export type VehicleField = (typeof VEHICLE_UPDATABLE)[number];

/** PUT always answers with these (besides id, every other field the body changed, and updated_at). */
export const VEHICLE_PUT_SUMMARY = ['title', 'brand', 'model', 'price', 'phase', 'status'] as const satisfies ReadonlyArray<keyof VehicleView>;

export interface VehicleChange {
  vehicle: VehicleView;
  /** Earlier values of the fields that changed (empty when nothing did). */
  previous: Partial<VehicleView>;
}

/** A PUT's outcome: the vehicle after it, the earlier values, and the fields that changed. */
export interface VehicleUpdateResult extends VehicleChange {
  changed: readonly VehicleField[];
}

/** A DELETE's outcome: the archived vehicle and when it was archived (the first time). */
export interface VehicleArchiveResult extends VehicleChange {
  archivedAt: string;
}
