import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer as createNetServer, getDefaultAutoSelectFamily, setDefaultAutoSelectFamily, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookSender, type SendResult } from '../../src/worker/webhook-sender.js';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver.js';
import { sleep } from '../support/wait.js';

const TIMEOUT_MS = 300;
const originalExtraCa = process.env.NODE_EXTRA_CA_CERTS;

let receiver: HttpsReceiver;

/** A sender that trusts the receiver's certificate (read from NODE_EXTRA_CA_CERTS at creation). */
function trustingSender(allowPrivateTargets = true, timeoutMs = 2000): ReturnType<typeof createWebhookSender> {
  process.env.NODE_EXTRA_CA_CERTS = receiver.caFile;
  try {
    return createWebhookSender({ timeoutMs, allowPrivateTargets });
  } finally {
    restoreExtraCa();
  }
}

function restoreExtraCa(): void {
  if (originalExtraCa === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
  else process.env.NODE_EXTRA_CA_CERTS = originalExtraCa;
}

function expectShape(result: SendResult): void {
  expect(Number.isInteger(result.durationMs)).toBe(true);
  expect(result.durationMs).toBeGreaterThanOrEqual(0);
  expect(JSON.stringify(result)).not.toMatch(/signature/i);
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A plain TCP listener on 127.0.0.1 counting the connections it accepts and the bytes it receives. */
async function startCountingTcp() {
  const counts = { connections: 0, bytes: 0 };
  const tcp = createNetServer((socket) => {
    counts.connections += 1;
    socket.on('data', (chunk: Buffer) => {
      counts.bytes += chunk.length;
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  return {
    port: (tcp.address() as AddressInfo).port,
    get connections() {
      return counts.connections;
    },
    get bytes() {
      return counts.bytes;
    },
    close: () => new Promise<void>((resolve) => tcp.close(() => resolve())),
  };
}

/**
 * The short sleeps below follow a refused or redirected attempt and check that nothing reaches the
 * server afterwards: there is no event to wait for, only a moment for any stray bytes to arrive.
 */
const settle = () => sleep(50);

beforeAll(async () => {
  receiver = await startHttpsReceiver();
});

afterEach(() => {
  receiver.respond(() => ({ status: 200, body: 'ok' }));
  receiver.requests.length = 0;
  restoreExtraCa();
});

afterAll(async () => {
  await receiver?.close();
  restoreExtraCa();
});

describe('webhook sender: delivery outcomes', () => {
  it('delivers a 200: method, path, headers and body arrive byte-identical', async () => {
    const body = JSON.stringify({ id: 'evt_1', type: 'deal.created', data: { nome: 'João Ávila', emoji: '🚗' } });
    const headers = {
      'Content-Type': 'application/json',
      'X-Service-Signature': 'a'.repeat(64),
      'X-Service-Timestamp': '1700000000',
      'X-Service-Event-Id': 'evt_1',
    };
    const result = await trustingSender().send(`${receiver.url}?x=1`, body, headers);

    expect(result).toMatchObject({ ok: true, statusCode: 200, errorClass: null, responseBody: 'ok' });
    expectShape(result);
    const [req] = await receiver.waitFor(1);
    expect(req?.method).toBe('POST');
    expect(req?.url).toBe('/hook?x=1');
    expect(req?.body).toBe(body);
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.headers['x-service-signature']).toBe('a'.repeat(64));
    expect(req?.headers['x-service-timestamp']).toBe('1700000000');
    expect(req?.headers['x-service-event-id']).toBe('evt_1');
    expect(req?.headers['content-length']).toBe(String(Buffer.byteLength(body)));
  });

  it.each([201, 204])('treats %i as success', async (status) => {
    receiver.respond(() => ({ status, body: status === 204 ? '' : 'created' }));
    const result = await trustingSender().send(receiver.url, '{}', { 'Content-Type': 'application/json' });
    expect(result).toMatchObject({ ok: true, statusCode: status, errorClass: null });
    expect(result.responseBody).toBe(status === 204 ? '' : 'created');
  });

  it('500 → http, with the status and the response body cut to 2048 bytes', async () => {
    receiver.respond(() => ({ status: 500, body: 'x'.repeat(10 * 1024) }));
    const result = await trustingSender().send(receiver.url, '{}', {});
    expect(result).toMatchObject({ ok: false, statusCode: 500, errorClass: 'http' });
    expect(result.responseBody).toBe('x'.repeat(2048));
    expectShape(result);
  });

  it('does not split a multi-byte character at the 2048-byte cut', async () => {
    receiver.respond(() => ({ status: 400, body: `${'a'.repeat(2047)}é and more` }));
    const result = await trustingSender().send(receiver.url, '{}', {});
    expect(result).toMatchObject({ ok: false, statusCode: 400, errorClass: 'http' });
    expect(result.responseBody).toBe('a'.repeat(2047));
  });

  it.each([301, 302])('%i → redirect, and the Location is never requested', async (status) => {
    const location = receiver.url.replace('/hook', '/elsewhere');
    receiver.respond((req) => (req.url === '/hook' ? { status, headers: { location } } : { status: 200 }));
    const result = await trustingSender().send(receiver.url, '{}', {});
    expect(result).toMatchObject({ ok: false, statusCode: status, errorClass: 'redirect' });
    await settle();
    expect(receiver.requests.map((r) => r.url)).toEqual(['/hook']);
  });

  it('a receiver slower than timeoutMs → timeout, within about timeoutMs', async () => {
    receiver.respond(() => ({ status: 200, body: 'late', delayMs: 3000 }));
    const started = Date.now();
    const result = await trustingSender(true, TIMEOUT_MS).send(receiver.url, '{}', {});
    const wall = Date.now() - started;
    expect(result).toMatchObject({ ok: false, statusCode: null, errorClass: 'timeout', responseBody: null });
    expect(result.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    // Far below the receiver's 3 s: the timeout, not the receiver, ended it (margin for a loaded CI machine).
    expect(result.durationMs).toBeLessThan(TIMEOUT_MS + 2000);
    expect(wall).toBeLessThan(TIMEOUT_MS + 2000);
  });

  it('connection refused → connection', async () => {
    const port = await closedPort();
    const result = await trustingSender().send(`https://localhost:${port}/hook`, '{}', {});
    expect(result).toMatchObject({ ok: false, statusCode: null, errorClass: 'connection', responseBody: null });
  });

  it('unknown host → dns (with and without the private-target guard)', async () => {
    for (const allow of [true, false]) {
      const result = await createWebhookSender({ timeoutMs: 5000, allowPrivateTargets: allow }).send('https://nonexistent.invalid/', '{}', {});
      expect(result).toMatchObject({ ok: false, statusCode: null, errorClass: 'dns', responseBody: null });
    }
  });

  it('a certificate that is not trusted → tls, and no request is delivered', async () => {
    delete process.env.NODE_EXTRA_CA_CERTS;
    const sender = createWebhookSender({ timeoutMs: 2000, allowPrivateTargets: true });
    const result = await sender.send(receiver.url, '{}', {});
    expect(result).toMatchObject({ ok: false, statusCode: null, errorClass: 'tls', responseBody: null });
    expect(receiver.requests).toHaveLength(0);
  });

  it('reads NODE_EXTRA_CA_CERTS when the sender is created, not per send', async () => {
    process.env.NODE_EXTRA_CA_CERTS = receiver.caFile;
    const trusting = createWebhookSender({ timeoutMs: 2000, allowPrivateTargets: true });
    delete process.env.NODE_EXTRA_CA_CERTS;
    expect((await trusting.send(receiver.url, '{}', {})).ok).toBe(true);
  });
});

describe('webhook sender: SSRF guard', () => {
  it('refuses http:// without any network I/O', async () => {
    let hits = 0;
    const plain: HttpServer = createHttpServer((_req, res) => {
      hits += 1;
      res.end('ok');
    });
    plain.on('connection', () => {
      hits += 1;
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = plain.address() as AddressInfo;
      for (const allow of [true, false]) {
        const result = await createWebhookSender({ timeoutMs: 1000, allowPrivateTargets: allow }).send(`http://127.0.0.1:${port}/hook`, '{}', {});
        expect(result).toMatchObject({ ok: false, statusCode: null, errorClass: 'blocked', responseBody: null });
      }
      await settle();
      expect(hits).toBe(0);
    } finally {
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
  });

  it.each(['ftp://example.com/', 'not a url', '', 'https://'])('refuses %j as blocked', async (url) => {
    const result = await createWebhookSender({ timeoutMs: 1000, allowPrivateTargets: true }).send(url, '{}', {});
    expect(result).toMatchObject({ ok: false, errorClass: 'blocked', statusCode: null });
  });

  it.each([
    ['IP literal (checked before connecting)', (port: number) => `https://127.0.0.1:${port}/hook`],
    ['hostname resolving to loopback (lookup check)', (port: number) => `https://localhost:${port}/hook`],
    ['IPv4-mapped IPv6 literal', (port: number) => `https://[::ffff:127.0.0.1]:${port}/hook`],
  ])('blocks a %s and the receiver sees no request', async (_label, makeUrl) => {
    const sender = trustingSender(false);
    const result = await sender.send(makeUrl(receiver.port), '{"id":"evt_x"}', { 'X-Service-Signature': 'secret-ish' });
    expect(result).toMatchObject({ ok: false, statusCode: null, errorClass: 'blocked', responseBody: null });
    expectShape(result);
    await settle();
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses a name resolving to a blocked address, and an IP literal, before connecting', async () => {
    const tcp = await startCountingTcp();
    try {
      const { port } = tcp;
      const sender = createWebhookSender({ timeoutMs: 1000, allowPrivateTargets: false });

      // Both dns.lookup callback forms: `all: true` (happy eyeballs) and single address.
      const autoSelect = getDefaultAutoSelectFamily();
      try {
        for (const mode of [true, false]) {
          setDefaultAutoSelectFamily(mode);
          const byName = await sender.send(`https://localhost:${port}/hook`, '{}', {});
          expect(byName.errorClass).toBe('blocked');
        }
      } finally {
        setDefaultAutoSelectFamily(autoSelect);
      }
      await settle();
      expect(tcp.connections).toBe(0); // refused at lookup: no TCP connection at all

      const byIp = await sender.send(`https://127.0.0.1:${port}/hook`, '{}', {});
      expect(byIp.errorClass).toBe('blocked');
      await settle();
      expect(tcp.connections).toBe(0); // an IP literal is parsed and checked before any socket exists
    } finally {
      await tcp.close();
    }
  });

  it('blocks ::1 and the receiver listening there sees no request', async () => {
    let v6: HttpsReceiver;
    try {
      v6 = await startHttpsReceiver({ host: '::1' });
    } catch {
      return; // no IPv6 loopback on this machine
    }
    try {
      expect(v6.url).toBe(`https://[::1]:${v6.port}/hook`);
      const blocked = await trustingSender(false).send(v6.url, '{}', {});
      expect(blocked).toMatchObject({ ok: false, errorClass: 'blocked' });
      await settle();
      expect(v6.requests).toHaveLength(0);

      const allowed = await trustingSender(true).send(v6.url, '{}', {});
      expect(allowed).toMatchObject({ ok: true, statusCode: 200 });
      expect(v6.requests).toHaveLength(1);
    } finally {
      await v6.close();
    }
  });

  it('delivers to the same private targets when allowPrivateTargets is true', async () => {
    const sender = trustingSender(true);
    const byName = await sender.send(receiver.url, 'a', {});
    const byIp = await sender.send(`https://127.0.0.1:${receiver.port}/hook`, 'b', {});
    expect(byName).toMatchObject({ ok: true, statusCode: 200, errorClass: null });
    expect(byIp).toMatchObject({ ok: true, statusCode: 200, errorClass: null });
    expect((await receiver.waitFor(2)).map((r) => r.body)).toEqual(['a', 'b']);
  });

  it('repeated and parallel attempts to an IP literal are each refused without a connection (nothing to pool)', async () => {
    const tcp = await startCountingTcp();
    try {
      const { port } = tcp;
      const sender = createWebhookSender({ timeoutMs: 1000, allowPrivateTargets: false });
      for (let i = 0; i < 3; i += 1) {
        expect((await sender.send(`https://127.0.0.1:${port}/hook`, '{}', {})).errorClass).toBe('blocked');
      }
      const parallel = await Promise.all([0, 1, 2].map(() => sender.send(`https://127.0.0.1:${port}/hook`, '{}', {})));
      expect(parallel.map((r) => r.errorClass)).toEqual(['blocked', 'blocked', 'blocked']);
      await settle();
      expect(tcp.connections).toBe(0);
      expect(tcp.bytes).toBe(0);
      sender.close();
    } finally {
      await tcp.close();
    }
  });

  it('the guarded and the permissive sender never share connections', async () => {
    const permissive = trustingSender(true);
    expect((await permissive.send(receiver.url, 'a', {})).ok).toBe(true);
    // The permissive sender now holds an idle connection to the receiver; the guarded one must not use it.
    const guarded = trustingSender(false);
    expect((await guarded.send(receiver.url, 'b', {})).errorClass).toBe('blocked');
    await settle();
    expect(receiver.requests.map((r) => r.body)).toEqual(['a']);
    permissive.close();
    guarded.close();
  });
});

describe('webhook sender: connection reuse', () => {
  it('sends several attempts to one origin over one kept-alive connection; close() drops it', async () => {
    const sender = trustingSender(true);
    const before = receiver.connectionCount();
    for (let i = 0; i < 5; i += 1) {
      expect((await sender.send(receiver.url, String(i), {})).ok).toBe(true);
    }
    const requests = await receiver.waitFor(5);
    for (const req of requests) expect(req.headers.connection).toBe('keep-alive');
    expect(receiver.connectionCount() - before).toBe(1);

    sender.close();
    expect((await sender.send(receiver.url, 'after close', {})).ok).toBe(true);
    expect(receiver.connectionCount() - before).toBe(2);
    sender.close();
  });

  it('parallel attempts to one origin open no more connections than maxSocketsPerOrigin, and reuse them', async () => {
    process.env.NODE_EXTRA_CA_CERTS = receiver.caFile;
    const sender = createWebhookSender({ timeoutMs: 5000, allowPrivateTargets: true, maxSocketsPerOrigin: 3 });
    restoreExtraCa();
    receiver.respond(() => ({ status: 200, body: 'ok', delayMs: 20 }));
    const before = receiver.connectionCount();
    for (let round = 0; round < 2; round += 1) {
      const results = await Promise.all(Array.from({ length: 9 }, (_, i) => sender.send(receiver.url, `${round}-${i}`, {})));
      expect(results.every((r) => r.ok)).toBe(true);
    }
    expect(receiver.requests).toHaveLength(18);
    expect(receiver.connectionCount() - before).toBeLessThanOrEqual(3);
    sender.close();
  });

  it('a kept-alive connection the receiver dropped is replaced: the attempt goes out once more on a new connection', async () => {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] }],
    });
    const dir = mkdtempSync(join(tmpdir(), 'autosales-stale-'));
    const caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, pems.cert);
    // Answers the first request of each connection; resets a connection on its second request
    // without answering, as a receiver does that closes an idle connection just as it is reused.
    const perSocket = new WeakMap<object, number>();
    const bodies: string[] = [];
    let connections = 0;
    const server: HttpsServer = createHttpsServer({ key: pems.private, cert: pems.cert }, (req, res) => {
      const seen = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, seen);
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        bodies.push(body);
        if (seen > 1) req.socket.destroy();
        else res.end('ok');
      });
    });
    server.on('secureConnection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      process.env.NODE_EXTRA_CA_CERTS = caFile;
      const sender = createWebhookSender({ timeoutMs: 3000, allowPrivateTargets: true });
      restoreExtraCa();
      const url = `https://localhost:${port}/hook`;
      expect(await sender.send(url, 'first', {})).toMatchObject({ ok: true, statusCode: 200 });
      expect(await sender.send(url, 'second', {})).toMatchObject({ ok: true, statusCode: 200, errorClass: null });
      expect(bodies).toEqual(['first', 'second', 'second']);
      expect(connections).toBe(2);
      sender.close();
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('https receiver helper', () => {
  it('serves the same cached certificate, waits for requests and closes with sockets open', async () => {
    const other = await startHttpsReceiver();
    expect(other.caPem).toBe(receiver.caPem);
    expect(other.caFile).toBe(receiver.caFile);
    expect(other.url).toBe(`https://localhost:${other.port}/hook`);
    await expect(other.waitFor(1, 50)).rejects.toThrow(/expected 1 request/);

    other.respond(() => ({ status: 200, delayMs: 10_000 }));
    const pending = trustingSender(true, 5000).send(other.url, '{}', {});
    await other.waitFor(1);
    const started = Date.now();
    await other.close();
    expect(Date.now() - started).toBeLessThan(4000); // the receiver would hold it 10 s
    const result = await pending;
    expect(result.ok).toBe(false);
    expect(result.errorClass).toBe('connection');
  });
});
