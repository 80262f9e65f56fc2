import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { messages, type ErrorCode } from '../domain/shared/errors.js';
import { envelope } from './error-handler.js';
import type { MethodGuard } from './method-guard.js';

/** What Node's HTTP parser (and its request timer) hands to the server's `clientError` event. */
type ParserError = Error & { code?: string; rawPacket?: Buffer; bytesParsed?: number };

interface Answer {
  status: number;
  code: ErrorCode;
  message: string;
  allow?: string;
}

const MALFORMED = 'Requisição HTTP malformada';

const BY_CODE: Record<string, Omit<Answer, 'allow'>> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'REQUEST_TIMEOUT', message: 'A requisição não chegou completa a tempo' },
  HPE_HEADER_OVERFLOW: { status: 431, code: 'HEADERS_TOO_LARGE', message: 'Os cabeçalhos da requisição (com a URL) excedem o tamanho permitido' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Extensões de chunk grandes demais' },
  HPE_INVALID_TRANSFER_ENCODING: { status: 400, code: 'VALIDATION_ERROR', message: `${MALFORMED}: Transfer-Encoding inválido (ou junto com Content-Length)` },
  HPE_INVALID_CONTENT_LENGTH: { status: 400, code: 'VALIDATION_ERROR', message: 'Content-Length inválido' },
  HPE_UNEXPECTED_CONTENT_LENGTH: { status: 400, code: 'VALIDATION_ERROR', message: 'Content-Length inválido' },
};

/** An RFC 9110 token, a target and the version: enough to tell which path an unknown method was sent to. */
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}) (\S{1,8192}) HTTP\/\d\.\d\r?\n/;

/**
 * A method Node's parser does not know (`FOO /api/v1/deals`) fails before any route is looked up:
 * like any other method (see method-guard.ts), it is 405 with `Allow` on a known path, 404 elsewhere.
 */
function unknownMethod(guard: Pick<MethodGuard, 'allowed'>, error: ParserError): Answer {
  const raw = error.rawPacket;
  if (!raw) return { status: 400, code: 'VALIDATION_ERROR', message: MALFORMED };
  // The failing request starts after the previous one's last line (several may share a packet).
  const start = raw.lastIndexOf(0x0a, Math.max(0, (error.bytesParsed ?? 0) - 1)) + 1;
  const line = REQUEST_LINE.exec(raw.subarray(start, start + 8300).toString('latin1'));
  if (!line) return { status: 400, code: 'VALIDATION_ERROR', message: MALFORMED };
  const allow = guard.allowed(line[2]!);
  if (allow) return { status: 405, code: 'METHOD_NOT_ALLOWED', message: messages.methodNotAllowed, allow };
  return { status: 404, code: 'NOT_FOUND', message: messages.routeNotFound };
}

function answerFor(guard: Pick<MethodGuard, 'allowed'>, error: ParserError): Answer {
  if (error.code === 'HPE_INVALID_METHOD') return unknownMethod(guard, error);
  return BY_CODE[error.code ?? ''] ?? { status: 400, code: 'VALIDATION_ERROR', message: MALFORMED };
}

const answered = new WeakSet<Socket>();

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses before Fastify sees them
 * (malformed request line, Content-Length with Transfer-Encoding, headers over the limit, an unknown
 * method, a request that did not arrive in time) are answered in the error envelope with a
 * Portuguese message, then the connection is closed (`Connection: close`): after a framing error
 * nothing else on it can be trusted. Nothing of the request is logged but the parser's error code
 * (it may hold an Authorization header).
 */
export function clientErrorHandler(guard: Pick<MethodGuard, 'allowed'>) {
  return function answerClientError(this: Pick<FastifyInstance, 'log'>, raised: Error, socket: Socket): void {
    const error = raised as ParserError;
    // The parser reports every later chunk again: one answer per connection.
    if (answered.has(socket)) return;
    answered.add(socket);
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const answer = answerFor(guard, error);
    this.log.info({ code: error.code, status: answer.status }, 'requisição recusada pelo parser HTTP');
    // An answer that has started on this connection (pipelined requests) cannot be put in order with
    // ours: the connection is only closed, as Node does. One not started yet is the timed-out request's
    // own (its body never completed): ours replaces it.
    const pending = (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage;
    if (socket.writable && (!pending || !pending.headersSent)) {
      const body = JSON.stringify(envelope(answer.code, answer.message));
      const head = [
        `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Error'}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
        ...(answer.allow ? [`Allow: ${answer.allow}`] : []),
      ];
      // end(): the answer is flushed and the connection half-closed, so the client reads it even while
      // it is still sending; the socket is destroyed once the client closes, or after a grace period.
      socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
    }
    const timer = setTimeout(() => socket.destroy(), 5_000);
    timer.unref();
    socket.once('end', () => socket.destroy());
    socket.once('close', () => clearTimeout(timer));
  };
}
