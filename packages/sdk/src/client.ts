import { randomUUID } from 'node:crypto';
import { AutosalesError, ConnectionError, InvalidRequestError, TimeoutError, errorFromResponse } from './errors.js';
import { isRetrySafe, retryDelay, type HttpMethod, type RetrySettings } from './retry.js';
import type { paths } from './schema.js';
import type {
  Client,
  ClientCreateBody,
  ClientDeactivated,
  ClientListItem,
  ClientListParams,
  ClientUpdateBody,
  ClientUpdated,
  Deal,
  DealArchived,
  DealCreateBody,
  DealListParams,
  DealUpdateBody,
  DealUpdated,
  LeadCreateBody,
  LeadResult,
  Page,
  Store,
  StoreListParams,
  Vehicle,
  VehicleArchived,
  VehicleCreateBody,
  VehicleListParams,
  VehicleUpdateBody,
  VehicleUpdated,
  Activity,
  ActivityCreateBody,
  ActivityListParams,
  ActivityUpdateBody,
  FinancialCreateBody,
  FinancialListParams,
  FinancialRecord,
  FinancialSummary,
  FinancialSummaryParams,
  FinancialUpdateBody,
  WebhookConfig,
  WebhookCreateBody,
  WebhookCreated,
  WebhookDeleted,
  WebhookUpdateBody,
} from './types.js';
import { SDK_VERSION } from './version.js';

/** What the client needs of `fetch` (the global one fits). */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface AutosalesClientOptions {
  /** The team's API key (`ask_…`). */
  apiKey: string;
  /** Where the service answers, e.g. `https://api.example.com.br` (a trailing `/api/v1` is accepted too). */
  baseUrl: string;
  /** Retries after the first attempt (default 3; 0 turns retrying off). */
  maxRetries?: number;
  /** Time allowed for one attempt, answer body included, in ms (default 30 000). */
  timeoutMs?: number;
  /** A `fetch` to use instead of the global one (proxies, tests, instrumentation). */
  fetch?: FetchLike;
  /** Cap of the first retry's random wait in ms, doubled on every retry (default 500). */
  retryBaseDelayMs?: number;
  /** Largest backoff cap in ms (default 8 000). */
  retryMaxDelayMs?: number;
  /** A 429 whose Retry-After exceeds this many seconds is thrown at once instead of waited for (default 60). */
  maxRetryAfterSeconds?: number;
  /** Called before each retry (logging, metrics). */
  onRetry?: (info: RetryInfo) => void;
}

export interface RetryInfo {
  method: HttpMethod;
  path: string;
  /** 1 for the first retry. */
  retry: number;
  delayMs: number;
  /** What made the previous attempt fail. */
  error: AutosalesError;
}

/** Per-call options. */
export interface RequestOptions {
  /** Aborts the call, waits between retries included (the promise rejects with the signal's reason). */
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
}

export interface CreateOptions extends RequestOptions {
  /**
   * Sent as `Idempotency-Key`. By default every create gets a new UUID, kept across its retries, so
   * a create can be retried after a cut connection without creating twice. Pass your own to make
   * retries across processes safe too (e.g. an id from your system); `false` sends none, and then a
   * failure that may have happened after the service acted (5xx, connection, timeout) is not retried.
   */
  idempotencyKey?: string | false;
}

export interface ApiRequest {
  method: HttpMethod;
  /**
   * A path relative to `/api/v1`, with or without a leading slash: `deals`, `/deals/ID`. The full
   * form `/api/v1/deals` is accepted too, whether or not `baseUrl` ends with `/api/v1`. Query
   * parameters go in `query`. A malformed path (a URL, `?`, `#`, `..`, empty segments, whitespace)
   * rejects with an {@link InvalidRequestError} before anything is sent.
   */
  path: string;
  query?: Record<string, string | number | boolean | null | undefined>;
  body?: unknown;
  idempotencyKey?: string;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  /** The answer's `X-Request-Id`. */
  requestId: string | null;
  /** The parsed JSON envelope. */
  body: T;
}

interface Envelope<T> {
  success: true;
  data: T;
}
interface PageEnvelope<T> extends Page<T> {
  success: true;
}

/** The API's paths, checked against the generated document. */
const PATHS = {
  deals: '/api/v1/deals',
  deal: '/api/v1/deals/{id}',
  clients: '/api/v1/clients',
  client: '/api/v1/clients/{id}',
  vehicles: '/api/v1/vehicles',
  vehicle: '/api/v1/vehicles/{id}',
  leads: '/api/v1/leads',
  stores: '/api/v1/stores',
  store: '/api/v1/stores/{id}',
} as const satisfies Record<string, keyof paths>;

function withId(path: string, id: string): string {
  // An empty id would name the list route (trailing slashes are ignored by the service).
  if (typeof id !== 'string' || id === '') throw new InvalidRequestError(`autosales: id must be a non-empty string (got ${describe(id)})`);
  return path.replace('{id}', encodeURIComponent(id));
}

const describe = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : typeof value);

const API_PREFIX = 'api/v1';
const EXAMPLE = "e.g. 'deals', '/deals' or '/clients/ID'";

/**
 * `path` as the part after `/api/v1`, starting with a slash: `deals`, `/deals`, `api/v1/deals` and
 * `/api/v1/deals` all give `/deals`. Throws {@link InvalidRequestError} for anything that could
 * leave `/api/v1` or is not a plain path.
 */
export function apiPath(path: unknown): string {
  const refuse = (why: string): never => {
    throw new InvalidRequestError(`autosales: request path ${describe(path)} ${why}`);
  };
  if (typeof path !== 'string') return refuse(`must be a string relative to /api/v1 (${EXAMPLE})`);
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//'))
    return refuse(`must be relative to /api/v1 (${EXAMPLE}), not a URL: the address goes in baseUrl`);
  if (/[?#]/.test(path)) return refuse("must not contain '?' or '#': pass query parameters in `query`");
  // eslint-disable-next-line no-control-regex
  if (/[\s\\\u0000-\u001f\u007f]/.test(path)) return refuse('must not contain whitespace, a backslash or a control character');
  if (/%(?![0-9a-f]{2})/i.test(path)) return refuse("has a '%' that is not followed by two hex digits (percent-encode it as %25)");
  let rest = path.startsWith('/') ? path.slice(1) : path;
  if (rest === API_PREFIX || rest.startsWith(`${API_PREFIX}/`)) rest = rest.slice(API_PREFIX.length + 1);
  if (rest.endsWith('/')) rest = rest.slice(0, -1);
  if (rest === '') return refuse(`names no resource (${EXAMPLE})`);
  const segments = rest.split('/');
  // URL parsers read %2e as '.', so '%2e%2e' would climb out of /api/v1 just like '..'.
  if (segments.some((s) => s === '' || /^(\.|%2e){1,2}$/i.test(s))) return refuse("has an empty, '.' or '..' segment");
  return `/${segments.join('/')}`;
}

const DEFAULTS = {
  maxRetries: 3,
  timeoutMs: 30_000,
  retryBaseDelayMs: 500,
  retryMaxDelayMs: 8_000,
  maxRetryAfterSeconds: 60,
};

/**
 * The autosales API client.
 *
 * ```ts
 * const autosales = new AutosalesClient({ apiKey: process.env.AUTOSALES_API_KEY!, baseUrl: 'https://api.example.com.br' });
 * const deal = await autosales.deals.create({ title: 'Toyota Corolla XEi 2024', value: 149990 });
 * for await (const d of autosales.deals.iterate({ phase: 'proposta', limit: 100 })) console.log(d.title);
 * ```
 */
export class AutosalesClient {
  readonly deals: DealsResource;
  readonly clients: ClientsResource;
  readonly vehicles: VehiclesResource;
  readonly leads: LeadsResource;
  readonly stores: StoresResource;
  /** Preview areas: 501 NOT_IMPLEMENTED unless turned on for the key's team. */
  readonly activities: ActivitiesResource;
  readonly financial: FinancialResource;
  readonly webhooks: WebhooksResource;
  readonly baseUrl: string;

  readonly #apiKey: string;
  readonly #fetch: FetchLike;
  readonly #timeoutMs: number;
  readonly #retry: RetrySettings;
  readonly #onRetry: ((info: RetryInfo) => void) | undefined;

  constructor(options: AutosalesClientOptions) {
    if (typeof options?.apiKey !== 'string' || options.apiKey.trim() === '') throw new TypeError('AutosalesClient: apiKey is required');
    if (typeof options.baseUrl !== 'string' || options.baseUrl.trim() === '') throw new TypeError('AutosalesClient: baseUrl is required');
    let base: URL;
    try {
      base = new URL(options.baseUrl.trim());
    } catch {
      throw new TypeError(`AutosalesClient: baseUrl is not a URL: ${options.baseUrl}`);
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new TypeError('AutosalesClient: baseUrl must be http:// or https://');
    this.baseUrl = `${base.origin}${base.pathname}`.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
    this.#apiKey = options.apiKey.trim();
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') throw new TypeError('AutosalesClient: no fetch available (Node.js >= 20.19 has one; or pass options.fetch)');
    this.#fetch = fetchImpl;
    this.#timeoutMs = nonNegative(options.timeoutMs, DEFAULTS.timeoutMs, 'timeoutMs');
    if (this.#timeoutMs === 0) throw new TypeError('AutosalesClient: timeoutMs must be > 0');
    this.#retry = {
      maxRetries: Math.floor(nonNegative(options.maxRetries, DEFAULTS.maxRetries, 'maxRetries')),
      baseDelayMs: nonNegative(options.retryBaseDelayMs, DEFAULTS.retryBaseDelayMs, 'retryBaseDelayMs'),
      maxDelayMs: nonNegative(options.retryMaxDelayMs, DEFAULTS.retryMaxDelayMs, 'retryMaxDelayMs'),
      maxRetryAfterSeconds: nonNegative(options.maxRetryAfterSeconds, DEFAULTS.maxRetryAfterSeconds, 'maxRetryAfterSeconds'),
    };
    this.#onRetry = options.onRetry;
    this.deals = new DealsResource(this);
    this.clients = new ClientsResource(this);
    this.vehicles = new VehiclesResource(this);
    this.leads = new LeadsResource(this);
    this.stores = new StoresResource(this);
    this.activities = new ActivitiesResource(this);
    this.financial = new FinancialResource(this);
    this.webhooks = new WebhooksResource(this);
  }

  /**
   * One API call with the client's authentication, timeout and retry policy (see README: retries).
   * Resolves with the parsed 2xx envelope; rejects with an {@link AutosalesError} subclass.
   * The typed methods (`deals.*`, `clients.*`, `vehicles.*`) are built on it.
   */
  async request<T>(req: ApiRequest, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = this.#url(apiPath(req?.path), req.query);
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${this.#apiKey}`,
      'user-agent': `autosales-sdk-typescript/${SDK_VERSION} node/${process.versions.node}`,
    };
    // Serialised once: a retried keyed POST must send the very same bytes (the service compares bodies).
    let body: string | undefined;
    if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }
    if (req.idempotencyKey !== undefined) headers['idempotency-key'] = req.idempotencyKey;

    const retrySafe = isRetrySafe(req.method, req.idempotencyKey);
    const settings = options.maxRetries === undefined ? this.#retry : { ...this.#retry, maxRetries: Math.max(0, Math.floor(options.maxRetries)) };
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;

    for (let retry = 0; ; retry++) {
      let error: AutosalesError;
      try {
        const answer = await this.#attempt(url, { method: req.method, headers, ...(body === undefined ? {} : { body }) }, timeoutMs, options.signal);
        if (answer.status >= 200 && answer.status < 300) return parseSuccess<T>(answer);
        error = errorFromResponse(answer.status, answer.headers, answer.text);
      } catch (thrown) {
        if (!(thrown instanceof AutosalesError)) throw thrown; // the caller's abort
        error = thrown;
      }
      const delayMs = retryDelay(error, retry, retrySafe, settings);
      if (delayMs === null) throw error;
      this.#onRetry?.({ method: req.method, path: req.path, retry: retry + 1, delayMs, error });
      await sleep(delayMs, options.signal);
    }
  }

  /** One attempt: the answer with its body read, or a ConnectionError/TimeoutError, or the caller's abort reason. */
  async #attempt(
    url: string,
    init: RequestInit,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<{ status: number; headers: Headers; text: string }> {
    signal?.throwIfAborted();
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      const response = await this.#fetch(url, { ...init, signal: combined });
      const text = await response.text();
      return { status: response.status, headers: response.headers, text };
    } catch (cause) {
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted) throw new TimeoutError(0, 'TIMEOUT', `Sem resposta do servidor em ${timeoutMs} ms`, { cause });
      const detail = cause instanceof Error ? (cause.cause instanceof Error ? `${cause.message}: ${cause.cause.message}` : cause.message) : String(cause);
      throw new ConnectionError(0, 'CONNECTION_ERROR', `Falha de conexão com o servidor (${detail})`, { cause });
    }
  }

  /** `path` as `apiPath` returns it (under /api/v1). */
  #url(path: string, query: ApiRequest['query']): string {
    const url = new URL(`${this.baseUrl}/${API_PREFIX}${path}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }
}

function parseSuccess<T>(answer: { status: number; headers: Headers; text: string }): ApiResponse<T> {
  const requestId = answer.headers.get('x-request-id');
  let body: unknown;
  try {
    body = answer.text ? JSON.parse(answer.text) : undefined;
  } catch (cause) {
    throw new AutosalesError(answer.status, 'UNEXPECTED_RESPONSE', `HTTP ${answer.status}: the answer is not JSON`, {
      requestId,
      headers: answer.headers,
      body: answer.text,
      cause,
    });
  }
  return { status: answer.status, headers: answer.headers, requestId, body: body as T };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new TypeError(`AutosalesClient: ${name} must be a number >= 0`);
  return value;
}

type Query = ApiRequest['query'];

/** Shared list/iterate logic. */
abstract class Resource {
  constructor(protected readonly client: AutosalesClient) {}

  protected async data<T>(req: ApiRequest, options: RequestOptions | undefined): Promise<T> {
    return (await this.client.request<Envelope<T>>(req, options)).body.data;
  }

  protected async page<T>(path: string, params: object | undefined, options: RequestOptions | undefined): Promise<Page<T>> {
    const { body } = await this.client.request<PageEnvelope<T>>({ method: 'GET', path, query: params as Query }, options);
    return { data: body.data, pagination: body.pagination };
  }

  /** Every item of every page from `params.page` (default 1) on, one request per page, in the list's order. */
  protected async *pages<T>(path: string, params: { page?: number } | undefined, options: RequestOptions | undefined): AsyncGenerator<T, void, undefined> {
    let page = params?.page ?? 1;
    for (;;) {
      const { data, pagination } = await this.page<T>(path, { ...params, page }, options);
      yield* data;
      if (data.length === 0 || page >= pagination.pages) return;
      page += 1;
    }
  }

  protected keyOf(options: CreateOptions | undefined): string | undefined {
    const key = options?.idempotencyKey;
    if (key === false) return undefined;
    return key ?? randomUUID();
  }
}

/** `/api/v1/deals`: sales opportunities moving through the pipeline. */
export class DealsResource extends Resource {
  /** One page (`page`, `limit`, filters, `sort`). Archived deals are left out unless `status: 'arquivado'`. */
  list(params?: DealListParams, options?: RequestOptions): Promise<Page<Deal>> {
    return this.page<Deal>(PATHS.deals, params, options);
  }

  /** Every deal matching `params`, page after page: `for await (const deal of client.deals.iterate({ phase: 'proposta' }))`. */
  iterate(params?: DealListParams, options?: RequestOptions): AsyncGenerator<Deal, void, undefined> {
    return this.pages<Deal>(PATHS.deals, params, options);
  }

  /** Creates a deal (with an Idempotency-Key: see {@link CreateOptions}). */
  create(body: DealCreateBody, options?: CreateOptions): Promise<Deal> {
    const idempotencyKey = this.keyOf(options);
    return this.data<Deal>({ method: 'POST', path: PATHS.deals, body, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) }, options);
  }

  async get(id: string, options?: RequestOptions): Promise<Deal> {
    return this.data<Deal>({ method: 'GET', path: withId(PATHS.deal, id) }, options);
  }

  /** Changes any subset of the fields; answers with id, the summary fields, every field sent and updated_at. */
  async update(id: string, body: DealUpdateBody, options?: RequestOptions): Promise<DealUpdated> {
    return this.data<DealUpdated>({ method: 'PUT', path: withId(PATHS.deal, id), body }, options);
  }

  /** Soft delete: the deal becomes `arquivado` (again: the same answer). */
  async archive(id: string, options?: RequestOptions): Promise<DealArchived> {
    return this.data<DealArchived>({ method: 'DELETE', path: withId(PATHS.deal, id) }, options);
  }
}

/** `/api/v1/clients`: individuals (PF) and companies (PJ). */
export class ClientsResource extends Resource {
  /** One page (`page`, `limit`, filters, `sort`). Inactive clients are left out unless `status: 'inactive'`. */
  list(params?: ClientListParams, options?: RequestOptions): Promise<Page<ClientListItem>> {
    return this.page<ClientListItem>(PATHS.clients, params, options);
  }

  /** Every client matching `params`, page after page. */
  iterate(params?: ClientListParams, options?: RequestOptions): AsyncGenerator<ClientListItem, void, undefined> {
    return this.pages<ClientListItem>(PATHS.clients, params, options);
  }

  /** Creates a client (with an Idempotency-Key: see {@link CreateOptions}). */
  create(body: ClientCreateBody, options?: CreateOptions): Promise<Client> {
    const idempotencyKey = this.keyOf(options);
    return this.data<Client>({ method: 'POST', path: PATHS.clients, body, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) }, options);
  }

  async get(id: string, options?: RequestOptions): Promise<Client> {
    return this.data<Client>({ method: 'GET', path: withId(PATHS.client, id) }, options);
  }

  /** Changes any subset of the fields (a partial address is merged); reactivates an inactive client. */
  async update(id: string, body: ClientUpdateBody, options?: RequestOptions): Promise<ClientUpdated> {
    return this.data<ClientUpdated>({ method: 'PUT', path: withId(PATHS.client, id), body }, options);
  }

  /** Soft delete: the client becomes `inactive` (a later update reactivates it). */
  async deactivate(id: string, options?: RequestOptions): Promise<ClientDeactivated> {
    return this.data<ClientDeactivated>({ method: 'DELETE', path: withId(PATHS.client, id) }, options);
  }
}

/** `/api/v1/vehicles`: the stock, on the team's vehicle board. */
export class VehiclesResource extends Resource {
  /** One page (`page`, `limit`, filters, `sort`). Archived vehicles are left out unless `status: 'arquivado'`. */
  list(params?: VehicleListParams, options?: RequestOptions): Promise<Page<Vehicle>> {
    return this.page<Vehicle>(PATHS.vehicles, params, options);
  }

  /** Every vehicle matching `params`, page after page: `for await (const car of client.vehicles.iterate({ brand: 'Toyota' }))`. */
  iterate(params?: VehicleListParams, options?: RequestOptions): AsyncGenerator<Vehicle, void, undefined> {
    return this.pages<Vehicle>(PATHS.vehicles, params, options);
  }

  /** Registers a vehicle (with an Idempotency-Key: see {@link CreateOptions}); a plate, chassis or RENAVAM already in stock is a DuplicateEntryError. */
  create(body: VehicleCreateBody, options?: CreateOptions): Promise<Vehicle> {
    const idempotencyKey = this.keyOf(options);
    return this.data<Vehicle>({ method: 'POST', path: PATHS.vehicles, body, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) }, options);
  }

  async get(id: string, options?: RequestOptions): Promise<Vehicle> {
    return this.data<Vehicle>({ method: 'GET', path: withId(PATHS.vehicle, id) }, options);
  }

  /** Changes any subset of the fields: moves it on the board, reprices it, marks it `vendido`, brings it back into stock. */
  async update(id: string, body: VehicleUpdateBody, options?: RequestOptions): Promise<VehicleUpdated> {
    return this.data<VehicleUpdated>({ method: 'PUT', path: withId(PATHS.vehicle, id), body }, options);
  }

  /** Soft delete: the vehicle becomes `arquivado` (idempotent). */
  async archive(id: string, options?: RequestOptions): Promise<VehicleArchived> {
    return this.data<VehicleArchived>({ method: 'DELETE', path: withId(PATHS.vehicle, id) }, options);
  }
}

/** `/api/v1/stores`: the team's stores, read only (scope stores:read). A record's `store_id` names one of them. */
export class StoresResource extends Resource {
  /** One page (`page`, `limit`, `status`, `search` on name and CNPJ, `sort`). Every store, active and inactive, unless `status` is given. */
  list(params?: StoreListParams, options?: RequestOptions): Promise<Page<Store>> {
    return this.page<Store>(PATHS.stores, params, options);
  }

  /** Every store matching `params`, page after page. */
  iterate(params?: StoreListParams, options?: RequestOptions): AsyncGenerator<Store, void, undefined> {
    return this.pages<Store>(PATHS.stores, params, options);
  }

  /** One store; NotFoundError when the team has no such store. */
  async get(id: string, options?: RequestOptions): Promise<Store> {
    return this.data<Store>({ method: 'GET', path: withId(PATHS.store, id) }, options);
  }
}

/** `/api/v1/leads`: one call from a site, a portal or a bot (scope leads:write). */
export class LeadsResource extends Resource {
  /**
   * Sends a lead: the client is found or created, the deal opened (or, for a client's recent deal of the
   * same car or source, joined with a note: `duplicate: true`), a seller assigned and a "Responder lead"
   * call scheduled. The same `source` + `external_id` again resolves to the first answer and creates
   * nothing; an Idempotency-Key is sent too (see {@link CreateOptions}).
   */
  create(body: LeadCreateBody, options?: CreateOptions): Promise<LeadResult> {
    const idempotencyKey = this.keyOf(options);
    return this.data<LeadResult>({ method: 'POST', path: PATHS.leads, body, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) }, options);
  }
}

// ---------------------------------------------------------------------------------------------
// Preview areas: the service answers 501 NOT_IMPLEMENTED (an AutosalesError with that code)
// unless an operator turned the area on for the key's team, and the key needs the area's scopes.

const PREVIEW_PATHS = {
  activities: '/api/v1/activities',
  activitiesOverdue: '/api/v1/activities/overdue',
  activity: '/api/v1/activities/{id}',
  activityComplete: '/api/v1/activities/{id}/complete',
  financial: '/api/v1/financial',
  financialOverdue: '/api/v1/financial/overdue',
  financialSummary: '/api/v1/financial/summary',
  financialRecord: '/api/v1/financial/{id}',
  webhooks: '/api/v1/webhooks',
  webhook: '/api/v1/webhooks/{id}',
} as const satisfies Record<string, keyof paths>;

/** `/api/v1/activities` (preview; scopes activities:read, activities:write). */
export class ActivitiesResource extends Resource {
  /** One page. Cancelled activities are left out unless `status: 'cancelled'`. */
  list(params?: ActivityListParams, options?: RequestOptions): Promise<Page<Activity>> {
    return this.page<Activity>(PREVIEW_PATHS.activities, params, options);
  }

  iterate(params?: ActivityListParams, options?: RequestOptions): AsyncGenerator<Activity, void, undefined> {
    return this.pages<Activity>(PREVIEW_PATHS.activities, params, options);
  }

  /** Open activities whose due time has passed. */
  overdue(params?: ActivityListParams, options?: RequestOptions): Promise<Page<Activity>> {
    return this.page<Activity>(PREVIEW_PATHS.activitiesOverdue, params, options);
  }

  /** Creates an activity (with an Idempotency-Key: see {@link CreateOptions}). */
  create(body: ActivityCreateBody, options?: CreateOptions): Promise<Activity> {
    const idempotencyKey = this.keyOf(options);
    return this.data<Activity>({ method: 'POST', path: PREVIEW_PATHS.activities, body, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) }, options);
  }

  async get(id: string, options?: RequestOptions): Promise<Activity> {
    return this.data<Activity>({ method: 'GET', path: withId(PREVIEW_PATHS.activity, id) }, options);
  }

  /** Changes any subset of the fields; answers the whole activity. */
  async update(id: string, body: ActivityUpdateBody, options?: RequestOptions): Promise<Activity> {
    return this.data<Activity>({ method: 'PUT', path: withId(PREVIEW_PATHS.activity, id), body }, options);
  }

  /** Completes (sets completed_at, emits activity.completed once). */
  async complete(id: string, options?: RequestOptions): Promise<Activity> {
    return this.data<Activity>({ method: 'PUT', path: withId(PREVIEW_PATHS.activityComplete, id) }, options);
  }

  /** Soft delete: the activity becomes `cancelled`. */
  async cancel(id: string, options?: RequestOptions): Promise<Activity> {
    return this.data<Activity>({ method: 'DELETE', path: withId(PREVIEW_PATHS.activity, id) }, options);
  }
}

/** `/api/v1/financial` (preview; scopes financial:read, financial:write). */
export class FinancialResource extends Resource {
  /** One page. Cancelled records are left out unless `status: 'cancelled'`. */
  list(params?: FinancialListParams, options?: RequestOptions): Promise<Page<FinancialRecord>> {
    return this.page<FinancialRecord>(PREVIEW_PATHS.financial, params, options);
  }

  iterate(params?: FinancialListParams, options?: RequestOptions): AsyncGenerator<FinancialRecord, void, undefined> {
    return this.pages<FinancialRecord>(PREVIEW_PATHS.financial, params, options);
  }

  /** Pending records past the end of their due date in the team's time zone. */
  overdue(params?: FinancialListParams, options?: RequestOptions): Promise<Page<FinancialRecord>> {
    return this.page<FinancialRecord>(PREVIEW_PATHS.financialOverdue, params, options);
  }

  /** Totals, statuses, categories, months and vehicle margins of a period of due dates. */
  async summary(params?: FinancialSummaryParams, options?: RequestOptions): Promise<FinancialSummary> {
    return this.data<FinancialSummary>({ method: 'GET', path: PREVIEW_PATHS.financialSummary, query: params }, options);
  }

  /** Creates a record (with an Idempotency-Key: see {@link CreateOptions}). */
  create(body: FinancialCreateBody, options?: CreateOptions): Promise<FinancialRecord> {
    const idempotencyKey = this.keyOf(options);
    return this.data<FinancialRecord>(
      { method: 'POST', path: PREVIEW_PATHS.financial, body, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) },
      options,
    );
  }

  async get(id: string, options?: RequestOptions): Promise<FinancialRecord> {
    return this.data<FinancialRecord>({ method: 'GET', path: withId(PREVIEW_PATHS.financialRecord, id) }, options);
  }

  /** Changes any subset of the fields; `{ status: 'paid', payment_method }` confirms the payment. */
  async update(id: string, body: FinancialUpdateBody, options?: RequestOptions): Promise<FinancialRecord> {
    return this.data<FinancialRecord>({ method: 'PUT', path: withId(PREVIEW_PATHS.financialRecord, id), body }, options);
  }

  /** Soft delete: the record becomes `cancelled`. */
  async cancel(id: string, options?: RequestOptions): Promise<FinancialRecord> {
    return this.data<FinancialRecord>({ method: 'DELETE', path: withId(PREVIEW_PATHS.financialRecord, id) }, options);
  }
}

/** `/api/v1/webhooks` (preview; scopes webhooks:read, webhooks:write). */
export class WebhooksResource extends Resource {
  async list(options?: RequestOptions): Promise<WebhookConfig[]> {
    return this.data<WebhookConfig[]>({ method: 'GET', path: PREVIEW_PATHS.webhooks }, options);
  }

  /** Creates a webhook; the answer carries the signing secret, which is never shown again. */
  async create(body: WebhookCreateBody, options?: RequestOptions): Promise<WebhookCreated> {
    return this.data<WebhookCreated>({ method: 'POST', path: PREVIEW_PATHS.webhooks, body }, options);
  }

  async update(id: string, body: WebhookUpdateBody, options?: RequestOptions): Promise<WebhookConfig> {
    return this.data<WebhookConfig>({ method: 'PUT', path: withId(PREVIEW_PATHS.webhook, id), body }, options);
  }

  async delete(id: string, options?: RequestOptions): Promise<WebhookDeleted> {
    return this.data<WebhookDeleted>({ method: 'DELETE', path: withId(PREVIEW_PATHS.webhook, id) }, options);
  }
}
