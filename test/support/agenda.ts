import type { Harness } from './harness.js';

/** A vehicle of the team bought for 52,000.00, for the summary's margin. */
export async function createVehicleForSummary(h: Harness, teamId: string): Promise<{ id: string; purchasePrice: number }> {
  const vehicle = await h.services.vehicles.create(teamId, { title: 'Chevrolet Onix LT 2020', brand: 'Chevrolet', model: 'Onix', purchase_price: 52000 });
  return { id: vehicle.id, purchasePrice: 52000 };
}
