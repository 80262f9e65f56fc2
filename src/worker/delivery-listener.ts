import pg from 'pg';
import { DELIVERIES_CHANNEL } from '../domain/events/delivery-signal.js';
import type { Logger } from '../domain/shared/logger.js';

export interface DeliveryListener {
  /** PostgreSQL backend pid of the LISTEN connection while connected (tests use it to cut the connection). */
  backendPid(): number | null;
  /** Stops listening and reconnecting; idempotent. */
  close(): Promise<void>;
}

export interface DeliveryListenerOptions {
  /** PostgreSQL URL (never logged: it may hold a password). */
  url: string;
  /** Called on every NOTIFY, and after every (re)connection: commits made while not listening are caught up at once. */
  onSignal: () => void;
  logger: Logger;
  /** First reconnection delay; doubled on each failure up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
}

/**
 * One dedicated PostgreSQL connection LISTENing on the deliveries channel (pool connections are
 * shared and come and go, so they cannot hold a LISTEN). NOTIFY is delivered at commit, so a
 * signal never arrives before the deliveries are visible. When the connection drops it is opened
 * again with a growing delay; signals sent meanwhile are lost, which costs at most one poll
 * interval, and `onSignal` runs once on reconnection to claim what was committed meanwhile.
 */
export function listenForDeliveries(options: DeliveryListenerOptions): DeliveryListener {
  const { url, onSignal, logger } = options;
  const firstRetryMs = options.retryMs ?? 500;
  const maxRetryMs = options.maxRetryMs ?? 30_000;
  let retryMs = firstRetryMs;
  let client: pg.Client | undefined;
  let connected = false;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let connecting: Promise<void> | undefined;

  function scheduleReconnect(): void {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connecting = connect();
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, maxRetryMs);
  }

  async function connect(): Promise<void> {
    if (closed) return;
    // TCP keepalive notices a silently dead connection (no FIN) so that it gets replaced.
    const current = new pg.Client({ connectionString: url, keepAlive: true, application_name: 'autosales-webhook-worker' });
    client = current;
    let dropped = false;
    const drop = (error?: Error): void => {
      if (dropped) return;
      dropped = true;
      if (client === current) {
        client = undefined;
        connected = false;
      }
      current.end().catch(() => undefined);
      if (closed) return;
      logger.warn(
        { err: error ? { code: (error as NodeJS.ErrnoException).code, message: error.message } : undefined },
        'conexão LISTEN de entregas caiu; reconectando',
      );
      scheduleReconnect();
    };
    current.on('notification', (message) => {
      if (message.channel === DELIVERIES_CHANNEL) onSignal();
    });
    current.on('error', (error: Error) => drop(error));
    current.on('end', () => drop());
    try {
      await current.connect();
      await current.query(`LISTEN ${DELIVERIES_CHANNEL}`);
    } catch (error) {
      drop(error as Error);
      return;
    }
    if (dropped || closed) {
      if (closed) await current.end().catch(() => undefined);
      return;
    }
    connected = true;
    retryMs = firstRetryMs;
    logger.debug({ channel: DELIVERIES_CHANNEL }, 'worker escutando NOTIFY de entregas');
    onSignal();
  }

  connecting = connect();

  return {
    backendPid: () => (connected ? ((client as unknown as { processID?: number | null } | undefined)?.processID ?? null) : null),
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(retryTimer);
      retryTimer = undefined;
      await connecting?.catch(() => undefined);
      const current = client;
      client = undefined;
      connected = false;
      await current?.end().catch(() => undefined);
    },
  };
}
