import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { BoardsService } from '../../domain/boards/boards.service.js';
import type { VehiclesService } from '../../domain/vehicles/vehicles.service.js';
import { crudRoutes } from '../crud-routes.js';
import { Page, Vehicle, VehicleArchived } from '../schemas/responses.schema.js';
import { VehicleCreateBody, VehicleListQuery, VehicleUpdateBody } from '../schemas/vehicles.schema.js';
import { invalid, panelSurface, teamOf } from './panel-surface.js';
import { CardPage, PhaseParams, Success, VehicleBoardQuery, VehicleCard, VehicleColumn, VehicleColumnQuery } from './panel.schemas.js';

const errors = invalid(['VALIDATION_ERROR', 'Placa inválida'], ['VALIDATION_ERROR', 'RENAVAM inválido'], ['VALIDATION_ERROR', 'Chassi inválido']);
const duplicates = {
  422: invalid(['DUPLICATE_ENTRY', 'Placa já cadastrada'], ['DUPLICATE_ENTRY', 'Chassi já cadastrado'], ['DUPLICATE_ENTRY', 'RENAVAM já cadastrado']),
};

/** The vehicle board and the vehicle records: every write is the vehicles service's. */
export function vehiclesRoutes({ boards, vehicles }: { boards: BoardsService; vehicles: VehiclesService }): FastifyPluginAsyncTypebox {
  return async (app) => {
    const routes = crudRoutes(app, panelSurface({ tags: ['Veículos'], notFound: 'Veículo não encontrado' }), '/vehicles');
    routes.read('/board', {
      operationId: 'getVehiclesBoard',
      summary: 'The vehicle board: one column per phase (vehicles in stock, status ativo), longest in stock first',
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
      summary: 'The vehicles list (the API list)',
      querystring: VehicleListQuery,
      answer: Page(Vehicle),
      errors: { 400: invalid(['VALIDATION_ERROR', 'Status inválido']) },
      read: (request) => vehicles.list(teamOf(request), request.query),
    });
    routes.create({
      operationId: 'createPanelVehicle',
      summary: 'Register a vehicle (emits vehicle.created)',
      body: VehicleCreateBody,
      answer: Success(Vehicle),
      errors: { 400: errors, ...duplicates },
      write: (request) => vehicles.create(teamOf(request), request.body),
    });
    routes.get({
      operationId: 'getPanelVehicle',
      summary: 'A vehicle',
      answer: Success(Vehicle),
      read: (request) => vehicles.get(teamOf(request), request.params.id),
    });
    routes.update({
      operationId: 'updatePanelVehicle',
      summary: 'Change a vehicle: move ({phase}), mark sold ({status:"vendido"}), edit. Answers the whole vehicle.',
      body: VehicleUpdateBody,
      answer: Success(Vehicle),
      errors: { 400: errors, ...duplicates },
      write: async (request) => (await vehicles.update(teamOf(request), request.params.id, request.body)).vehicle,
    });
    routes.remove({
      operationId: 'archivePanelVehicle',
      summary: 'Archive a vehicle',
      answer: Success(VehicleArchived),
      write: async (request) => {
        const { vehicle, archivedAt } = await vehicles.archive(teamOf(request), request.params.id);
        return { id: vehicle.id, status: 'arquivado' as const, archived_at: archivedAt };
      },
    });
  };
}
