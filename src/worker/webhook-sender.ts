import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { request, type RequestOptions } from 'node:https';
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { LookupFunction, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { isBlockedAddress } from './target-guard.js';

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

export function createWebhookSender(options: SenderOptions): {
  send(url: string, body: string, headers: Record<string, string>): Promise<SendResult>;
} {
  const timeoutMs = options.timeoutMs;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError('timeoutMs must be a positive number');
  const allowPrivateTargets = options.allowPrivateTargets;
  // Files are read now (env as of creation); the store is parsed once, at the first
  // https attempt, and shared by every later attempt of this sender.
  const trustedCas = loadTrustedCas();
  let secureContext: SecureContext | undefined;

  function send(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const started = performance.now();
    const elapsed = (): number => Math.max(0, Math.round(performance.now() - started));

    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return Promise.resolve({ ok: false, statusCode: null, errorClass: 'blocked', durationMs: elapsed(), responseBody: null });
    }
    if (target.protocol !== 'https:' || target.hostname === '') {
      return Promise.resolve({ ok: false, statusCode: null, errorClass: 'blocked', durationMs: elapsed(), responseBody: null });
    }

    const payload = Buffer.from(body, 'utf8');
    const requestHeaders: Record<string, string> = { ...headers };
    if (!hasHeader(requestHeaders, 'content-length')) requestHeaders['Content-Length'] = String(payload.length);

    // URL keeps IPv6 literals bracketed; the socket layer wants them bare.
    const hostname = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname;
    // `secureContext` is passed through to tls.connect (missing from the https typings).
    const requestOptions: RequestOptions & { secureContext: SecureContext } = {
      method: 'POST',
      protocol: 'https:',
      hostname,
      port: target.port === '' ? 443 : Number(target.port),
      path: `${target.pathname}${target.search}`,
      headers: requestHeaders,
      agent: false, // a fresh connection per attempt: re-resolved and re-checked every time
      secureContext: (secureContext ??= createSecureContext({ ca: trustedCas })),
      rejectUnauthorized: true,
    };
    if (target.username !== '' || target.password !== '') {
      requestOptions.auth = `${safeDecode(target.username)}:${safeDecode(target.password)}`;
    }
    if (!allowPrivateTargets) requestOptions.lookup = guardedLookup;

    return new Promise<SendResult>((resolve) => {
      let settled = false;
      let statusCode: number | null = null;
      let responseBody: string | null = null;
      let timer: NodeJS.Timeout | undefined;

      const finish = (errorClass: DeliveryErrorClass | null): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        resolve({ ok: errorClass === null, statusCode, errorClass, durationMs: elapsed(), responseBody });
      };

      const classifyStatus = (status: number): DeliveryErrorClass | null => {
        if (status >= 200 && status < 300) return null;
        if (status >= 300 && status < 400) return 'redirect';
        return 'http';
      };

      // finish() only ever runs from the handlers attached below, after `req` exists.
      const req: ClientRequest = request(requestOptions);
      req.on('response', (res: IncomingMessage) => {
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
          finish(classifyStatus(statusCode ?? 0));
        });
        res.on('error', () => finish('connection'));
        res.on('aborted', () => finish('connection'));
      });

      if (!allowPrivateTargets) {
        // The address actually connected to is checked before TLS or HTTP bytes leave:
        // covers IP-literal hosts (no lookup) and DNS rebinding between resolve and connect.
        req.on('socket', (socket: Socket) => {
          socket.prependOnceListener('connect', () => {
            const remote = socket.remoteAddress;
            if (remote === undefined || isBlockedAddress(remote)) {
              socket.destroy(new BlockedTargetError('webhook target connected to a blocked address'));
            }
          });
        });
      }

      req.on('error', (error: Error) => finish(classifyError(error)));

      timer = setTimeout(() => finish('timeout'), timeoutMs);

      req.end(payload);
    });
  }

  return { send };
}
