import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../storage/db.js';
import { messages } from '../../errors.js';
import { envelope } from '../error-handler.js';

/** Outside /api/v1 and without auth: liveness (process up) and readiness (database answers). */
export function healthRoutes(db: Pick<Db, 'ping'>): FastifyPluginAsync {
  return async (app) => {
    app.get('/health', async () => ({ success: true, data: { status: 'ok' } }));
    app.get('/ready', async (request, reply) => {
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
