import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { EVENT_TYPES, NOT_YET_EMITTED } from '../../domain/events/event-types.js';
import { Client, Deal, Timestamp, VehicleEventObject } from '../schemas/responses.schema.js';
import { Activity, FinancialRecord } from '../schemas/agenda.schema.js';

const SIGNATURE_HEADERS = [
  { name: 'X-Service-Signature', description: 'Lowercase hex HMAC-SHA256 of `timestamp + "." + raw body` with the webhook secret.' },
  { name: 'X-Service-Timestamp', description: 'Unix time in seconds of sending; reject deliveries more than 300 s away from your clock.' },
  { name: 'X-Service-Event-Id', description: 'The event id (also `id` in the body): deduplicate on it.' },
].map((h) => ({ in: 'header', required: true, schema: { type: 'string' }, ...h }));

function eventPayload(type: string) {
  const object = type.startsWith('deal.')
    ? Deal
    : type.startsWith('client.')
      ? Client
      : type.startsWith('vehicle.')
        ? VehicleEventObject
        : type.startsWith('activity.')
          ? Activity
          : FinancialRecord;
  return {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'type', 'api_version', 'created_at', 'data', 'team_id', 'webhook_id'],
    properties: {
      id: { type: 'string', pattern: '^evt_[0-9a-f]{32}$' },
      type: { type: 'string', const: type },
      api_version: { type: 'string', const: 'v1' },
      created_at: Timestamp,
      data: {
        type: 'object',
        additionalProperties: false,
        required: ['object', 'previous_attributes'],
        properties: {
          object: object,
          previous_attributes: {
            type: ['object', 'null'],
            description: 'Earlier values of the changed attributes only (updated_at excluded); null on creation events.',
          },
        },
      },
      team_id: { type: 'string', format: 'uuid' },
      webhook_id: { type: 'string', format: 'uuid' },
    },
  };
}

const DELIVERY =
  'POSTed to the webhook URL configured for the team. Any 2xx within 5 s is success; anything else (redirects included, never followed) is retried at 0, 5 min, 30 min, 2 h, 12 h and 24 h. Delivery is at least once.';
const NOT_EMITTED = 'Not emitted yet: the kind is announced by the contract, but nothing in the service sends it today (`x-emitted: false`).';

/**
 * OpenAPI `webhooks`: one entry per event kind, with the signed delivery's headers and body.
 * `x-emitted` says whether the service sends the kind today (see NOT_YET_EMITTED).
 */
function webhooks() {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: NOT_YET_EMITTED.has(type) ? `Event ${type} (not emitted yet)` : `Event ${type}`,
          description: NOT_YET_EMITTED.has(type) ? `${NOT_EMITTED} ${DELIVERY}` : DELIVERY,
          'x-emitted': !NOT_YET_EMITTED.has(type),
          parameters: SIGNATURE_HEADERS,
          requestBody: { required: true, content: { 'application/json': { schema: eventPayload(type) } } },
          responses: { '2XX': { description: 'Received.' } },
        },
      },
    ]),
  );
}

/** The OpenAPI 3.1 document, generated from the route schemas (never written by hand). */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'autosales API',
        version,
        description:
          'Sales-management API for car dealerships and automotive shopping centres: deals and clients, with signed webhooks. ' +
          'Errors are `{success: false, error: {code, message}}` with messages in Portuguese.\n\n' +
          '**Full reference for integrators** (authentication and keys, every error code and message, list rules, soft delete, ' +
          'events, limits, versioning): [/docs/api.md](/docs/api.md), also `docs/api.md` in the repository. ' +
          'Webhook deliveries, signatures and a local receiver to try them: [/docs/webhooks.md](/docs/webhooks.md).',
      },
      servers: [{ url: '/', description: 'This server' }],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key: `Authorization: Bearer ask_…`' } },
      },
      tags: [
        { name: 'Deals', description: 'Sales opportunities moving through the pipeline.' },
        { name: 'Clients', description: 'Individuals (PF) and companies (PJ).' },
        { name: 'Unavailable', description: 'Announced endpoints that answer 501 for now.' },
        {
          name: 'Preview',
          description:
            "The contract's announced endpoints (financial records, activities, webhooks): 501 NOT_IMPLEMENTED unless an operator turned the area's preview on for the key's team; then served with their own scopes (`x-preview` names the area and scope).",
        },
        { name: 'Health', description: 'Where things are, liveness and readiness, without authentication.' },
      ],
      // Plain JSON Schema objects; the OpenAPI typings are narrower than what 3.1 allows here.
      webhooks: webhooks() as never,
    },
    hideUntagged: true,
    // The panel's routes have a document of their own (/panel/api/openapi.json, src/http/panel/panel-openapi.ts).
    transform: ({ schema, url }) => ({ schema: url.startsWith('/panel/') ? { ...schema, hide: true } : schema, url }),
  });
}
