import { Server as NetServer } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface GracefulDrain {
  /**
   * Stops accepting connections and resolves once every open connection has closed: requests in
   * flight (even those still sending their body) are answered first. Call before `app.close()`.
   */
  drain(): Promise<void>;
}

/**
 * `http.Server#close()` (what `app.close()` calls) closes at once every keep-alive connection with no
 * request being parsed, including those in which a client has just sent one that is not read yet:
 * that client sees a reset on a request it sent. So the drain here:
 *  1. stops listening (net.Server#close: new connections are refused, open ones stay), after one
 *     more turn of the event loop so that connections already queued by the kernel are accepted;
 *  2. answers everything with `Connection: close`, so each connection closes after its next answer
 *     and its client opens no more requests on it;
 *  3. after `graceMs`, closes the connections still idle: their clients sent nothing for that long.
 * Requests that were sent are answered; requests not yet sent are refused (ECONNREFUSED).
 */
export function gracefulDrain(app: FastifyInstance, { graceMs = 1_000, pollMs = 25 } = {}): GracefulDrain {
  let draining = false;
  let drained: Promise<void> | undefined;
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
  // A plain app.close() (tests, embedders) also lets connections go after their answers.
  app.addHook('preClose', (done) => {
    draining = true;
    done();
  });
  async function close(server: FastifyInstance['server']): Promise<void> {
    await turnOfTheLoop();
    const started = Date.now();
    // setImmediate: after this loop turn's I/O, so a request that has arrived (even late, behind a
    // busy event loop) is read, and its connection no longer idle, before idle connections close.
    const reaper = setInterval(() => {
      if (Date.now() - started >= graceMs) setImmediate(() => server.closeIdleConnections());
    }, pollMs);
    try {
      // The net-level close stops accepting without http's immediate reaping of idle connections;
      // its callback runs once the last connection has closed.
      await new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    } finally {
      clearInterval(reaper);
    }
  }
  return {
    drain() {
      draining = true;
      if (!drained && !app.server.listening) return Promise.resolve();
      return (drained ??= close(app.server));
    },
  };
}

/**
 * Resolves after the event loop has polled for I/O once more. A busy loop may not yet have accepted
 * connections that are waiting in the kernel's queue; closing the listener now would reset them,
 * requests included. After one more poll they are accepted and their requests answered.
 */
function turnOfTheLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
