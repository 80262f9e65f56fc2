import { Redis } from 'ioredis';

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * A Redis connection for shared counters. Commands fail at once while it is down (no offline
 * queue), so the in-memory insurance limiter answers instead of requests waiting; it keeps
 * reconnecting in the background and takes over again when Redis is back.
 */
export function createRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  let healthy = true;
  redis.on('ready', () => {
    if (!healthy) logger.info({}, 'Redis de volta: limites de requisição compartilhados novamente');
    healthy = true;
  });
  redis.on('error', (error: Error) => {
    if (healthy) logger.warn({ err: { message: error.message } }, 'Redis indisponível: limites de requisição em memória até ele voltar');
    healthy = false;
  });
  return redis;
}
