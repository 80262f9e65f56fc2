import { AppError } from '../shared/errors.js';
import type { Role } from './users.types.js';

/**
 * What a panel user's role may see and change in the records (DECISIONS: "Roles in the records").
 * Whole routes are guarded by their least role (`config.panel.role`: Financeiro, archiving and restoring
 * a vehicle are a manager's); these are the finer rules the panel's routes apply to a route every role
 * may use. API keys are governed by their scopes alone.
 */

export const roleMessages = {
  vehicleStatus: 'Vendedores não mudam o status de um veículo: ele é vendido ao ganhar o negócio; arquivar e restaurar cabem ao gerente',
  purchasePrice: 'Vendedores não informam nem alteram o preço de compra',
} as const;

/** A seller never sees what the store paid or earned. */
export const seesMoneyOfTheStore = (role: Role): boolean => role !== 'seller';

/** A vehicle as `role` may see it: without `purchase_price` (absent, not null) for a seller. */
export function vehicleForRole<V extends { purchase_price?: number | null }>(role: Role, vehicle: V): V {
  if (seesMoneyOfTheStore(role)) return vehicle;
  const { purchase_price: _hidden, ...rest } = vehicle;
  return rest as V;
}

/**
 * Refuses (403) a vehicle write `role` may not make: a seller may not set the status (a car is sold by
 * winning its deal; archiving and restoring are a manager's) nor the purchase price (a new vehicle's
 * may be sent as null: it has none).
 */
export function checkVehicleWrite(role: Role, body: { status?: unknown; sold_at?: unknown; purchase_price?: unknown }, creating = false): void {
  if (seesMoneyOfTheStore(role)) return;
  if (body.status !== undefined || body.sold_at !== undefined) throw new AppError(403, 'FORBIDDEN', roleMessages.vehicleStatus, { field: 'status' });
  if (body.purchase_price !== undefined && !(creating && body.purchase_price === null))
    throw new AppError(403, 'FORBIDDEN', roleMessages.purchasePrice, { field: 'purchase_price' });
}
