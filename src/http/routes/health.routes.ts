import type { FastifyPluginAsync } from 'fastify';
import { messages } from '../../domain/shared/errors.js';
import { envelope } from '../error-handler.js';
import { ErrorEnvelope } from '../schemas/common.schema.js';

/** What readiness checks: resolves when the database answers (the app passes its Db). */
export interface Readiness {
  ping(): Promise<void>;
}

/** Outside /api/v1 and without auth: liveness (process up) and readiness (database answers). */
export function healthRoutes(db: Readiness): FastifyPluginAsync {
  return async (app) => {
    const status = (value: string) => ({
      type: 'object',
      additionalProperties: false,
      required: ['success', 'data'],
      properties: {
        success: { const: true },
        data: { type: 'object', additionalProperties: false, required: ['status'], properties: { status: { const: value } } },
      },
    });
    app.get(
      '/health',
      { schema: { tags: ['Health'], summary: 'Liveness: the process is up', response: { 200: { ...status('ok'), description: 'Up.' } } } },
      async () => ({ success: true, data: { status: 'ok' } }),
    );
    const ready = {
      tags: ['Health'],
      summary: 'Readiness: the database answers',
      response: {
        200: { ...status('ready'), description: 'Ready.' },
        503: { ...ErrorEnvelope, description: 'Database unreachable.', examples: [envelope('SERVICE_UNAVAILABLE', messages.databaseUnavailable)] },
      },
    };
    app.get('/ready', { schema: ready }, async (request, reply) => {
      try {
        await db.ping();
        return { success: true, data: { status: 'ready' } };
      } catch (error) {
        request.log.warn({ err: error }, 'banco de dados indisponível');
        return reply.status(503).send(envelope('SERVICE_UNAVAILABLE', messages.databaseUnavailable));
      }
    });
  };
}
