import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import type { VehiclesService } from '../../domain/vehicles/vehicles.service.js';
import { VEHICLE_PUT_SUMMARY, type VehicleUpdateResult, type VehicleView } from '../../domain/vehicles/vehicles.types.js';
import { teamOf } from '../auth.js';
import { crudRoutes } from '../crud-routes.js';
import { REPLAYED_HEADER, errors, ok } from '../openapi/route-docs.js';
import { Page, Success, Vehicle, VehicleArchived, VehicleUpdated } from '../schemas/responses.schema.js';
import { VehicleCreateBody, VehicleListQuery, VehicleUpdateBody } from '../schemas/vehicles.schema.js';
import { vehicleFieldProblems } from '../../domain/vehicles/vehicle-field-rules.js';
import { apiSurface } from './api-surface.js';
/** `Fase inválida` names the field and lists the team's vehicle board (here the default one). */
const PHASE_DETAIL = { field: 'phase', details: { allowed: ['entrada', 'preparacao', 'documentacao', 'disponivel', 'reservado'] } };
const IDENTIFIER_ERRORS: Array<[string, string, { field: string; details?: Record<string, unknown> }]> = [
  ['VALIDATION_ERROR', 'Placa inválida', { field: 'plate' }],
  ['VALIDATION_ERROR', 'RENAVAM inválido', { field: 'renavam' }],
  ['VALIDATION_ERROR', 'Chassi inválido', { field: 'chassis' }],
  ['VALIDATION_ERROR', 'Ano do modelo deve ser igual ao ano de fabricação ou o seguinte', { field: 'model_year' }],
  ['VALIDATION_ERROR', 'Fase inválida', PHASE_DETAIL],
];
const DUPLICATES = errors.unprocessable(
  ['DUPLICATE_ENTRY', 'Placa já cadastrada', { field: 'plate' }],
  ['DUPLICATE_ENTRY', 'Chassi já cadastrado', { field: 'chassis' }],
  ['DUPLICATE_ENTRY', 'RENAVAM já cadastrado', { field: 'renavam' }],
);

/** The PUT answer: id, the summary fields, every other field the body changed, updated_at. */
function updatedAnswer({ vehicle, changed }: VehicleUpdateResult): Static<typeof VehicleUpdated> {
  const fields = new Set<keyof VehicleView>(['id', ...VEHICLE_PUT_SUMMARY, ...changed, 'updated_at']);
  return Object.fromEntries([...fields].map((f) => [f, vehicle[f]])) as Static<typeof VehicleUpdated>;
}

export function vehiclesRoutes(vehicles: VehiclesService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const routes = crudRoutes(app, apiSurface('vehicles', 'Vehicles', 'Veículo não encontrado'), '/vehicles');
    routes.list({
      operationId: 'listVehicles',
      summary: 'List vehicles',
      description:
        'The stock. Archived vehicles are left out unless `status=arquivado`. `search` looks in title, brand, model, version, plate (any form, with or without dash) and chassis, ignoring case and accents. Bounds are inclusive.',
      querystring: VehicleListQuery,
      answer: ok(Page(Vehicle), "A page of the team's vehicles."),
      errors: {
        400: errors.badRequest(['VALIDATION_ERROR', "Parâmetro 'page' deve ser um número inteiro positivo"], ['VALIDATION_ERROR', 'Status inválido']),
      },
      read: async (request) => {
        const { data, pagination } = await vehicles.list(teamOf(request), request.query);
        return { data, pagination };
      },
    });
    routes.create({
      operationId: 'createVehicle',
      fieldRules: vehicleFieldProblems,
      summary: 'Create a vehicle',
      description:
        "Starts `ativo` in the first phase of the team's vehicle board (`entrada` by default) unless `phase` is given. Plate, chassis and RENAVAM are unique among the team's vehicles in stock (`ativo`); `ABC-1234` and `ABC1C34` are the same plate. Send an Idempotency-Key to retry safely.",
      body: VehicleCreateBody,
      answer: ok(Success(Vehicle), 'The created vehicle (or, with Idempotent-Replayed, the stored answer of the first request).', REPLAYED_HEADER),
      errors: { 400: errors.badRequest(['VALIDATION_ERROR', "Campo 'brand' é obrigatório", { field: 'brand' }], ...IDENTIFIER_ERRORS), 422: DUPLICATES },
      write: (request, options) => vehicles.create(teamOf(request), request.body, options),
    });
    routes.get({
      operationId: 'getVehicle',
      summary: 'Get a vehicle',
      answer: ok(Success(Vehicle), 'The vehicle.'),
      read: (request) => {
        const id = request.params.id;
        return vehicles.get(teamOf(request), id);
      },
    });
    routes.update({
      operationId: 'updateVehicle',
      fieldRules: vehicleFieldProblems,
      summary: 'Update a vehicle',
      description:
        'Any subset of the fields. Moves it on the board, reprices it, marks it sold (`vendido` sets `sold_at`, now unless sent; leaving `vendido` clears it), archives or brings it back into stock (422 when its plate, chassis or RENAVAM is taken by a car in stock).',
      body: VehicleUpdateBody,
      answer: ok(Success(VehicleUpdated), 'id, title, brand, model, price, phase, status, every other field the body changed, and updated_at.'),
      errors: { 400: errors.badRequest(['VALIDATION_ERROR', 'Nenhum campo para atualizar'], ...IDENTIFIER_ERRORS), 422: DUPLICATES },
      write: async (request) => updatedAnswer(await vehicles.update(teamOf(request), request.params.id, request.body)),
    });
    routes.remove({
      operationId: 'archiveVehicle',
      summary: 'Archive a vehicle',
      description: 'Soft delete: the vehicle becomes `arquivado` and is kept. Idempotent: archiving again answers with the original archived_at.',
      answer: ok(Success(VehicleArchived), 'The archived vehicle.'),
      write: async (request) => {
        const { vehicle, archivedAt } = await vehicles.archive(teamOf(request), request.params.id);
        return { id: vehicle.id, status: 'arquivado' as const, archived_at: archivedAt };
      },
    });
  };
}
