import { useMutation, useQuery } from '@tanstack/react-query';
import type { BoardSource } from '../ui/board/useBoard';
import { client, page, params, unwrap } from './client';
import { keysOf, useChanged } from './resources';
import type { VehicleCard, VehicleChanges, VehicleFilters, VehicleInput } from './types';

export const vehicleKeys = keysOf('vehicles');

export interface VehicleBoardFilters {
  search: string;
  brand: string;
}

/** The stock board, fed to the generic Board. */
export function vehiclesBoard(filters: VehicleBoardFilters): BoardSource<VehicleCard> {
  const query = params(filters);
  return {
    key: vehicleKeys.board(query),
    columns: (perColumn) => unwrap(client.GET('/panel/api/vehicles/board', { params: { query: { ...query, per_column: perColumn } } })),
    column: (phase, offset, limit) =>
      unwrap(client.GET('/panel/api/vehicles/board/{phase}', { params: { path: { phase }, query: { ...query, offset, limit } } })),
    move: (id, phase) => unwrap(client.PUT('/panel/api/vehicles/{id}', { params: { path: { id } }, body: { phase } })),
    changed: 'vehicles',
  };
}

/** A page of the vehicles list (status ativo, vendido or arquivado; the pickers search the stock). */
export function useVehicleList(filters: VehicleFilters, enabled = true) {
  const query = params(filters);
  return useQuery({
    queryKey: vehicleKeys.list(query),
    queryFn: () => page(client.GET('/panel/api/vehicles', { params: { query } })),
    placeholderData: (prev) => prev,
    enabled,
  });
}

export function useVehicle(id: string | null) {
  return useQuery({
    queryKey: vehicleKeys.one(id),
    queryFn: () => unwrap(client.GET('/panel/api/vehicles/{id}', { params: { path: { id: id ?? '' } } })),
    enabled: id !== null,
  });
}

/** Create (no id) or change a vehicle; refreshes every vehicle query and what a vehicle changes. */
export function useSaveVehicle() {
  const changed = useChanged('vehicles');
  return useMutation({
    mutationFn: ({ id, body }: { id?: string | undefined; body: VehicleInput | VehicleChanges }) =>
      id
        ? unwrap(client.PUT('/panel/api/vehicles/{id}', { params: { path: { id } }, body: body }))
        : unwrap(client.POST('/panel/api/vehicles', { body: body as VehicleInput })),
    onSuccess: changed,
  });
}

export function useArchiveVehicle() {
  const changed = useChanged('vehicles');
  return useMutation({
    mutationFn: (id: string) => client.DELETE('/panel/api/vehicles/{id}', { params: { path: { id } } }),
    onSuccess: changed,
  });
}
