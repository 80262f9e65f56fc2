import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import type { VehiclesService } from '../../domain/vehicles/vehicles.service.js';
import { VEHICLE_PUT_SUMMARY, type VehicleUpdateResult, type VehicleView } from '../../domain/vehicles/vehicles.types.js';
import { readConfirmed, teamOf } from '../auth.js';
import { answerInTransaction } from '../idempotency.js';
import { BEARER, REPLAYED_HEADER, authErrors, bodyErrors, errors, ok } from '../openapi/route-docs.js';
import { IdParams, IdempotencyHeaders } from '../schemas/common.schema.js';
import { Page, Success, Vehicle, VehicleArchived, VehicleUpdated } from '../schemas/responses.schema.js';
import { VehicleCreateBody, VehicleListQuery, VehicleUpdateBody } from '../schemas/vehicles.schema.js';

/** GET by id and the list: the read itself confirms a cached authentication (auth.ts, `readConfirmed`). */
const confirmedRead = { auth: { scope: 'vehicles:read', confirmedByRead: true } } as const;
const write = { auth: { scope: 'vehicles:write' } } as const;
const doc = { tags: ['Vehicles'], security: BEARER };
const notFound = { 404: errors.notFound('Veículo não encontrado') };
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
    app.get(
      '/vehicles',
      {
        config: confirmedRead,
        schema: {
          ...doc,
          operationId: 'listVehicles',
          summary: 'List vehicles',
          description:
            'The stock. Archived vehicles are left out unless `status=arquivado`. `search` looks in title, brand, model, version, plate (any form, with or without dash) and chassis, ignoring case and accents. Bounds are inclusive.',
          querystring: VehicleListQuery,
          response: {
            ...authErrors,
            200: ok(Page(Vehicle), "A page of the team's vehicles."),
            400: errors.badRequest(['VALIDATION_ERROR', "Parâmetro 'page' deve ser um número inteiro positivo"], ['VALIDATION_ERROR', 'Status inválido']),
          },
        },
      },
      async (request) => {
        const { data, pagination } = await readConfirmed(
          request,
          (teamId) => vehicles.list(teamId, request.query),
          (teamId) => vehicles.listWithAuthEpoch(teamId, request.query),
        );
        return { success: true as const, data, pagination };
      },
    );

    app.post(
      '/vehicles',
      {
        config: { ...write, idempotent: true },
        schema: {
          ...doc,
          operationId: 'createVehicle',
          summary: 'Create a vehicle',
          description:
            "Starts `ativo` in the first phase of the team's vehicle board (`entrada` by default) unless `phase` is given. Plate, chassis and RENAVAM are unique among the team's vehicles in stock (`ativo`); `ABC-1234` and `ABC1C34` are the same plate. Send an Idempotency-Key to retry safely.",
          headers: IdempotencyHeaders,
          body: VehicleCreateBody,
          response: {
            ...authErrors,
            ...bodyErrors,
            201: ok(Success(Vehicle), 'The created vehicle (or, with Idempotent-Replayed, the stored answer of the first request).', REPLAYED_HEADER),
            400: errors.badRequest(['VALIDATION_ERROR', "Campo 'brand' é obrigatório", { field: 'brand' }], ...IDENTIFIER_ERRORS),
            409: errors.conflict,
            422: DUPLICATES,
          },
        },
      },
      async (request, reply) => {
        const answer = (vehicle: VehicleView) => ({ success: true as const, data: vehicle });
        const vehicle = await vehicles.create(teamOf(request), request.body, answerInTransaction(request, 201, answer));
        return reply.status(201).send(answer(vehicle));
      },
    );

    app.get(
      '/vehicles/:id',
      {
        config: confirmedRead,
        schema: {
          ...doc,
          operationId: 'getVehicle',
          summary: 'Get a vehicle',
          params: IdParams,
          response: { ...authErrors, 200: ok(Success(Vehicle), 'The vehicle.'), ...notFound },
        },
      },
      async (request) => {
        const id = request.params.id;
        const data = await readConfirmed(
          request,
          (teamId) => vehicles.get(teamId, id),
          (teamId) => vehicles.getWithAuthEpoch(teamId, id),
        );
        return { success: true as const, data };
      },
    );

    app.put(
      '/vehicles/:id',
      {
        config: write,
        schema: {
          ...doc,
          operationId: 'updateVehicle',
          summary: 'Update a vehicle',
          description:
            'Any subset of the fields. Moves it on the board, reprices it, marks it sold (`vendido` sets `sold_at`, now unless sent; leaving `vendido` clears it), archives or brings it back into stock (422 when its plate, chassis or RENAVAM is taken by a car in stock).',
          params: IdParams,
          body: VehicleUpdateBody,
          response: {
            ...authErrors,
            ...bodyErrors,
            200: ok(Success(VehicleUpdated), 'id, title, brand, model, price, phase, status, every other field the body changed, and updated_at.'),
            400: errors.badRequest(['VALIDATION_ERROR', 'Nenhum campo para atualizar'], ...IDENTIFIER_ERRORS),
            ...notFound,
            422: DUPLICATES,
          },
        },
      },
      async (request) => ({ success: true as const, data: updatedAnswer(await vehicles.update(teamOf(request), request.params.id, request.body)) }),
    );

    app.delete(
      '/vehicles/:id',
      {
        config: write,
        schema: {
          ...doc,
          operationId: 'archiveVehicle',
          summary: 'Archive a vehicle',
          description: 'Soft delete: the vehicle becomes `arquivado` and is kept. Idempotent: archiving again answers with the original archived_at.',
          params: IdParams,
          response: { ...authErrors, ...bodyErrors, 200: ok(Success(VehicleArchived), 'The archived vehicle.'), ...notFound },
        },
      },
      async (request) => {
        const { vehicle, archivedAt } = await vehicles.archive(teamOf(request), request.params.id);
        return { success: true as const, data: { id: vehicle.id, status: 'arquivado' as const, archived_at: archivedAt } };
      },
    );
  };
}
