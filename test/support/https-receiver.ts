import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { isIPv6, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

/**
 * A real HTTPS receiver for webhook tests.
 *
 *   const receiver = await startHttpsReceiver();
 *   process.env.NODE_EXTRA_CA_CERTS = receiver.caFile;  // before creating the sender
 *   receiver.respond(() => ({ status: 500, body: 'nope' }));
 *   ... send to receiver.url ...
 *   const [req] = await receiver.waitFor(1);
 *   await receiver.close();
 *
 * The certificate (self-signed, valid for localhost, 127.0.0.1 and ::1) is generated
 * once per process and shared by every receiver, so `caFile` is the same for all.
 */

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  receivedAt: number;
}

export interface ReceiverResponse {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Wait this long after the request arrived before answering. */
  delayMs?: number;
}

export interface HttpsReceiver {
  /** `https://<hostname>:<port>/hook` */
  url: string;
  port: number;
  /** PEM of the (self-signed) certificate: trust it to talk to the receiver. */
  caPem: string;
  /** Path of a file holding `caPem`, e.g. for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  /** Every request received so far, in arrival order (body complete). */
  requests: ReceivedRequest[];
  /** TLS connections accepted so far (one kept-alive connection carries many requests). */
  connectionCount(): number;
  /** Sets how the following requests are answered; default 200 `ok`. */
  respond(handler: (req: ReceivedRequest) => ReceiverResponse): void;
  /** Resolves with the first `count` requests once that many have arrived; rejects after `timeoutMs` (default 5000). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Stops listening, destroys open sockets and pending delayed answers. Idempotent. */
  close(): Promise<void>;
}

interface Credentials {
  key: string;
  cert: string;
  caFile: string;
}

let credentials: Promise<Credentials> | undefined;

function loadCredentials(): Promise<Credentials> {
  credentials ??= (async () => {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate: new Date(Date.now() - 60 * 60 * 1000),
      notAfterDate: new Date(Date.now() + 7 * 24 * 60 * 60 * 1000),
      extensions: [
        { name: 'basicConstraints', cA: false, critical: true },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
            { type: 7, ip: '::1' },
          ],
        },
      ],
    });
    const dir = mkdtempSync(join(tmpdir(), 'autosales-receiver-'));
    const caFile = join(dir, 'receiver-ca.pem');
    writeFileSync(caFile, pems.cert);
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return { key: pems.private, cert: pems.cert, caFile };
  })();
  // A failed generation must not poison the cache for the next caller.
  credentials.catch(() => {
    credentials = undefined;
  });
  return credentials;
}

const defaultHandler = (): ReceiverResponse => ({ status: 200, body: 'ok' });

export async function startHttpsReceiver(options: { host?: string; hostname?: string } = {}): Promise<HttpsReceiver> {
  const { key, cert, caFile } = await loadCredentials();
  const host = options.host ?? '127.0.0.1';
  const hostname = options.hostname ?? (options.host === undefined ? 'localhost' : isIPv6(host) ? `[${host}]` : host);

  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const waiters = new Set<() => void>();
  let handler: (req: ReceivedRequest) => ReceiverResponse = defaultHandler;
  let closed: Promise<void> | undefined;

  const server: Server = createServer({ key, cert }, (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: { ...req.headers },
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      requests.push(received);
      for (const wake of [...waiters]) wake();

      let answer: ReceiverResponse;
      try {
        answer = handler(received);
      } catch (error) {
        answer = { status: 500, body: `receiver handler threw: ${String(error)}` };
      }
      const reply = (): void => {
        if (res.destroyed || res.writableEnded) return;
        const body = answer.body ?? '';
        res.writeHead(answer.status, {
          'content-type': 'text/plain; charset=utf-8',
          'content-length': String(Buffer.byteLength(body)),
          ...answer.headers,
        });
        res.end(body);
      };
      if (answer.delayMs !== undefined && answer.delayMs > 0) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          reply();
        }, answer.delayMs);
        timers.add(timer);
      } else {
        reply();
      }
    });
  });

  // Raw TCP sockets, so close() can also end half-open TLS handshakes.
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  let tlsConnections = 0;
  server.on('secureConnection', () => {
    tlsConnections += 1;
  });
  // A client refusing our certificate is expected in tests: not an error here.
  server.on('tlsClientError', () => {});

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `https://${hostname}:${port}/hook`,
    port,
    caPem: cert,
    caFile,
    requests,
    connectionCount: () => tlsConnections,
    respond(next) {
      handler = next;
    },
    waitFor(count, timeoutMs = 5000) {
      if (requests.length >= count) return Promise.resolve(requests.slice(0, count));
      return new Promise<ReceivedRequest[]>((resolve, reject) => {
        const wake = (): void => {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(requests.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`HTTPS receiver: expected ${count} request(s) within ${timeoutMs} ms, got ${requests.length}`));
        }, timeoutMs);
        waiters.add(wake);
      });
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
        sockets.clear();
      });
      return closed;
    },
  };
}
