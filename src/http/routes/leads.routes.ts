import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { LeadsService } from '../../domain/leads/leads.service.js';
import type { LeadOutcome } from '../../domain/leads/leads.types.js';
import { teamScope } from '../../domain/reads/scope.js';
import { teamOf } from '../auth.js';
import { crudRoutes } from '../crud-routes.js';
import { REPLAYED_HEADER, errors, ok } from '../openapi/route-docs.js';
import { LeadAnswer, LeadCreateBody } from '../schemas/leads.schema.js';
import { Success } from '../schemas/responses.schema.js';
import { apiSurface } from './api-surface.js';

const DESCRIPTION = [
  'One call from a site, a portal or a bot. In one transaction the client is found in the book the key sees (by CPF/CNPJ, else e-mail ignoring case,',
  'else any phone by its digits without `55` or a leading `0`) or created, and contact fields it lacks are filled in (never overwritten).',
  'When that client has an `ativo` deal created in the last 30 days for the same car (or, without a car, from the same source), the message is',
  'added to it as a `note` and the answer is 200 with `duplicate: true`. Otherwise a deal is opened in the first phase (title `<car> — <name>` or',
  "`Lead <source> — <name>`, value as sent or the car's price, `case_id` the car), a responsible is assigned by the team's distribution",
  '(round-robin among the people who take leads, a fixed user, or none), and a `call` activity "Responder lead" is due after the team\'s response',
  'target (15 minutes unless changed). Events: `client.created` (new client), `deal.created`, `activity.created`. The same `source` + `external_id`',
  'again, even at the same moment, answers the first result with 200 and creates nothing; an Idempotency-Key works as on every POST.',
].join(' ');

export function leadsRoutes(leads: LeadsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const routes = crudRoutes(app, apiSurface('leads', 'Leads', 'Lead não encontrado'), '/leads');
    routes.create({
      operationId: 'createLead',
      summary: 'Receive a lead',
      description: DESCRIPTION,
      body: LeadCreateBody,
      answer: ok(
        Success(LeadAnswer),
        'A deal was opened: the deal, the client (found or created), whether it was created, and the responsible.',
        REPLAYED_HEADER,
      ),
      errors: {
        200: ok(
          Success(LeadAnswer),
          'No deal was opened: the lead joined a recent deal of the client (`duplicate: true`), or repeats a `source` + `external_id` already received (its first answer).',
          REPLAYED_HEADER,
        ),
        400: errors.badRequest(
          ['VALIDATION_ERROR', "Campo 'name' é obrigatório", { field: 'name' }],
          ['VALIDATION_ERROR', 'Informe um e-mail ou telefone', { field: 'email' }],
          ['VALIDATION_ERROR', 'CPF inválido', { field: 'cpf' }],
          ['VALIDATION_ERROR', 'Veículo não encontrado', { field: 'plate' }],
          ['VALIDATION_ERROR', 'JSON inválido'],
        ),
        422: errors.unprocessable(['VALIDATION_ERROR', 'Esta Idempotency-Key já foi usada com uma requisição diferente']),
      },
      write: (request, options: Parameters<LeadsService['receive']>[2]) => leads.receive(teamScope(teamOf(request)), request.body, options),
      outcome: (outcome: LeadOutcome) => ({ status: outcome.status, data: outcome.result }),
    });
  };
}
