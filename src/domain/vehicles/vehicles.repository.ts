import { compiledQuery } from '../../storage/compiled-query.js';
import type { NewVehicleRow, VehicleRow, VehicleUpdate } from '../../storage/database.js';
import { locksRows } from '../../storage/dialect.js';
import type { DbExecutor, Trx } from '../../storage/executor.js';
import { boardTotalsByPhase } from '../shared/list-sql.js';

export interface VehicleFilters {
  status?: string;
  phase?: string;
  /** Folded (brand_key / model_key). */
  brandKey?: string;
  modelKey?: string;
  condition?: string;
  fuel?: string;
  transmission?: string;
  store_id?: string;
  minCents?: number;
  maxCents?: number;
  minYear?: number;
  maxYear?: number;
  maxMileage?: number;
  search?: string;
}

const vehicleById = compiledQuery('vehicle_by_id', (db: DbExecutor, teamId: string, id: string) =>
  db.selectFrom('vehicles').selectAll().where('team_id', '=', teamId).where('id', '=', id),
);

/** A vehicle; no lock. GET /vehicles/:id's hot path: compiled once. */
export const findVehicle = (db: DbExecutor, teamId: string, id: string): Promise<VehicleRow | undefined> => vehicleById.executeTakeFirst(db, teamId, id);

/** The same, row-locked until the transaction ends (PostgreSQL). */
export const findVehicleForUpdate = (trx: Trx, teamId: string, id: string): Promise<VehicleRow | undefined> =>
  trx.selectFrom('vehicles').selectAll().where('team_id', '=', teamId).where('id', '=', id).forUpdate().executeTakeFirst();

/** The row a write changes: row-locked until the transaction ends where transactions run at once (PostgreSQL). */
export const findVehicleForChange = (trx: Trx, teamId: string, id: string) =>
  locksRows(trx) ? findVehicleForUpdate(trx, teamId, id) : findVehicle(trx, teamId, id);

export const insertVehicle = (db: DbExecutor, row: NewVehicleRow) => db.insertInto('vehicles').values(row).execute();

export const updateVehicle = (db: DbExecutor, teamId: string, id: string, patch: VehicleUpdate) =>
  db.updateTable('vehicles').set(patch).where('team_id', '=', teamId).where('id', '=', id).execute();

/** How many vehicles are in stock (status ativo) and their mean entry time (ms since the epoch), from board_totals (entry times summed in seconds). */
export async function stockAge(db: DbExecutor, teamId: string): Promise<{ count: number; meanCreatedMs: number | null }> {
  const phases = await boardTotalsByPhase(db, teamId, 'vehicles');
  const count = phases.reduce((n, p) => n + p.count, 0);
  const seconds = phases.reduce((n, p) => n + p.total, 0);
  return { count, meanCreatedMs: count === 0 ? null : (seconds / count) * 1000 };
}
