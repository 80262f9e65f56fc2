// A local HTTPS webhook receiver with a generated self-signed certificate (the idea of
// test/support/https-receiver.ts): records when each delivery arrives and which deal it is about.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface Arrival {
  /** Wall clock in ms with sub-ms precision (performance.timeOrigin + performance.now()). */
  at: number;
  eventType: string;
  objectId: string | null;
}

export interface Receiver {
  url: string;
  caFile: string;
  arrivals: Arrival[];
  /** Resolves when `count` arrivals are recorded, or after timeoutMs with what arrived. */
  waitFor(count: number, timeoutMs: number): Promise<number>;
  /** Resolves once no delivery has arrived for `quietMs`. */
  quiet(quietMs: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export const preciseNow = () => performance.timeOrigin + performance.now();

export async function startReceiver(): Promise<Receiver> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - 3_600_000),
    notAfterDate: new Date(Date.now() + 7 * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  const dir = mkdtempSync(join(tmpdir(), 'autosales-bench-receiver-'));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, pems.cert);
  const arrivals: Arrival[] = [];
  const sockets = new Set<Socket>();
  let lastArrival = 0;
  const server: Server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = preciseNow();
      lastArrival = at;
      let eventType = '';
      let objectId: string | null = null;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; data: { object: { id?: string } } };
        eventType = body.type;
        objectId = body.data.object.id ?? null;
      } catch {
        /* counted anyway */
      }
      arrivals.push({ at, eventType, objectId });
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
      res.end('ok');
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}/hooks/autosales`,
    caFile,
    arrivals,
    async waitFor(count, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (arrivals.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      return arrivals.length;
    },
    async quiet(quietMs, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      const start = preciseNow();
      while (Date.now() < deadline && preciseNow() - Math.max(lastArrival, start) < quietMs) await new Promise((r) => setTimeout(r, 50));
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
        rmSync(dir, { recursive: true, force: true });
      });
    },
  };
}
