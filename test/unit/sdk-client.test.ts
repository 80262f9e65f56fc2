import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ErrorCode as ServerErrorCode } from '../../src/domain/shared/errors.js';
import {
  AutosalesClient,
  AutosalesError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  DuplicateEntryError,
  InvalidRequestError,
  NotFoundError,
  RateLimitError,
  SDK_VERSION,
  ServerError,
  TimeoutError,
  ValidationError,
  type ApiErrorCode,
  type AutosalesClientOptions,
  type FetchLike,
  type RetryInfo,
} from '../../packages/sdk/src/index.js';
import { parseRetryAfter } from '../../packages/sdk/src/errors.js';
import { backoffDelay, retryDelay } from '../../packages/sdk/src/retry.js';

/**
 * The SDK's request building, error mapping and retry policy, against a scripted fetch (no server):
 * what is sent, what is retried and how long it waits. test/integration/sdk.test.ts runs it against
 * the real service.
 */

type Step = { status: number; body?: unknown; headers?: Record<string, string> } | Error | 'hang';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  at: number;
}

/** A fetch that answers from a script, one step per call (the last step repeats), and records every call. */
function scripted(...steps: Step[]) {
  const calls: Call[] = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({
      url,
      method: String(init.method),
      headers: { ...(init.headers as Record<string, string>) },
      body: init.body as string | undefined,
      at: Date.now(),
    });
    const step = steps[Math.min(calls.length - 1, steps.length - 1)]!;
    if (step === 'hang') {
      return new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true });
      });
    }
    if (step instanceof Error) throw step;
    const text = step.body === undefined ? '' : typeof step.body === 'string' ? step.body : JSON.stringify(step.body);
    return new Response(step.status === 204 ? null : text, {
      status: step.status,
      headers: { 'content-type': 'application/json', 'x-request-id': `req-${calls.length}`, ...step.headers },
    });
  };
  return { fetch, calls };
}

const envelope = (code: string, message: string) => ({ success: false, error: { code, message } });
const ok = (data: unknown) => ({ status: 200, body: { success: true, data } });
const created = (data: unknown) => ({ status: 201, body: { success: true, data } });
const unavailable = { status: 503, body: envelope('INTERNAL_ERROR', 'Erro interno do servidor') };
const networkError = () => new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });

function client(fetch: FetchLike, options: Partial<AutosalesClientOptions> = {}) {
  const retries: RetryInfo[] = [];
  const sdk = new AutosalesClient({
    apiKey: 'ask_test',
    baseUrl: 'http://api.test',
    fetch,
    retryBaseDelayMs: 10,
    retryMaxDelayMs: 40,
    onRetry: (info) => retries.push(info),
    ...options,
  });
  return { sdk, retries };
}

const DEAL = { id: '0193a1f2-5b7c-7d3e-9f10-2a3b4c5d6e7f', title: 'Fiat Pulse' };

describe('SDK requests', () => {
  it('sends the key, JSON and the query, and unwraps data', async () => {
    const { fetch, calls } = scripted(created(DEAL));
    const { sdk } = client(fetch, { baseUrl: 'http://api.test/base/api/v1/' });
    const deal = await sdk.deals.create({ title: 'Fiat Pulse', value: 119990 });
    expect(deal).toEqual(DEAL);
    const call = calls[0]!;
    expect(call.url).toBe('http://api.test/base/api/v1/deals');
    expect(call.method).toBe('POST');
    expect(call.headers.authorization).toBe('Bearer ask_test');
    expect(call.headers.accept).toBe('application/json');
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.headers['user-agent']).toMatch(/^autosales-sdk-typescript\/\d+\.\d+\.\d+ node\//);
    expect(JSON.parse(call.body!)).toEqual({ title: 'Fiat Pulse', value: 119990 });
  });

  it('builds list queries (undefined left out) and returns data with pagination', async () => {
    const pagination = { page: 2, limit: 10, total: 11, pages: 2 };
    const { fetch, calls } = scripted({ status: 200, body: { success: true, data: [DEAL], pagination } });
    const { sdk } = client(fetch);
    const page = await sdk.deals.list({ phase: 'proposta', page: 2, limit: 10, min_value: 1000.5, search: undefined });
    expect(page).toEqual({ data: [DEAL], pagination });
    const url = new URL(calls[0]!.url);
    expect(url.pathname).toBe('/api/v1/deals');
    expect(Object.fromEntries(url.searchParams)).toEqual({ phase: 'proposta', page: '2', limit: '10', min_value: '1000.5' });
    expect(calls[0]!.headers['content-type']).toBeUndefined();
  });

  it('encodes ids into the path and refuses an empty one', async () => {
    const { fetch, calls } = scripted(ok(DEAL));
    const { sdk } = client(fetch);
    await sdk.clients.get('a/b?c');
    expect(calls[0]!.url).toBe('http://api.test/api/v1/clients/a%2Fb%3Fc');
    for (const id of ['', undefined, 42]) {
      const error = await sdk.deals.get(id as string).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect(error).toMatchObject({ status: 0, code: 'INVALID_REQUEST', message: expect.stringMatching(/id must be a non-empty string/) });
    }
    await expect(sdk.clients.update('', { name: 'x' })).rejects.toBeInstanceOf(InvalidRequestError);
    expect(calls).toHaveLength(1);
  });

  describe('request(path): a path relative to /api/v1', () => {
    const paths = ['deals', '/deals', 'deals/', '/api/v1/deals', 'api/v1/deals'];
    it.each(['http://api.test', 'http://api.test/', 'http://api.test/api/v1', 'http://api.test/api/v1/'])(
      'baseUrl %s: every spelling of the path reaches /api/v1/deals',
      async (baseUrl) => {
        const { fetch, calls } = scripted({ status: 200, body: { success: true, data: [], pagination: { page: 1, limit: 20, total: 0, pages: 0 } } });
        const { sdk } = client(fetch, { baseUrl });
        for (const path of paths) {
          const res = await sdk.request<{ data: unknown[] }>({ method: 'GET', path, query: { limit: 5 } });
          expect(res.status, path).toBe(200);
        }
        expect(calls.map((c) => c.url)).toEqual(paths.map(() => 'http://api.test/api/v1/deals?limit=5'));
      },
    );

    it('keeps a base path in front of /api/v1, and ids and encoded characters as given', async () => {
      const { fetch, calls } = scripted(ok(DEAL));
      const { sdk } = client(fetch, { baseUrl: 'https://gw.example.com.br/autosales/api/v1' });
      await sdk.request({ method: 'GET', path: `deals/${DEAL.id}` });
      await sdk.request({ method: 'GET', path: '/clients/a%2Fb' });
      await sdk.request({ method: 'GET', path: '/financial/summary' });
      expect(calls.map((c) => c.url)).toEqual([
        `https://gw.example.com.br/autosales/api/v1/deals/${DEAL.id}`,
        'https://gw.example.com.br/autosales/api/v1/clients/a%2Fb',
        'https://gw.example.com.br/autosales/api/v1/financial/summary',
      ]);
    });

    const malformed: Array<[string, unknown, RegExp]> = [
      ['an absolute URL', 'https://evil.example.com/deals', /not a URL: the address goes in baseUrl/],
      ['a protocol-relative URL', '//evil.example.com/deals', /not a URL/],
      ['a scheme without slashes', 'mailto:x@example.com', /not a URL/],
      ['a query string', '/deals?page=2', /pass query parameters in `query`/],
      ['a fragment', '/deals#top', /'\?' or '#'/],
      ['a space', '/deals/ abc', /whitespace/],
      ['a newline', '/deals\nX-Injected: 1', /whitespace|control/],
      ['a backslash', '\\deals', /backslash/],
      ['a NUL', '/deals\u0000', /control/],
      ['a bad percent-escape', '/deals/%zz', /'%'/],
      ['a dot-dot segment', '/deals/../../admin', /'\.\.' segment/],
      ['an encoded dot-dot segment', '/deals/%2E%2e/x', /'\.\.' segment/],
      ['a dot segment', './deals', /segment/],
      ['an empty segment', '/deals//x', /empty/],
      ['an empty path', '', /names no resource/],
      ['only a slash', '/', /names no resource/],
      ['only the prefix', '/api/v1', /names no resource/],
      ['not a string', 42, /must be a string/],
      ['undefined', undefined, /must be a string/],
    ];
    it.each(malformed)('%s is an InvalidRequestError that names the path, and nothing is sent', async (_name, path, message) => {
      const { fetch, calls } = scripted(ok(DEAL));
      const { sdk, retries } = client(fetch);
      const error = await sdk.request({ method: 'GET', path: path as string }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect(error).toBeInstanceOf(AutosalesError);
      expect(error).not.toBeInstanceOf(TypeError);
      expect(error).toMatchObject({ name: 'InvalidRequestError', status: 0, code: 'INVALID_REQUEST', requestId: null });
      expect((error as Error).message).toMatch(/^autosales: request path /);
      expect((error as Error).message).toMatch(message);
      if (typeof path === 'string' && path !== '') expect((error as Error).message).toContain(JSON.stringify(path));
      expect(calls).toHaveLength(0);
      expect(retries).toHaveLength(0);
    });
  });

  it('refuses a missing key or base URL', () => {
    expect(() => new AutosalesClient({ apiKey: '', baseUrl: 'http://x' })).toThrow(/apiKey/);
    expect(() => new AutosalesClient({ apiKey: 'k', baseUrl: undefined as unknown as string })).toThrow(/baseUrl/);
    expect(() => new AutosalesClient({ apiKey: 'k', baseUrl: 'ftp://x' })).toThrow(/http/);
    expect(() => new AutosalesClient({ apiKey: 'k', baseUrl: 'http://x', maxRetries: -1 })).toThrow(/maxRetries/);
  });

  it("gives every create an Idempotency-Key (a UUID), or the caller's, or none with false", async () => {
    const { fetch, calls } = scripted(created(DEAL));
    const { sdk } = client(fetch);
    await sdk.deals.create({ title: 'a' });
    await sdk.clients.create({ type: 'PJ', name: 'Locadora' });
    await sdk.deals.create({ title: 'a' }, { idempotencyKey: 'pedido-42' });
    await sdk.deals.create({ title: 'a' }, { idempotencyKey: false });
    const keys = calls.map((c) => c.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys[2]).toBe('pedido-42');
    expect(keys[3]).toBeUndefined();
  });

  it('SDK_VERSION is the package version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../packages/sdk/package.json', import.meta.url), 'utf8')) as { version: string };
    expect(SDK_VERSION).toBe(pkg.version);
  });
});

describe('SDK errors', () => {
  const cases: Array<[number, string, string, new (...args: never[]) => AutosalesError]> = [
    [400, 'VALIDATION_ERROR', "Campo 'title' é obrigatório", ValidationError],
    [422, 'VALIDATION_ERROR', 'Esta Idempotency-Key já foi usada com uma requisição diferente', ValidationError],
    [422, 'DUPLICATE_ENTRY', 'CPF já cadastrado', DuplicateEntryError],
    [401, 'UNAUTHORIZED', 'Chave de API ausente ou inválida', AuthenticationError],
    [404, 'NOT_FOUND', 'Negócio não encontrado', NotFoundError],
    [501, 'NOT_IMPLEMENTED', 'Este endpoint ainda não está disponível', AutosalesError],
  ];
  it.each(cases)('%i %s → the typed error, not retried', async (status, code, message, type) => {
    const { fetch, calls } = scripted({ status, body: envelope(code, message) });
    const { sdk } = client(fetch);
    const error = await sdk.deals.get('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    expect(error).toBeInstanceOf(AutosalesError);
    expect(error).toMatchObject({ status, code, message, requestId: 'req-1' });
    expect(calls).toHaveLength(1);
  });

  it('an answer that is not the envelope keeps the class of its status', async () => {
    const { fetch } = scripted({ status: 502, body: '<html>Bad gateway</html>', headers: { 'content-type': 'text/html' } });
    const { sdk } = client(fetch, { maxRetries: 0 });
    const error = await sdk.deals.get('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 502, code: 'UNEXPECTED_RESPONSE', body: '<html>Bad gateway</html>' });
  });

  it('the SDK knows every code the service can send', () => {
    // A type check (npm run typecheck fails on a difference); at run time it only answers true.
    expect(expectTypeOf<ApiErrorCode>().toEqualTypeOf<ServerErrorCode>()).toBe(true);
  });
});

describe('SDK retries', () => {
  it('retries a GET after 5xx answers with growing, jittered waits, then succeeds', async () => {
    const { fetch, calls } = scripted(unavailable, unavailable, unavailable, ok(DEAL));
    const { sdk, retries } = client(fetch);
    await expect(sdk.deals.get('x')).resolves.toEqual(DEAL);
    expect(calls).toHaveLength(4);
    expect(retries.map((r) => r.retry)).toEqual([1, 2, 3]);
    retries.forEach((r, i) => {
      expect(r.error).toBeInstanceOf(ServerError);
      expect(r.delayMs).toBeGreaterThanOrEqual(0);
      expect(r.delayMs).toBeLessThan(Math.min(40, 10 * 2 ** i));
    });
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const { fetch, calls } = scripted(unavailable);
    const { sdk } = client(fetch, { maxRetries: 2 });
    await expect(sdk.deals.list()).rejects.toBeInstanceOf(ServerError);
    expect(calls).toHaveLength(3);
    const single = scripted(unavailable);
    await expect(client(single.fetch).sdk.deals.list({}, { maxRetries: 0 })).rejects.toBeInstanceOf(ServerError);
    expect(single.calls).toHaveLength(1);
  });

  it('retries a GET, a PUT and a DELETE after a network error', async () => {
    for (const call of [
      (s: AutosalesClient) => s.deals.get('x'),
      (s: AutosalesClient) => s.deals.update('x', { phase: 'proposta' }),
      (s: AutosalesClient) => s.clients.deactivate('x'),
    ]) {
      const { fetch, calls } = scripted(networkError(), ok(DEAL));
      await expect(call(client(fetch).sdk)).resolves.toEqual(DEAL);
      expect(calls).toHaveLength(2);
    }
  });

  it('retries a keyed POST with the same key and the same bytes', async () => {
    const { fetch, calls } = scripted(networkError(), unavailable, created(DEAL));
    const { sdk } = client(fetch);
    await sdk.deals.create({ title: 'Jeep Compass', tags: ['suv'] });
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c.headers['idempotency-key'])).size).toBe(1);
    expect(new Set(calls.map((c) => c.body)).size).toBe(1);
  });

  it('does not retry a POST without a key after a network error, a timeout or a 5xx', async () => {
    for (const step of [networkError(), unavailable, 'hang' as const]) {
      const { fetch, calls } = scripted(step);
      const { sdk } = client(fetch, { timeoutMs: 50 });
      const error = await sdk.deals.create({ title: 'a' }, { idempotencyKey: false }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AutosalesError);
      expect(calls).toHaveLength(1);
      const body = { type: 'PF' as const, name: 'Ana' };
      await expect(sdk.request({ method: 'POST', path: '/api/v1/clients', body })).rejects.toBeInstanceOf(AutosalesError);
      expect(calls).toHaveLength(2);
    }
  });

  it('network errors and timeouts are ConnectionError / TimeoutError with status 0', async () => {
    const down = scripted(networkError());
    const error = await client(down.fetch, { maxRetries: 1 })
      .sdk.deals.get('x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ status: 0, code: 'CONNECTION_ERROR', requestId: null });
    expect((error as Error).message).toMatch(/ECONNRESET/);
    expect(down.calls).toHaveLength(2);

    const slow = scripted('hang', ok(DEAL));
    const { sdk, retries } = client(slow.fetch, { timeoutMs: 50 });
    await expect(sdk.deals.get('x')).resolves.toEqual(DEAL);
    expect(retries[0]!.error).toBeInstanceOf(TimeoutError);
    expect(retries[0]!.error).toMatchObject({ status: 0, code: 'TIMEOUT' });
  });

  it('retries a 429 for any method (nothing was executed), waiting Retry-After', async () => {
    const limited = {
      status: 429,
      body: envelope('RATE_LIMIT_EXCEEDED', 'Limite de requisições excedido. Tente novamente em 1 s.'),
      headers: { 'retry-after': '1' },
    };
    const { fetch, calls } = scripted(limited, created(DEAL));
    const { sdk, retries } = client(fetch);
    await expect(sdk.deals.create({ title: 'a' }, { idempotencyKey: false })).resolves.toEqual(DEAL);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(1000 - 5);
    expect(retries[0]!.error).toBeInstanceOf(RateLimitError);
    expect((retries[0]!.error as RateLimitError).retryAfter).toBe(1);
    expect(retries[0]!.delayMs).toBeGreaterThanOrEqual(1000);
    expect(retries[0]!.delayMs).toBeLessThan(1000 + 10);
  });

  it('throws a 429 at once when Retry-After is beyond maxRetryAfterSeconds', async () => {
    const limited = {
      status: 429,
      body: envelope('RATE_LIMIT_EXCEEDED', 'Limite de requisições excedido. Tente novamente em 3600 s.'),
      headers: { 'retry-after': '3600' },
    };
    const { fetch, calls } = scripted(limited);
    const error = await client(fetch)
      .sdk.deals.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED', retryAfter: 3600 });
    expect(calls).toHaveLength(1);
  });

  it('retries 409 IDEMPOTENCY_CONFLICT (the first request with the key is still running)', async () => {
    const conflict = {
      status: 409,
      body: envelope('IDEMPOTENCY_CONFLICT', 'Uma requisição com esta Idempotency-Key ainda está em andamento; tente novamente em instantes'),
    };
    const { fetch, calls } = scripted(conflict, conflict, created(DEAL));
    const { sdk, retries } = client(fetch);
    await expect(sdk.deals.create({ title: 'a' })).resolves.toEqual(DEAL);
    expect(calls).toHaveLength(3);
    expect(retries[0]!.error).toBeInstanceOf(ConflictError);
  });

  it("the caller's signal aborts the call, waits included, without retrying", async () => {
    const slow = scripted('hang');
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled by the caller')), 30);
    await expect(client(slow.fetch).sdk.deals.get('x', { signal: controller.signal })).rejects.toThrow('cancelled by the caller');
    expect(slow.calls).toHaveLength(1);

    const failing = scripted(unavailable);
    const waiting = new AbortController();
    const { sdk } = client(failing.fetch, { retryBaseDelayMs: 10_000, retryMaxDelayMs: 10_000 });
    const started = Date.now();
    setTimeout(() => waiting.abort(new Error('stop waiting')), 30);
    await expect(sdk.deals.get('x', { signal: waiting.signal })).rejects.toThrow('stop waiting');
    expect(Date.now() - started).toBeLessThan(8_000); // the retry delay would be 10 s
  });
});

describe('SDK retry policy (pure)', () => {
  const settings = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterSeconds: 60 };

  it('full jitter: [0, min(max, base·2^retry))', () => {
    const top = () => 0.999_999;
    expect([0, 1, 2, 3, 4, 5, 6].map((r) => backoffDelay(r, settings, top))).toEqual([499, 999, 1999, 3999, 7999, 7999, 7999]);
    expect(backoffDelay(3, settings, () => 0)).toBe(0);
  });

  it('what is retried', () => {
    const server = new ServerError(500, 'INTERNAL_ERROR', 'Erro interno do servidor');
    const down = new ConnectionError(0, 'CONNECTION_ERROR', 'x');
    const notFound = new NotFoundError(404, 'NOT_FOUND', 'x');
    const limited = new RateLimitError(429, 'RATE_LIMIT_EXCEEDED', 'x', { retryAfter: 2 });
    const half = () => 0.5;
    expect(retryDelay(server, 0, true, settings, half)).toBe(250);
    expect(retryDelay(down, 2, true, settings, half)).toBe(1000);
    expect(retryDelay(server, 0, false, settings, half)).toBeNull();
    expect(retryDelay(down, 0, false, settings, half)).toBeNull();
    expect(retryDelay(notFound, 0, true, settings, half)).toBeNull();
    expect(retryDelay(limited, 0, false, settings, half)).toBe(2250);
    expect(retryDelay(server, 3, true, settings, half)).toBeNull();
  });

  it('Retry-After: seconds or an HTTP date', () => {
    const now = Date.parse('2026-03-10T14:05:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Tue, 10 Mar 2026 14:05:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Tue, 10 Mar 2026 14:04:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});
