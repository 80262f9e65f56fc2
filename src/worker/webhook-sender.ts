import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { Agent, request, type AgentOptions, type RequestOptions } from 'node:https';
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { LookupFunction, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { isBlockedAddress, isBlockedHost } from '../domain/webhooks/target-guard.js';

export type DeliveryErrorClass = 'timeout' | 'tls' | 'dns' | 'blocked' | 'redirect' | 'connection' | 'http';

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  errorClass: DeliveryErrorClass | null;
  durationMs: number;
  responseBody: string | null;
}

export interface SenderOptions {
  timeoutMs: number;
  allowPrivateTargets: boolean;
  /** Most connections open at once to one origin (host and port); default 32. */
  maxSocketsPerOrigin?: number;
  /** A kept-alive connection idle this long is closed; default 4000 ms (under the common 5 s server keep-alive). */
  idleTimeoutMs?: number;
  /** Most origins with pooled connections: beyond it the least recently used idle origin's are closed; default 64. */
  maxOrigins?: number;
}

export interface WebhookSender {
  send(url: string, body: string, headers: Record<string, string>): Promise<SendResult>;
  /** Closes every pooled connection. The sender stays usable: later sends open new connections. */
  close(): void;
}

/** The target resolves to, or is connected at, an address the SSRF guard refuses. */
export class BlockedTargetError extends Error {
  readonly code = 'ERR_WEBHOOK_TARGET_BLOCKED';
  constructor(message = 'webhook target address is not allowed') {
    super(message);
    this.name = 'BlockedTargetError';
  }
}

/** Maximum number of response-body bytes kept (and read) per attempt. */
export const RESPONSE_BODY_LIMIT = 2048;

const SYSTEM_CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME', 'ENODATA', 'ESERVFAIL']);
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EPIPE',
  'EADDRNOTAVAIL',
]);
/** OpenSSL verification codes as Node reports them, plus Node's own TLS/SSL codes. */
const TLS_CODE =
  /^(ERR_TLS_|ERR_SSL_|ERR_OSSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|INVALID_CA|INVALID_PURPOSE|PATH_LENGTH_EXCEEDED|HOSTNAME_MISMATCH|ERROR_IN_CERT_|CRL_|ERROR_IN_CRL_)/;

/** Maps a request error to its class. Never looks at (or returns) headers or messages beyond codes. */
function classifyError(error: unknown): DeliveryErrorClass {
  if (error instanceof BlockedTargetError) return 'blocked';
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code === 'string') {
    if (DNS_CODES.has(code)) return 'dns';
    if (CONNECTION_CODES.has(code)) return 'connection';
    if (code === 'ETIMEDOUT') return 'timeout';
    if (TLS_CODE.test(code)) return 'tls';
  }
  return 'connection'; // "socket hang up" and anything else at transport level
}

/**
 * Node's bundled roots + the system bundle + NODE_EXTRA_CA_CERTS (read now).
 * Passing `ca` to https replaces Node's default store, hence the explicit union.
 */
function loadTrustedCas(): string[] {
  const ca: string[] = [...rootCertificates];
  const seen = new Set<string>();
  for (const file of [SYSTEM_CA_BUNDLE, process.env.NODE_EXTRA_CA_CERTS]) {
    if (!file || !existsSync(file)) continue;
    try {
      const real = realpathSync(file);
      if (seen.has(real)) continue; // NODE_EXTRA_CA_CERTS often *is* the system bundle
      seen.add(real);
      const pem = readFileSync(real, 'utf8');
      if (pem.includes('-----BEGIN CERTIFICATE-----')) ca.push(pem);
    } catch {
      // An unreadable bundle only narrows trust; verification stays on.
    }
  }
  return ca;
}

/**
 * `dns.lookup` replacement for the request: resolves every address of the host and
 * refuses the target when any of them is blocked. Handles both callback forms
 * (`all: true` → array; otherwise a single address and its family).
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  const opts: LookupOptions = typeof options === 'object' && options !== null ? options : {};
  dnsLookup(hostname, { ...opts, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) {
      callback(error, opts.all ? [] : '', undefined);
      return;
    }
    if (addresses.length === 0 || addresses.some((entry) => isBlockedAddress(entry.address))) {
      callback(new BlockedTargetError('webhook target resolves to a blocked address'), opts.all ? [] : '', undefined);
      return;
    }
    if (opts.all) {
      callback(null, addresses);
      return;
    }
    const first = addresses[0] as LookupAddress;
    callback(null, first.address, first.family);
  });
};

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  const wanted = name.toLowerCase();
  return Object.keys(headers).some((key) => key.toLowerCase() === wanted);
}

/**
 * A keep-alive agent whose every NEW connection passes the SSRF guard: the lookup refuses names
 * resolving to a blocked address, and the address actually connected to is checked before any TLS
 * or HTTP byte leaves (covers IP-literal hosts and DNS rebinding between resolve and connect).
 * A pooled connection is reused only to the origin it was opened (and checked) for.
 */
class GuardedAgent extends Agent {
  readonly #guard: boolean;

  constructor(options: AgentOptions, guard: boolean) {
    super(guard ? { ...options, lookup: guardedLookup } : options);
    this.#guard = guard;
  }

  override createConnection(options: RequestOptions, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    const socket = super.createConnection(options, callback);
    if (this.#guard && socket) {
      const tcp = socket as Socket;
      tcp.prependOnceListener('connect', () => {
        const remote = tcp.remoteAddress;
        if (remote === undefined || isBlockedAddress(remote)) {
          tcp.destroy(new BlockedTargetError('webhook target connected to a blocked address'));
        }
      });
    }
    return socket;
  }
}

interface PooledOrigin {
  agent: GuardedAgent;
  /** Sends in progress through this agent: an origin is only dropped while it has none. */
  active: number;
}

/** Errors of a kept-alive connection the receiver closed just before we reused it. */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

export function createWebhookSender(options: SenderOptions): WebhookSender {
  const timeoutMs = options.timeoutMs;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError('timeoutMs must be a positive number');
  const allowPrivateTargets = options.allowPrivateTargets;
  const maxSocketsPerOrigin = options.maxSocketsPerOrigin ?? 32;
  const idleTimeoutMs = options.idleTimeoutMs ?? 4000;
  const maxOrigins = options.maxOrigins ?? 64;
  // Files are read now (env as of creation); the store is parsed once, at the first
  // https attempt, and shared by every later attempt of this sender.
  const trustedCas = loadTrustedCas();
  let secureContext: SecureContext | undefined;
  /** One keep-alive agent per origin, least recently used first (Map keeps insertion order). */
  const origins = new Map<string, PooledOrigin>();

  /** `secureContext` is passed through to tls.connect (missing from the https typings). */
  function agentFor(keepAlive: boolean): GuardedAgent {
    // Agent options override request options: every connection gets the guard and verification.
    const agentOptions: AgentOptions & { secureContext: SecureContext } = {
      keepAlive,
      maxSockets: maxSocketsPerOrigin,
      maxFreeSockets: maxSocketsPerOrigin,
      // Destroys a pooled connection idle this long (a shorter `Keep-Alive: timeout=` hint wins).
      timeout: idleTimeoutMs,
      // Reuse the most recent connection, so surplus ones go idle and are closed.
      scheduling: 'lifo',
      maxCachedSessions: 4,
      secureContext: (secureContext ??= createSecureContext({ ca: trustedCas })),
      rejectUnauthorized: true,
    };
    return new GuardedAgent(agentOptions, !allowPrivateTargets);
  }

  function acquire(key: string): PooledOrigin {
    let pooled = origins.get(key);
    if (pooled) origins.delete(key);
    else pooled = { agent: agentFor(true), active: 0 };
    origins.set(key, pooled);
    pooled.active += 1;
    if (origins.size > maxOrigins) {
      for (const [name, entry] of origins) {
        if (origins.size <= maxOrigins) break;
        if (entry.active > 0) continue;
        entry.agent.destroy();
        origins.delete(name);
      }
    }
    return pooled;
  }

  function send(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const started = performance.now();
    const elapsed = (): number => Math.max(0, Math.round(performance.now() - started));

    // A refused target is never attempted: its result is the same whatever listens there (no timing either).
    const refused: SendResult = { ok: false, statusCode: null, errorClass: 'blocked', durationMs: 0, responseBody: null };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return Promise.resolve(refused);
    }
    // An IP literal in any form never reaches the lookup (Node connects to it directly): it is parsed
    // and checked here, before any socket exists, as are loopback names. Other names: `guardedLookup`.
    if (target.protocol !== 'https:' || target.hostname === '' || (!allowPrivateTargets && isBlockedHost(target.hostname))) {
      return Promise.resolve(refused);
    }

    const payload = Buffer.from(body, 'utf8');
    const requestHeaders: Record<string, string> = { ...headers };
    if (!hasHeader(requestHeaders, 'content-length')) requestHeaders['Content-Length'] = String(payload.length);

    // URL keeps IPv6 literals bracketed; the socket layer wants them bare.
    const hostname = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname;
    const port = target.port === '' ? 443 : Number(target.port);
    const pooled = acquire(`${hostname}:${port}`);
    const requestOptions: RequestOptions = {
      method: 'POST',
      protocol: 'https:',
      hostname,
      port,
      path: `${target.pathname}${target.search}`,
      headers: requestHeaders,
      agent: pooled.agent,
    };
    if (target.username !== '' || target.password !== '') {
      requestOptions.auth = `${safeDecode(target.username)}:${safeDecode(target.password)}`;
    }

    return new Promise<SendResult>((resolve) => {
      let settled = false;
      let statusCode: number | null = null;
      let responseBody: string | null = null;
      let req: ClientRequest | undefined;

      /** `keepConnection`: the exchange ended cleanly, the connection goes back to the pool. */
      const finish = (errorClass: DeliveryErrorClass | null, keepConnection = false): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (!keepConnection) req?.destroy();
        pooled.active -= 1;
        resolve(errorClass === 'blocked' ? refused : { ok: errorClass === null, statusCode, errorClass, durationMs: elapsed(), responseBody });
      };

      const classifyStatus = (status: number): DeliveryErrorClass | null => {
        if (status >= 200 && status < 300) return null;
        if (status >= 300 && status < 400) return 'redirect';
        return 'http';
      };

      const timer = setTimeout(() => finish('timeout'), timeoutMs);

      const start = (isRetry: boolean): void => {
        const current: ClientRequest = request(isRetry ? { ...requestOptions, agent: agentFor(false) } : requestOptions);
        req = current;
        current.on('response', (res: IncomingMessage) => {
          if (settled) return;
          statusCode = res.statusCode ?? null;
          const decoder = new StringDecoder('utf8');
          let received = 0;
          let text = '';
          responseBody = '';

          res.on('data', (chunk: Buffer) => {
            if (settled) return;
            const room = RESPONSE_BODY_LIMIT - received;
            const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
            received += part.length;
            text += decoder.write(part);
            responseBody = text;
            if (received >= RESPONSE_BODY_LIMIT) {
              // Enough: stop reading and drop the connection (an incomplete trailing
              // UTF-8 sequence at the cut is left out rather than mangled).
              // Settle first: destroying emits 'aborted'/'error' synchronously.
              finish(classifyStatus(statusCode ?? 0));
              res.destroy();
            }
          });
          res.on('end', () => {
            responseBody = text + decoder.end();
            // Read to the end: the connection is reusable and Node returns it to the pool.
            finish(classifyStatus(statusCode ?? 0), true);
          });
          res.on('error', () => finish('connection'));
          res.on('aborted', () => finish('connection'));
        });
        current.on('error', (error: Error) => {
          if (settled || current !== req) return;
          // A kept-alive connection the receiver closed while idle fails before any answer: the
          // request is sent once more on a new (and newly checked) connection, within the same timeout.
          const code = (error as NodeJS.ErrnoException).code;
          if (!isRetry && current.reusedSocket && statusCode === null && code !== undefined && STALE_SOCKET_CODES.has(code)) {
            // Older pooled connections are likely stale too: this one goes on a connection of its own.
            start(true);
            return;
          }
          finish(classifyError(error));
        });
        current.end(payload);
      };

      start(false);
    });
  }

  return {
    send,
    close() {
      for (const entry of origins.values()) entry.agent.destroy();
      origins.clear();
    },
  };
}
