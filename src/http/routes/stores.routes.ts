import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { StoresService } from '../../domain/stores/stores.service.js';
import { teamOf } from '../auth.js';
import { crudRoutes } from '../crud-routes.js';
import { errors, ok } from '../openapi/route-docs.js';
import { Page, Success } from '../schemas/responses.schema.js';
import { Store, StoreListQuery } from '../schemas/stores.schema.js';
import { apiSurface } from './api-surface.js';

/** GET /stores and GET /stores/:id: the team's stores, read only (owners manage them in the panel and the CLI). */
export function storesRoutes(stores: StoresService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const routes = crudRoutes(app, apiSurface('stores', 'Stores', 'Loja não encontrada'), '/stores');
    routes.list({
      operationId: 'listStores',
      summary: 'List stores',
      description:
        "The team's stores, active and inactive (`status` asks for one). `search` matches the name or the CNPJ (with or without punctuation), ignoring case and accents. A record's `store_id` names one of these.",
      querystring: StoreListQuery,
      answer: ok(Page(Store), "A page of the team's stores."),
      errors: { 400: errors.badRequest(['VALIDATION_ERROR', "Parâmetro 'limit' deve ser um número inteiro positivo"]) },
      read: (request) => stores.list(teamOf(request), request.query),
    });
    routes.get({
      operationId: 'getStore',
      summary: 'Get a store',
      answer: ok(Success(Store), 'The store.'),
      read: (request) => stores.get(teamOf(request), request.params.id),
    });
  };
}
