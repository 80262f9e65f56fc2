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
 *  1. stops listening (net.Server#close: new connections are refused, open ones stay);
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
  return {
    drain() {
      draining = true;
      const server = app.server;
      if (!drained && !server.listening) return Promise.resolve();
      return (drained ??= new Promise<void>((resolve) => {
        const started = Date.now();
        // setImmediate: after this loop turn's I/O, so a request that has arrived (even late, behind a
        // busy event loop) is read, and its connection no longer idle, before idle connections close.
        const reaper = setInterval(() => {
          if (Date.now() - started >= graceMs) setImmediate(() => server.closeIdleConnections());
        }, pollMs);
        // The net-level close stops accepting without http's immediate reaping of idle connections;
        // its callback runs once the last connection has closed.
        NetServer.prototype.close.call(server, () => {
          clearInterval(reaper);
          resolve();
        });
      }));
    },
  };
}
