import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { gracefulDrain } from '../../src/http/graceful-close.js';
import { sleep, waitUntil } from '../support/wait.js';

/** The drain on its own (no database): what `startServer().close()` does before `app.close()`. */

interface Answer {
  status?: number;
  connection?: string;
  body?: string;
  error?: string;
}

function post(port: number, agent: http.Agent, body: string, sendFirst: number) {
  let request!: http.ClientRequest;
  const answer = new Promise<Answer>((resolve) => {
    request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/echo',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode, connection: res.headers.connection, body: text }));
      },
    );
    request.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
  });
  request.write(body.slice(0, sendFirst));
  return { answer, finish: () => request.end(body.slice(sendFirst)) };
}

const get = (port: number, agent?: http.Agent) =>
  new Promise<Answer>((resolve) => {
    http
      .get({ host: '127.0.0.1', port, path: '/ping', agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, connection: res.headers.connection }));
      })
      .on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
  });

describe('gracefulDrain', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  /** Requests the app has received (their headers read and routed), counted by an onRequest hook. */
  let received = 0;

  async function listening(graceMs: number) {
    app = Fastify();
    received = 0;
    app.addHook('onRequest', async () => void (received += 1));
    app.post('/echo', async (request) => request.body);
    app.get('/ping', async () => 'pong');
    // Registered after the routes, as server.ts does after buildApp.
    const drain = gracefulDrain(app, { graceMs });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { drain, port: (app.server.address() as AddressInfo).port };
  }

  it('answers a request still uploading its body (with Connection: close), refuses new connections, then resolves', async () => {
    const { drain, port } = await listening(300);
    const agent = new http.Agent({ keepAlive: true });
    expect(await get(port, agent)).toMatchObject({ status: 200, connection: 'keep-alive' });
    const upload = post(port, agent, JSON.stringify({ hello: 'mundo' }), 5);
    await waitUntil(() => received === 2, 5_000, 'the upload to be received');
    let drained = false;
    const draining = drain.drain().then(() => (drained = true));
    // New connections are refused (after one more turn of the event loop).
    let probe = await get(port);
    for (let i = 0; i < 50 && !probe.error; i++) probe = await get(port);
    expect(probe).toEqual({ error: 'ECONNREFUSED' });
    expect(drained).toBe(false);
    upload.finish();
    expect(await upload.answer).toEqual({ status: 200, connection: 'close', body: '{"hello":"mundo"}' });
    await draining;
    expect(drained).toBe(true);
    expect(await drain.drain()).toBeUndefined(); // idempotent
    agent.destroy();
  });

  it('keeps an idle keep-alive connection for the grace period (a request sent on it is answered), then closes it', async () => {
    const { drain, port } = await listening(400);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect(await get(port, agent)).toMatchObject({ status: 200, connection: 'keep-alive' });
    const started = Date.now();
    const draining = drain.drain();
    // Inside the 400 ms grace period (the behaviour under test is time-based: a real wait).
    await sleep(150);
    // The idle connection is still open: this request reuses it and is answered, with Connection: close.
    expect(await get(port, agent)).toEqual({ status: 200, connection: 'close' });
    await draining;
    expect(Date.now() - started).toBeLessThan(6_000);
    agent.destroy();
  });

  it('an idle keep-alive connection that stays idle is closed after the grace period', async () => {
    const { drain, port } = await listening(300);
    const agent = new http.Agent({ keepAlive: true });
    expect(await get(port, agent)).toMatchObject({ status: 200 });
    const started = Date.now();
    await drain.drain();
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(Date.now() - started).toBeLessThan(5_000);
    agent.destroy();
  });
});
