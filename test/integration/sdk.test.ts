import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createRateLimiter } from '../../src/domain/ratelimit/rate-limiter.js';
import { signPayload, verifyWebhookSignature as serverVerify } from '../../src/domain/webhooks/signature.js';
import {
  AuthenticationError,
  AutosalesClient,
  ConnectionError,
  DuplicateEntryError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  ValidationError,
  verifyWebhookSignature,
  type AutosalesClientOptions,
  type Client,
  type ClientDeactivated,
  type ClientListItem,
  type ClientUpdated,
  type Deal,
  type DealArchived,
  type DealUpdated,
  type FetchLike,
  type Page,
  type RetryInfo,
  type Vehicle,
  type VehicleArchived,
  type VehicleUpdated,
  type WebhookEvent,
} from '../../packages/sdk/src/index.js';
import { spawnChild, type ChildHandle } from '../support/child.js';
import { DIALECTS } from '../support/dialects.js';
import { recipeCertificate } from '../support/docs.js';
import { waitUntil } from '../support/wait.js';
import { createWebhookRig, requestsFor, type WebhookRig } from '../support/webhooks.js';

/**
 * Issue 5, point 4: the SDK against the real service over HTTP (buildApp + listen), on every dialect:
 * typed CRUD, pagination, typed errors with request ids, the retry policy (a real 429 from the plan
 * limiter; 5xx and cut connections injected through the `fetch` option), webhook signatures on a real
 * delivery, and the README's quick start (an HTTPS receiver and the client) run with node from a
 * project that installed the SDK.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SDK_DIR = join(ROOT, 'packages', 'sdk');
const UNKNOWN_UUID = '0190f5c2-7e1a-7b3c-8d4e-5f6a7b8c9d0e';

interface Seen {
  method: string;
  url: URL;
  status: number | null;
  requestId: string | null;
  idempotencyKey: string | null;
  replayed: string | null;
  retryAfter: string | null;
}

type Behaviour = (n: number, url: string, init: RequestInit, next: FetchLike) => Promise<Response>;

/** The global fetch, recording every exchange; `behaviour` may fail or drop calls (n counts from 1). */
function recorder(behaviour: Behaviour = (_n, url, init, next) => next(url, init)) {
  const seen: Seen[] = [];
  const next: FetchLike = async (url, init) => {
    const entry: Seen = {
      method: String(init.method),
      url: new URL(url),
      status: null,
      requestId: null,
      idempotencyKey: (init.headers as Record<string, string>)['idempotency-key'] ?? null,
      replayed: null,
      retryAfter: null,
    };
    seen.push(entry);
    const res = await fetch(url, init);
    Object.assign(entry, {
      status: res.status,
      requestId: res.headers.get('x-request-id'),
      replayed: res.headers.get('idempotent-replayed'),
      retryAfter: res.headers.get('retry-after'),
    });
    return res;
  };
  let n = 0;
  const wrapped: FetchLike = (url, init) => behaviour(++n, url, init, next);
  return { fetch: wrapped, seen };
}

const cutConnection = () => new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });

/** The first answer is dropped after the service has processed the request (a connection cut on the way back). */
const dropFirstAnswer = () =>
  recorder(async (n, url, init, next) => {
    const res = await next(url, init);
    if (n === 1) {
      await res.arrayBuffer();
      throw cutConnection();
    }
    return res;
  });
const fake503 = () =>
  new Response(JSON.stringify({ success: false, error: { code: 'INTERNAL_ERROR', message: 'Erro interno do servidor' } }), {
    status: 503,
    headers: { 'content-type': 'application/json', 'x-request-id': 'injected' },
  });

/** packages/sdk/dist from its sources, when missing or older (what `npm install` / `npm run build` do). */
function ensureSdkBuilt(): void {
  const src = join(SDK_DIR, 'src');
  const dist = join(SDK_DIR, 'dist');
  const stale = readdirSync(src).some((file) => {
    if (!file.endsWith('.ts')) return false;
    const out = join(dist, file.endsWith('.d.ts') ? file : file.replace(/\.ts$/, '.js'));
    return !existsSync(out) || statSync(out).mtimeMs < statSync(join(src, file)).mtimeMs;
  });
  if (stale) execFileSync('npm', ['run', 'build', '-w', '@autosales/sdk'], { cwd: ROOT, stdio: 'pipe', timeout: 120_000 });
}

/** POSTs over HTTPS trusting `ca` only; resolves with the status. */
function httpsPost(url: string, ca: Buffer, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      { method: 'POST', ca, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, timeout: 10_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url}`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Waits (bounded) until `read()`, a child's output so far, satisfies `done`. */
async function waitForOutput(read: () => string, done: (output: string) => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  await waitUntil(() => done(read()), timeoutMs, what).catch((error: unknown) => {
    throw new Error(`${(error as Error).message}; got:\n${read()}`, { cause: error });
  });
}
const containing = (text: string) => (output: string) => output.includes(text);

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

for (const dialect of DIALECTS) {
  describe(`SDK against the service (${dialect})`, () => {
    let rig: WebhookRig;
    let baseUrl: string;

    beforeAll(async () => {
      rig = await createWebhookRig(dialect);
      baseUrl = await listen(rig.h.app);
    });

    afterAll(async () => {
      await rig?.close();
    });

    function sdk(apiKey: string, options: Partial<AutosalesClientOptions> = {}) {
      const retries: RetryInfo[] = [];
      const client = new AutosalesClient({
        apiKey,
        baseUrl,
        retryBaseDelayMs: 20,
        retryMaxDelayMs: 200,
        onRetry: (info) => retries.push(info),
        ...options,
      });
      return Object.assign(client, { retries });
    }

    describe('typed methods', () => {
      it('creates, reads, updates and archives deals', async () => {
        const t = await rig.team();
        const api = sdk(t.key);
        const deal = await api.deals.create({ title: 'Toyota Corolla XEi 2024', value: 149990, tags: ['sedan'], source: 'site' });
        expectTypeOf(deal).toEqualTypeOf<Deal>();
        expect(deal).toMatchObject({
          title: 'Toyota Corolla XEi 2024',
          value: 149990,
          currency: 'BRL',
          phase: 'lead',
          probability: 10,
          status: 'ativo',
          tags: ['sedan'],
        });

        expect(await api.deals.get(deal.id)).toEqual(deal);

        const moved = await api.deals.update(deal.id, { phase: 'negociacao' });
        expectTypeOf(moved).toEqualTypeOf<DealUpdated>();
        expect(moved).toMatchObject({ id: deal.id, phase: 'negociacao', probability: 75 });

        const won = await api.deals.update(deal.id, { status: 'ganho', value: 147500 });
        expect(won).toMatchObject({ status: 'ganho', value: 147500 });

        const archived = await api.deals.archive(deal.id);
        expectTypeOf(archived).toEqualTypeOf<DealArchived>();
        expect(archived).toMatchObject({ id: deal.id, status: 'arquivado' });
        expect(archived.archived_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        expect(await api.deals.archive(deal.id)).toEqual(archived); // documented idempotent

        const page = await api.deals.list({ status: 'arquivado' });
        expectTypeOf(page).toEqualTypeOf<Page<Deal>>();
        expect(page.data.map((d) => d.id)).toEqual([deal.id]);
        expect(page.pagination).toEqual({ page: 1, limit: expect.any(Number), total: 1, pages: 1 });
      });

      it('creates, reads, updates and deactivates clients', async () => {
        const t = await rig.team();
        const api = sdk(t.key);
        const client = await api.clients.create({
          type: 'PF',
          name: 'Ana Beatriz Souza',
          cpf: '935.411.347-80',
          email: 'ana@example.com.br',
          address: { city: 'Campinas', state: 'SP' },
        });
        expectTypeOf(client).toEqualTypeOf<Client>();
        expect(client).toMatchObject({ type: 'PF', name: 'Ana Beatriz Souza', email: 'ana@example.com.br', status: 'active' });
        if (client.type !== 'PF') throw new Error('expected a PF client');
        expect(client.cpf).toMatch(/^935\.?411\.?347-?80$/);
        expect(client.address).toMatchObject({ city: 'Campinas', state: 'SP' });

        const deal = await api.deals.create({ title: 'Jeep Compass 2024', client_id: client.id });
        expect(deal.client).toEqual({ id: client.id, name: 'Ana Beatriz Souza' });

        const updated = await api.clients.update(client.id, { mobile_phone: '(19) 99876-5432', address: { street: 'Av. Brasil' } });
        expectTypeOf(updated).toEqualTypeOf<ClientUpdated>();
        expect(updated).toMatchObject({ id: client.id, mobile_phone: '(19) 99876-5432' });
        expect((await api.clients.get(client.id)).address).toMatchObject({ street: 'Av. Brasil', city: 'Campinas' });

        const list = await api.clients.list({ search: 'ana beatriz' });
        expectTypeOf(list).toEqualTypeOf<Page<ClientListItem>>();
        expect(list.data.map((c) => c.id)).toEqual([client.id]);

        const deactivated = await api.clients.deactivate(client.id);
        expectTypeOf(deactivated).toEqualTypeOf<ClientDeactivated>();
        expect(deactivated).toMatchObject({ id: client.id, status: 'inactive' });
        expect((await api.clients.list()).data).toEqual([]);
        expect((await api.clients.list({ status: 'inactive' })).data.map((c) => c.id)).toEqual([client.id]);
      });
    });

    describe('iterate', () => {
      it('visits every deal of every page exactly once, one request per page', async () => {
        const t = await rig.team();
        const api = sdk(t.key);
        const wanted = new Set<string>();
        for (let i = 0; i < 23; i++) wanted.add((await api.deals.create({ title: `Proposta ${i}`, phase: 'proposta', value: 1000 + i })).id);
        for (let i = 0; i < 3; i++) await api.deals.create({ title: `Lead ${i}` });

        const rec = recorder();
        const paging = sdk(t.key, { fetch: rec.fetch });
        const seen: string[] = [];
        for await (const deal of paging.deals.iterate({ phase: 'proposta', limit: 5 })) {
          expectTypeOf(deal).toEqualTypeOf<Deal>();
          expect(deal.phase).toBe('proposta');
          seen.push(deal.id);
        }
        expect(seen).toHaveLength(23);
        expect(new Set(seen)).toEqual(wanted);
        expect(rec.seen.map((s) => s.url.searchParams.get('page'))).toEqual(['1', '2', '3', '4', '5']);
        expect(rec.seen.every((s) => s.url.searchParams.get('phase') === 'proposta' && s.url.searchParams.get('limit') === '5')).toBe(true);

        // From a later page on, and with a sort.
        const tail: number[] = [];
        for await (const deal of api.deals.iterate({ phase: 'proposta', limit: 5, page: 4, sort: 'value' })) tail.push(deal.value!);
        expect(tail).toEqual([1015, 1016, 1017, 1018, 1019, 1020, 1021, 1022]);

        // Nothing to list: no item, one request.
        const empty = recorder();
        for await (const _ of sdk(t.key, { fetch: empty.fetch }).deals.iterate({ phase: 'fechamento' })) throw new Error('no deal expected');
        expect(empty.seen).toHaveLength(1);
      });

      it('visits every client exactly once', async () => {
        const t = await rig.team();
        const api = sdk(t.key);
        const wanted = new Set<string>();
        for (let i = 0; i < 7; i++) wanted.add((await api.clients.create({ type: 'PJ', name: `Locadora ${i}` })).id);
        const rec = recorder();
        const seen: string[] = [];
        for await (const client of sdk(t.key, { fetch: rec.fetch }).clients.iterate({ limit: 3, sort: 'name' })) {
          expectTypeOf(client).toEqualTypeOf<ClientListItem>();
          seen.push(client.id);
        }
        expect(seen).toHaveLength(7);
        expect(new Set(seen)).toEqual(wanted);
        expect(rec.seen).toHaveLength(3);
      });
    });

    describe('vehicles', () => {
      it('creates, reads, updates, iterates and archives vehicles; a plate in stock twice is a DuplicateEntryError', async () => {
        const t = await rig.team();
        const api = sdk(t.key);
        const car = await api.vehicles.create({ title: 'Toyota Corolla XEi 2024', brand: 'Toyota', model: 'Corolla', plate: 'ABC-1234', price: 149990 });
        expectTypeOf(car).toEqualTypeOf<Vehicle>();
        expect(car).toMatchObject({ brand: 'Toyota', plate: 'ABC-1234', phase: 'entrada', status: 'ativo', condition: 'usado' });
        expect(await api.vehicles.get(car.id)).toEqual(car);
        await expect(api.vehicles.create({ title: 'Outro', brand: 'Toyota', model: 'Corolla', plate: 'ABC1C34' })).rejects.toBeInstanceOf(DuplicateEntryError);

        const sold = await api.vehicles.update(car.id, { status: 'vendido' });
        expectTypeOf(sold).toEqualTypeOf<VehicleUpdated>();
        expect(sold).toMatchObject({ id: car.id, status: 'vendido', sold_at: expect.any(String) });

        for (let i = 0; i < 6; i++) await api.vehicles.create({ title: `HB20 ${i}`, brand: 'Hyundai', model: 'HB20', price: 60000 + i });
        const prices: number[] = [];
        for await (const v of api.vehicles.iterate({ brand: 'hyundai', limit: 4, sort: 'price' })) prices.push(v.price!);
        expect(prices).toEqual([60000, 60001, 60002, 60003, 60004, 60005]);

        const archived = await api.vehicles.archive(car.id);
        expectTypeOf(archived).toEqualTypeOf<VehicleArchived>();
        expect(await api.vehicles.archive(car.id)).toEqual(archived);
        expect((await api.vehicles.list({ status: 'arquivado' })).data.map((v) => v.id)).toEqual([car.id]);
      });
    });

    describe('errors', () => {
      it('carry status, code, the Portuguese message and the request id', async () => {
        const t = await rig.team();
        const rec = recorder();
        const api = sdk(t.key, { fetch: rec.fetch });

        const notFound = await api.deals.get(UNKNOWN_UUID).catch((e: unknown) => e);
        expect(notFound).toBeInstanceOf(NotFoundError);
        expect(notFound).toMatchObject({ name: 'NotFoundError', status: 404, code: 'NOT_FOUND', message: 'Negócio não encontrado' });
        expect((notFound as NotFoundError).requestId).toBeTruthy();
        expect((notFound as NotFoundError).requestId).toBe(rec.seen.at(-1)!.requestId);

        const invalid = await api.deals.create({} as never).catch((e: unknown) => e);
        expect(invalid).toBeInstanceOf(ValidationError);
        expect(invalid).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', message: "Campo 'title' é obrigatório" });
        expect((invalid as ValidationError).requestId).toBe(rec.seen.at(-1)!.requestId);

        await api.clients.create({ type: 'PF', name: 'Maria', cpf: '529.982.247-25' });
        const duplicate = await api.clients.create({ type: 'PF', name: 'Maria de novo', cpf: '529.982.247-25' }).catch((e: unknown) => e);
        expect(duplicate).toBeInstanceOf(DuplicateEntryError);
        expect(duplicate).toMatchObject({ status: 422, code: 'DUPLICATE_ENTRY', message: 'CPF já cadastrado' });

        const badKey = await sdk('ask_not_a_real_key')
          .deals.list()
          .catch((e: unknown) => e);
        expect(badKey).toBeInstanceOf(AuthenticationError);
        expect(badKey).toMatchObject({ status: 401, code: 'UNAUTHORIZED', message: 'Chave de API ausente ou inválida' });
        expect((badKey as AuthenticationError).requestId).toBeTruthy();

        const reader = await rig.h.key(t.teamId, ['deals:read']);
        const forbidden = await sdk(reader.key)
          .deals.create({ title: 'x' })
          .catch((e: unknown) => e);
        expect(forbidden).toBeInstanceOf(PermissionDeniedError);
        expect(forbidden).toMatchObject({ status: 403, code: 'FORBIDDEN', message: 'Esta chave de API não tem permissão para este recurso' });

        // None of these is retried.
        expect(rec.seen).toHaveLength(4);
      });
    });

    describe('retries', () => {
      it('a real 429 is retried after Retry-After, then succeeds', async () => {
        const limited = await buildApp({
          db: rig.db,
          rateLimiter: createRateLimiter({
            planLimits: true,
            unauthenticatedPerMinute: 1000,
            minuteSeconds: 2,
            keyPrefix: `sdk-${randomBytes(6).toString('hex')}`,
          }),
        });
        try {
          const url = await listen(limited);
          const t = await rig.team(); // starter: 60 per (shortened) minute
          // Use the window up, then call at once; should the window roll over in between (a very slow
          // machine), the SDK's first attempt succeeds and the round is played again.
          let rec = recorder();
          let api = sdk(t.key, { baseUrl: url, fetch: rec.fetch });
          let started = 0;
          let page: Page<Deal> | undefined;
          for (let round = 0; round < 3; round++) {
            const burst = await Promise.all(
              Array.from({ length: 70 }, () =>
                fetch(`${url}/api/v1/deals?limit=1`, { headers: { authorization: `Bearer ${t.key}` } }).then(async (r) => (await r.arrayBuffer(), r.status)),
              ),
            );
            expect(burst.filter((s) => s === 429).length).toBeGreaterThan(0);
            rec = recorder();
            api = sdk(t.key, { baseUrl: url, fetch: rec.fetch });
            started = Date.now();
            page = await api.deals.list({ limit: 1 });
            if (rec.seen[0]!.status === 429) break;
          }
          expect(page!.pagination.page).toBe(1);
          expect(rec.seen.map((s) => s.status)).toEqual([429, 200]);
          const retryAfter = Number(rec.seen[0]!.retryAfter);
          expect(retryAfter).toBeGreaterThanOrEqual(1);
          expect(api.retries).toHaveLength(1);
          expect(api.retries[0]!.error).toBeInstanceOf(RateLimitError);
          expect(api.retries[0]!.error).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED', retryAfter });
          expect(api.retries[0]!.error.message).toMatch(/^Limite de requisições excedido/);
          expect(Date.now() - started).toBeGreaterThanOrEqual(retryAfter * 1000 - 50);
        } finally {
          await limited.close();
        }
      });

      it('a GET is retried with backoff after 5xx answers and after a cut connection', async () => {
        const t = await rig.team();
        const deal = await sdk(t.key).deals.create({ title: 'Honda Civic' });

        const failing = recorder((n, url, init, next) => (n <= 2 ? Promise.resolve(fake503()) : next(url, init)));
        const api = sdk(t.key, { fetch: failing.fetch });
        expect(await api.deals.get(deal.id)).toEqual(deal);
        expect(api.retries.map((r) => [r.retry, r.error.constructor])).toEqual([
          [1, ServerError],
          [2, ServerError],
        ]);
        expect(api.retries[0]!.delayMs).toBeLessThan(20);
        expect(api.retries[1]!.delayMs).toBeLessThan(40);
        expect(failing.seen.map((s) => s.status)).toEqual([200]); // the injected answers never reached the server

        const cut = recorder((n, url, init, next) => (n === 1 ? Promise.reject(cutConnection()) : next(url, init)));
        const again = sdk(t.key, { fetch: cut.fetch });
        expect((await again.deals.list()).data.map((d) => d.id)).toEqual([deal.id]);
        expect(again.retries).toHaveLength(1);
        expect(again.retries[0]!.error).toBeInstanceOf(ConnectionError);
      });

      it('a keyed POST whose answer was lost is retried and creates exactly one deal', async () => {
        const t = await rig.team();
        const dropFirst = dropFirstAnswer();
        const api = sdk(t.key, { fetch: dropFirst.fetch });
        const deal = await api.deals.create({ title: 'Fiat Pulse 2025 (retry)', value: 119990 });

        expect(dropFirst.seen.map((s) => [s.method, s.status, s.replayed])).toEqual([
          ['POST', 201, null],
          ['POST', 201, 'true'],
        ]);
        const [first, second] = dropFirst.seen;
        expect(first!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
        expect(second!.idempotencyKey).toBe(first!.idempotencyKey);
        expect(api.retries[0]!.error).toBeInstanceOf(ConnectionError);

        const all = await sdk(t.key).deals.list({ search: 'Fiat Pulse 2025' });
        expect(all.pagination.total).toBe(1);
        expect(all.data[0]!.id).toBe(deal.id);
      });

      it('a caller-chosen key makes a create safe across client instances', async () => {
        const t = await rig.team();
        const key = `pedido-${randomBytes(8).toString('hex')}`;
        const a = await sdk(t.key).clients.create({ type: 'PJ', name: 'Locadora Boa Viagem' }, { idempotencyKey: key });
        const b = await sdk(t.key).clients.create({ type: 'PJ', name: 'Locadora Boa Viagem' }, { idempotencyKey: key });
        expect(b).toEqual(a);
        expect((await sdk(t.key).clients.list()).pagination.total).toBe(1);
      });

      it('a POST without an Idempotency-Key is not retried', async () => {
        const t = await rig.team();
        const dropFirst = dropFirstAnswer();
        const api = sdk(t.key, { fetch: dropFirst.fetch });
        const error = await api.deals.create({ title: 'Sem chave' }, { idempotencyKey: false }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ConnectionError);
        expect(error).toMatchObject({ status: 0, code: 'CONNECTION_ERROR' });
        expect(dropFirst.seen).toHaveLength(1);
        expect(dropFirst.seen[0]!.idempotencyKey).toBeNull();
        // It had been executed: a blind retry would have created a second deal.
        expect((await sdk(t.key).deals.list({ search: 'Sem chave' })).pagination.total).toBe(1);

        const unavailable = recorder(() => Promise.resolve(fake503()));
        const error503 = await sdk(t.key, { fetch: unavailable.fetch })
          .deals.create({ title: 'x' }, { idempotencyKey: false })
          .catch((e: unknown) => e);
        expect(error503).toBeInstanceOf(ServerError);
      });
    });

    describe('webhooks', () => {
      it("verifies a real delivery (signed by the service's worker) and rejects tampered or stale ones", async () => {
        const receiver = await rig.receiver();
        const t = await rig.team();
        const hook = await rig.hook(t.teamId, receiver.url, ['deal.created']);
        const deal = await sdk(t.key).deals.create({ title: 'Webhook: VW Nivus' });
        expect(await rig.drain({ until: () => requestsFor(receiver, hook.id).length > 0 })).toBe(true);
        const [delivery] = requestsFor(receiver, hook.id);
        const { body, headers } = delivery!;

        expect(verifyWebhookSignature(body, headers, hook.secret)).toBe(true);
        expect(verifyWebhookSignature(Buffer.from(body, 'utf8'), new Headers(headers as Record<string, string>), hook.secret)).toBe(true);
        const event = JSON.parse(body) as WebhookEvent;
        expect(event.type).toBe('deal.created');
        if (event.type === 'deal.created') expect(event.data.object.id).toBe(deal.id);

        const timestamp = Number(headers['x-service-timestamp']);
        expect(verifyWebhookSignature(body.replace('VW Nivus', 'VW Polo'), headers, hook.secret)).toBe(false);
        expect(verifyWebhookSignature(body, headers, `${hook.secret}x`)).toBe(false);
        expect(verifyWebhookSignature(body, headers, hook.secret, { now: timestamp + 301 })).toBe(false);
        expect(verifyWebhookSignature(body, headers, hook.secret, { now: timestamp + 301, toleranceSeconds: 600 })).toBe(true);
        expect(serverVerify(body, headers, hook.secret)).toBe(true);
        await rig.settle();
      });
    });

    describe("the README's quick start", () => {
      let project: string | undefined;
      let child: ChildHandle | undefined;

      afterAll(() => {
        if (child?.running()) child.child.kill('SIGKILL');
        if (project) rmSync(project, { recursive: true, force: true });
      });

      it('runs with node in a project that installed the SDK from the repository; its receiver speaks HTTPS', async () => {
        const script = readFileSync(join(SDK_DIR, 'examples', 'quickstart.mjs'), 'utf8');
        expect(readFileSync(join(SDK_DIR, 'README.md'), 'utf8'), 'README shows examples/quickstart.mjs verbatim').toContain(script.trim());
        const code = script.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('//'));
        expect(code.length).toBeLessThanOrEqual(15);
        expect(script).toContain("from 'node:https'");
        expect(script).not.toContain("from 'node:http'");

        // A fresh project with the SDK linked in, as `npm install /path/to/autosales/packages/sdk` does.
        ensureSdkBuilt();
        project = mkdtempSync(join(tmpdir(), 'autosales-sdk-user-'));
        mkdirSync(join(project, 'node_modules', '@autosales'), { recursive: true });
        symlinkSync(SDK_DIR, join(project, 'node_modules', '@autosales', 'sdk'), 'dir');
        copyFileSync(join(SDK_DIR, 'examples', 'quickstart.mjs'), join(project, 'quickstart.mjs'));
        // The certificate docs/webhooks.md's recipe makes, with its very command.
        const { keyFile, certFile } = recipeCertificate(project);
        const ca = readFileSync(certFile);

        const t = await rig.team();
        const secret = `whsec_${randomBytes(16).toString('hex')}`;
        const quickstart = spawnChild(process.execPath, ['quickstart.mjs'], {
          cwd: project,
          env: {
            ...process.env,
            AUTOSALES_URL: baseUrl,
            AUTOSALES_API_KEY: t.key,
            AUTOSALES_WEBHOOK_SECRET: secret,
            TLS_KEY_FILE: keyFile,
            TLS_CERT_FILE: certFile,
            RECEIVER_PORT: '0',
          },
          name: 'quickstart.mjs',
        });
        child = quickstart;
        const stdout = () => quickstart.stdout();
        const port = Number(
          (
            await waitUntil(
              () => {
                if (!quickstart.running()) throw new Error(`the script exited (${quickstart.child.exitCode})\n${quickstart.output()}`);
                return /webhook receiver on https:\/\/localhost:(\d+)\//.exec(stdout());
              },
              20_000,
              'the receiver to listen',
            )
          )[1],
        );

        // It created a client and a deal, and paged through the deals.
        await waitForOutput(stdout, containing('lead Toyota Corolla XEi 2024 Ana Beatriz Souza'), 'the deal listing');
        const api = sdk(t.key);
        expect((await api.clients.list()).data.map((c) => c.name)).toEqual(['Ana Beatriz Souza']);

        // Its receiver accepts a delivery signed the way the service signs, and nothing else.
        // Over HTTPS, with the certificate trusted (and checked for the name localhost).
        const eventId = `evt_${randomBytes(16).toString('hex')}`;
        const body = JSON.stringify({ id: eventId, type: 'deal.won', api_version: 'v1', data: { object: { title: 'João 🚗' } } });
        const post = (payload: string, timestamp: number, signature: string) =>
          httpsPost(`https://localhost:${port}/webhooks`, ca, payload, {
            'content-type': 'application/json',
            'x-service-timestamp': String(timestamp),
            'x-service-signature': signature,
            'x-service-event-id': eventId,
          });
        const now = Math.floor(Date.now() / 1000);
        expect(await post(body, now, signPayload(secret, now, body))).toBe(204);
        await waitForOutput(stdout, containing(`received deal.won ${eventId}`), 'the accepted delivery');
        expect(await post(body.replace('deal.won', 'deal.lost'), now, signPayload(secret, now, body))).toBe(401);
        expect(await post(body, now - 301, signPayload(secret, now - 301, body))).toBe(401);
        expect(await post(body, now, signPayload('another secret', now, body))).toBe(401);
        await waitForOutput(stdout, (out) => (out.match(/^refused a delivery: bad or stale signature$/gm) ?? []).length === 3, 'three refusals');
        expect(stdout()).not.toContain('received deal.lost');
        // Plain HTTP is not served.
        await expect(fetch(`http://127.0.0.1:${port}/webhooks`, { method: 'POST', body })).rejects.toThrow();
        expect(quickstart.stderr()).not.toMatch(/Error|at \S+ \(/);
      });
    });
  });
}
