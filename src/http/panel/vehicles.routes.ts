import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { BoardsService } from '../../domain/boards/boards.service.js';
import { checkVehicleWrite, roleMessages, vehicleForRole } from '../../domain/users/role-rules.js';
import type { Role } from '../../domain/users/users.types.js';
import type { VehiclesService } from '../../domain/vehicles/vehicles.service.js';
import type { VehicleView } from '../../domain/vehicles/vehicles.types.js';
import { crudRoutes } from '../crud-routes.js';
import { Page, Vehicle, VehicleArchived } from '../schemas/responses.schema.js';
import { VehicleCreateBody, VehicleListQuery, VehicleUpdateBody } from '../schemas/vehicles.schema.js';
import { guarded, invalid, manager, panelSurface, roleOf, teamOf } from './panel-surface.js';
import { vehicleFieldProblems } from '../../domain/vehicles/vehicle-field-rules.js';
import { CardPage, failure, PhaseParams, Success, VehicleBoardQuery, VehicleCard, VehicleColumn, VehicleColumnQuery } from './panel.schemas.js';

const errors = invalid(['VALIDATION_ERROR', 'Placa inválida'], ['VALIDATION_ERROR', 'RENAVAM inválido'], ['VALIDATION_ERROR', 'Chassi inválido']);
const duplicates = {
  422: invalid(['DUPLICATE_ENTRY', 'Placa já cadastrada'], ['DUPLICATE_ENTRY', 'Chassi já cadastrado'], ['DUPLICATE_ENTRY', 'RENAVAM já cadastrado']),
};
const sellerRefused = {
  403: {
    ...guarded[403],
    examples: [...guarded[403].examples, ...failure('', ['FORBIDDEN', roleMessages.vehicleStatus], ['FORBIDDEN', roleMessages.purchasePrice]).examples],
  },
};

const DAY_MS = 86_400_000;

/** A vehicle as the panel answers it: `purchase_price` absent for a seller, and its days in stock. */
export const PanelVehicle = Type.Object(
  {
    ...Vehicle.properties,
    purchase_price: Type.Optional(Vehicle.properties.purchase_price),
    days_in_stock: Type.Integer({
      description: 'Whole days in stock: from registration to the sale (sold), to the archiving (archived, its last change) or to now.',
    }),
  },
  { additionalProperties: false, title: 'PanelVehicle' },
);

/** The panel's vehicle answer for `role` as of `now` (DECISIONS: a seller never sees the purchase price). */
export function panelVehicle(role: Role, now: Date) {
  return (vehicle: VehicleView) => {
    const end =
      vehicle.status === 'vendido' && vehicle.sold_at ? new Date(vehicle.sold_at) : vehicle.status === 'arquivado' ? new Date(vehicle.updated_at) : now;
    const days = Math.max(0, Math.floor((end.getTime() - new Date(vehicle.created_at).getTime()) / DAY_MS));
    return { ...vehicleForRole(role, vehicle), days_in_stock: days };
  };
}

/** The vehicle board and the vehicle records: every write is the vehicles service's. */
export function vehiclesRoutes({ boards, vehicles }: { boards: BoardsService; vehicles: VehiclesService }): FastifyPluginAsyncTypebox {
  return async (app) => {
    const routes = crudRoutes(app, panelSurface({ tags: ['Veículos'], notFound: 'Veículo não encontrado' }), '/vehicles');
    /** Archiving and bringing back: a manager's (DECISIONS: "Roles in the records"). */
    const stock = crudRoutes(app, panelSurface({ tags: ['Veículos'], write: manager, notFound: 'Veículo não encontrado' }), '/vehicles');
    const answer = (request: Parameters<typeof roleOf>[0]) => panelVehicle(roleOf(request), boards.now());
    routes.read('/board', {
      operationId: 'getVehiclesBoard',
      summary: 'The vehicle board: one column per phase (in stock by default; status vendido or arquivado for the sold or archived), longest in stock first',
      querystring: VehicleBoardQuery,
      answer: Success(Type.Object({ columns: Type.Array(VehicleColumn) }, { additionalProperties: false })),
      read: (request) => {
        const { per_column = 20, ...filters } = request.query;
        return boards.vehiclesBoard(teamOf(request), filters, per_column);
      },
    });
    routes.read('/board/:phase', {
      operationId: 'getVehiclesColumn',
      summary: 'More cards of one column of the vehicle board',
      params: PhaseParams,
      querystring: VehicleColumnQuery,
      answer: Success(CardPage(VehicleCard)),
      read: (request) => {
        const { offset = 0, limit = 20, ...filters } = request.query;
        return boards.vehiclesColumn(teamOf(request), request.params.phase, filters, offset, limit);
      },
    });
    routes.list({
      operationId: 'listPanelVehicles',
      summary: 'The vehicles list (the API list): status ativo (in stock), vendido (sold) or arquivado (archived); without status, in stock and sold',
      querystring: VehicleListQuery,
      answer: Page(PanelVehicle),
      errors: { 400: invalid(['VALIDATION_ERROR', 'Status inválido']) },
      read: async (request) => {
        const { data, pagination } = await vehicles.list(teamOf(request), request.query);
        return { data: data.map(answer(request)), pagination };
      },
    });
    routes.create({
      operationId: 'createPanelVehicle',
      fieldRules: vehicleFieldProblems,
      summary: 'Register a vehicle (emits vehicle.created); a seller may not send purchase_price',
      body: VehicleCreateBody,
      answer: Success(PanelVehicle),
      errors: { 400: errors, ...duplicates, ...sellerRefused },
      write: async (request) => {
        checkVehicleWrite(roleOf(request), request.body, true);
        return answer(request)(await vehicles.create(teamOf(request), request.body));
      },
    });
    routes.get({
      operationId: 'getPanelVehicle',
      summary: 'A vehicle',
      answer: Success(PanelVehicle),
      read: async (request) => answer(request)(await vehicles.get(teamOf(request), request.params.id)),
    });
    routes.update({
      operationId: 'updatePanelVehicle',
      fieldRules: vehicleFieldProblems,
      summary: 'Change a vehicle: move ({phase}), edit. Answers the whole vehicle.',
      description:
        'Managers and owners may also set status (vendido, arquivado, ativo) and purchase_price; a seller sending either gets 403 (a car is sold by winning its deal).',
      body: VehicleUpdateBody,
      answer: Success(PanelVehicle),
      errors: { 400: errors, ...duplicates, ...sellerRefused },
      write: async (request) => {
        checkVehicleWrite(roleOf(request), request.body);
        return answer(request)((await vehicles.update(teamOf(request), request.params.id, request.body)).vehicle);
      },
    });
    stock.remove({
      operationId: 'archivePanelVehicle',
      summary: 'Archive a vehicle (manager)',
      answer: Success(VehicleArchived),
      write: async (request) => {
        const { vehicle, archivedAt } = await vehicles.archive(teamOf(request), request.params.id);
        return { id: vehicle.id, status: 'arquivado' as const, archived_at: archivedAt };
      },
    });
    stock.write('POST', '/:id/restore', {
      operationId: 'restorePanelVehicle',
      summary: 'Bring an archived vehicle back into stock (manager): status ativo, in the phase it had (emits vehicle.updated)',
      description: 'A vehicle that is not archived is answered as it is.',
      answer: Success(PanelVehicle),
      write: async (request) => answer(request)((await vehicles.restore(teamOf(request), request.params.id)).vehicle),
    });
  };
}
