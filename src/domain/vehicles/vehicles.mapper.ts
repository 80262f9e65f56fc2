import type { VehicleRow } from '../../storage/database.js';
import { fromCents } from '../shared/money.js';
import { toApiTimestamp, toApiTimestampOrNull } from '../shared/time.js';
import type { VehicleEventObject, VehicleView } from './vehicles.types.js';

/** The columns {@link toVehicleView} reads: GET /vehicles/:id reads only these (not search_text, the *_key columns…). */
export const VEHICLE_VIEW_COLUMNS = [
  'id',
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
  'price_cents',
  'purchase_price_cents',
  'phase',
  'status',
  'sold_at',
  'description',
  'features',
  'tags',
  'store_id',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof VehicleRow>;

/** What {@link toVehicleView} reads. */
export type VehicleViewRow = Pick<VehicleRow, (typeof VEHICLE_VIEW_COLUMNS)[number]>;

export function toVehicleView(row: VehicleViewRow): VehicleView {
  return {
    id: row.id,
    title: row.title,
    brand: row.brand,
    model: row.model,
    version: row.version,
    plate: row.plate,
    renavam: row.renavam,
    chassis: row.chassis,
    manufacture_year: row.manufacture_year,
    model_year: row.model_year,
    mileage: row.mileage,
    color: row.color,
    fuel: row.fuel as VehicleView['fuel'],
    transmission: row.transmission as VehicleView['transmission'],
    body_type: row.body_type as VehicleView['body_type'],
    doors: row.doors,
    condition: row.condition,
    fipe_code: row.fipe_code,
    price: fromCents(row.price_cents === null ? null : Number(row.price_cents)),
    purchase_price: fromCents(row.purchase_price_cents === null ? null : Number(row.purchase_price_cents)),
    phase: row.phase,
    status: row.status,
    sold_at: toApiTimestampOrNull(row.sold_at),
    description: row.description,
    features: JSON.parse(row.features) as string[],
    tags: JSON.parse(row.tags) as string[],
    store_id: row.store_id,
    created_at: toApiTimestamp(row.created_at),
    updated_at: toApiTimestamp(row.updated_at),
  };
}

/** `data.object` of a vehicle event: exactly the contract's eight fields. */
export const toVehicleEventObject = (v: VehicleView): VehicleEventObject => ({
  id: v.id,
  title: v.title,
  brand: v.brand,
  model: v.model,
  price: v.price,
  phase: v.phase,
  status: v.status,
  created_at: v.created_at,
});
