import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { DIALECTS } from '../support/dialects.js';
import { captureLogs } from '../support/observability.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';
import { UNKNOWN_ID, bearer, expectError } from '../support/security.js';

/**
 * Issue 10, point 6: what reaches the service as raw HTTP. Requests Node's parser refuses (malformed
 * request line, Content-Length with Transfer-Encoding, oversized headers, a request that did not
 * arrive in time, a method token it does not know) are answered in the error envelope with a
 * Portuguese message and `Connection: close`; every method other than a route's own is 405 with
 * `Allow` on a known path, 404 elsewhere. Raw sockets (`node:net`) against a listening server.
 */

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
  text: string;
}

function parse(raw: Buffer): RawAnswer {
  const text = raw.toString('utf8');
  const end = text.indexOf('\r\n\r\n');
  expect(end, `no header end in ${JSON.stringify(text.slice(0, 200))}`).toBeGreaterThan(0);
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const bodyText = raw.subarray(Buffer.byteLength(text.slice(0, end + 4))).toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    body = undefined;
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body, text: bodyText };
}

/** Writes `request` on a fresh connection and reads everything until the server closes it. */
function exchange(port: number, request: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const client = connect(port, '127.0.0.1', () => client.write(request));
    client.on('data', (chunk: Buffer) => chunks.push(chunk));
    client.on('error', reject);
    // The server must close the connection by itself: that is part of what is tested.
    client.on('close', () => {
      try {
        resolve(parse(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    });
  });
}

const METHOD_NOT_ALLOWED = 'Método não permitido para esta rota';
const allowOf = (header: unknown) =>
  (typeof header === 'string' ? header : '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean)
    .sort();

for (const dialect of DIALECTS) {
  describe(`raw HTTP: parser errors and methods (${dialect})`, () => {
    let h: Harness;
    let me: Caller;
    let port: number;
    let dealId: string;

    beforeAll(async () => {
      h = await createHarness(dialect);
      me = await h.team();
      dealId = (await me.post('/deals', { title: 'Negócio do fio' })).body.data.id;
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      port = (h.app.server.address() as AddressInfo).port;
    });
    afterAll(async () => {
      await h?.close();
    });

    function expectEnvelope(res: RawAnswer, status: number, code: string, message?: RegExp | string) {
      expect(res.status, res.text).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers.connection).toBe('close');
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
      expect(res.body, res.text).toEqual({ success: false, error: { code, message: expect.any(String) } });
      if (typeof message === 'string') expect(res.body.error.message).toBe(message);
      else if (message) expect(res.body.error.message).toMatch(message);
    }

    describe('requests the HTTP parser refuses get the envelope, in Portuguese, and the connection is closed', () => {
      it('a malformed request line: 400', async () => {
        for (const line of ['HELLO WORLD\r\n\r\n', 'GET /health HTTP/9.9\r\n\r\n', 'GET /health HTTP/1.1\r\nHo st: x\r\n\r\n', 'GET\r\n\r\n']) {
          expectEnvelope(await exchange(port, line), 400, 'VALIDATION_ERROR', /^Requisição HTTP malformada/);
        }
      });

      it('Content-Length together with Transfer-Encoding: 400 naming them', async () => {
        const smuggle = `POST /api/v1/deals HTTP/1.1\r\nHost: x\r\nAuthorization: ${bearer(me.key)}\r\nContent-Type: application/json\r\nContent-Length: 13\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n{"title":"x"}`;
        const res = await exchange(port, smuggle);
        expectEnvelope(res, 400, 'VALIDATION_ERROR', 'Requisição HTTP malformada: Transfer-Encoding inválido (ou junto com Content-Length)');
        expect((await me.get('/deals')).body.pagination.total).toBe(1);
      });

      it('a bad or repeated Content-Length: 400', async () => {
        for (const header of ['Content-Length: abc', 'Content-Length: 1\r\nContent-Length: 2']) {
          expectEnvelope(
            await exchange(port, `POST /api/v1/deals HTTP/1.1\r\nHost: x\r\n${header}\r\n\r\n{}`),
            400,
            'VALIDATION_ERROR',
            'Content-Length inválido',
          );
        }
      });

      it('headers over the limit (a long URL counts): 431', async () => {
        expectEnvelope(await exchange(port, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`), 431, 'HEADERS_TOO_LARGE');
        expectEnvelope(await exchange(port, `GET /api/v1/deals?search=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`), 431, 'HEADERS_TOO_LARGE');
      });

      it('a request that did not arrive in time: 408', async () => {
        const serverSide = new Promise<Socket>((resolve) => h.app.server.once('connection', resolve));
        // Headers that never end: Node's request timer (requestTimeout, checked every few seconds)
        // would raise ERR_HTTP_REQUEST_TIMEOUT on this connection; the same error is raised here at once.
        const answer = exchange(port, 'GET /health HTTP/1.1\r\nHost: x\r\n');
        const socket = await serverSide;
        h.app.server.emit('clientError', Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket);
        expectEnvelope(await answer, 408, 'REQUEST_TIMEOUT', 'A requisição não chegou completa a tempo');
      });

      it('a method token Node does not know: 405 with Allow on a known path, 404 elsewhere', async () => {
        const known = await exchange(port, 'FOO /api/v1/deals HTTP/1.1\r\nHost: x\r\n\r\n');
        expectEnvelope(known, 405, 'METHOD_NOT_ALLOWED', METHOD_NOT_ALLOWED);
        expect(allowOf(known.headers.allow)).toEqual(['GET', 'HEAD', 'POST']);
        const byId = await exchange(port, `BREW /api/v1/deals/${dealId}/ HTTP/1.1\r\nHost: x\r\n\r\n`);
        expectEnvelope(byId, 405, 'METHOD_NOT_ALLOWED');
        expect(allowOf(byId.headers.allow)).toEqual(['DELETE', 'GET', 'HEAD', 'PUT']);
        // A token is case-sensitive: `get` is not GET.
        expectEnvelope(await exchange(port, 'get /health HTTP/1.1\r\nHost: x\r\n\r\n'), 405, 'METHOD_NOT_ALLOWED');
        expectEnvelope(await exchange(port, 'FOO /api/v1/nope HTTP/1.1\r\nHost: x\r\n\r\n'), 404, 'NOT_FOUND', 'Rota não encontrada');
        // On a kept-alive connection, after an answered request, the new request's own path is the one judged.
        const second = await new Promise<string>((resolve, reject) => {
          let text = '';
          const client = connect(port, '127.0.0.1', () => client.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n'));
          client.on('data', (chunk: Buffer) => {
            const first = !text.includes('"status":"ok"');
            text += chunk.toString('utf8');
            if (first && text.includes('"status":"ok"')) client.write('FOO /api/v1/deals HTTP/1.1\r\nHost: x\r\n\r\n');
          });
          client.on('error', reject);
          client.on('close', () => resolve(text));
        });
        expect(second).toMatch(/^HTTP\/1\.1 200 /);
        const again = parse(Buffer.from(second.slice(second.indexOf('HTTP/1.1 405'))));
        expectEnvelope(again, 405, 'METHOD_NOT_ALLOWED', METHOD_NOT_ALLOWED);
        expect(allowOf(again.headers.allow)).toEqual(['GET', 'HEAD', 'POST']);
      });

      it('nothing of the refused request reaches the log or the answer (only the parser’s code is logged)', async () => {
        const logs = captureLogs('info');
        const logged = await buildApp({ db: h.testDb.db, logger: logs.logger });
        try {
          await logged.listen({ port: 0, host: '127.0.0.1' });
          const at = (logged.server.address() as AddressInfo).port;
          const key = me.key;
          const res = await exchange(at, `GET /health HTTP/1.1\r\nAuthorization: Bearer ${key}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
          expect(res.status).toBe(431);
          expect(res.text).not.toContain(key);
          expect(await exchange(at, `FOO /api/v1/deals?k=${key} HTTP/1.1\r\nAuthorization: Bearer ${key}\r\n\r\n`)).toMatchObject({ status: 405 });
          expect(
            logs
              .lines()
              .filter((l) => l.msg === 'requisição recusada pelo parser HTTP')
              .map((l) => [l.code, l.status]),
          ).toEqual([
            ['HPE_HEADER_OVERFLOW', 431],
            ['HPE_INVALID_METHOD', 405],
          ]);
          expect(logs.text()).not.toContain(key);
        } finally {
          await logged.close();
        }
      });
    });

    it('the server keeps serving after all of that', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/deals/${dealId}`, { headers: { authorization: bearer(me.key) } });
      expect(res.status).toBe(200);
    });

    describe('methods other than a route’s own', () => {
      const METHODS = [
        'TRACE',
        'PROPFIND',
        'PROPPATCH',
        'PURGE',
        'LOCK',
        'UNLOCK',
        'MKCOL',
        'COPY',
        'MOVE',
        'SEARCH',
        'REPORT',
        'LINK',
        'UNLINK',
        'QUERY',
        'SUBSCRIBE',
        'ACL',
        'BIND',
        'MKCALENDAR',
      ];
      const paths = (): Array<[string, string[]]> => [
        ['/api/v1/deals', ['GET', 'HEAD', 'POST']],
        [`/api/v1/deals/${dealId}`, ['DELETE', 'GET', 'HEAD', 'PUT']],
        [`/api/v1/clients/${UNKNOWN_ID}/`, ['DELETE', 'GET', 'HEAD', 'PUT']],
        ['/api/v1/financial/summary', ['GET', 'HEAD']],
        [`/api/v1/activities/${UNKNOWN_ID}/complete`, ['PUT']],
        ['/health', ['GET', 'HEAD']],
        ['/', ['GET', 'HEAD']],
        ['/api/v1/openapi.json', ['GET', 'HEAD']],
      ];

      it('405 with Allow on every known path, with or without a key', async () => {
        for (const method of METHODS) {
          for (const [url, allowed] of paths()) {
            for (const headers of [{}, { authorization: bearer(me.key) }]) {
              const res = await h.inject({ method: method as 'GET', url, headers });
              expectError(res, 405, 'METHOD_NOT_ALLOWED', METHOD_NOT_ALLOWED);
              expect(allowOf(res.headers.allow), `${method} ${url}`).toEqual(allowed);
            }
          }
        }
      });

      it('404 on unknown paths', async () => {
        for (const method of METHODS) {
          for (const url of ['/api/v1/nope', '/api/v1/deals/x/y', '/api/v2/deals']) {
            expectError(await h.inject({ method: method as 'GET', url }), 404, 'NOT_FOUND', 'Rota não encontrada');
          }
        }
      });

      it('over the wire too', async () => {
        for (const method of ['TRACE', 'PROPFIND', 'PURGE', 'LOCK']) {
          const res = await exchange(port, `${method} /api/v1/deals HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
          expect(res.status, res.text).toBe(405);
          expect(res.body).toEqual({ success: false, error: { code: 'METHOD_NOT_ALLOWED', message: METHOD_NOT_ALLOWED } });
          expect(allowOf(res.headers.allow)).toEqual(['GET', 'HEAD', 'POST']);
        }
      });
    });
  });
}
