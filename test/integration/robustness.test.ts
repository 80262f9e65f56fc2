import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Caller, type Harness, type Response } from '../support/harness.js';
import { ANNOUNCED_ENDPOINTS, bearer } from '../support/security.js';

/**
 * "No request, however malformed, gets a 500 or stops the process." A deterministic, table-driven
 * barrage of hostile inputs over every route; each `it` collects every offending response so a
 * failure lists all of them at once.
 */

const LONG = 'x'.repeat(10_000);
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** Hostile text, used as query values (percent-encoded) and as JSON strings. */
const STRINGS: string[] = [
  '',
  ' ',
  '\t\n',
  '\u0000',
  'a\u0000b',
  '😀🚗💨',
  'João ção ÁÉÍ',
  '\u202e\u200b\ufeff',
  '%',
  '_',
  '\\',
  "'",
  '"',
  '%_\\\'"',
  "' OR '1'='1' --",
  "'; DROP TABLE deals; --",
  '1) UNION SELECT key_hash FROM api_keys --',
  "x'::uuid",
  '$1',
  '?',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  'NaN',
  'Infinity',
  '-0',
  '1e308',
  '1e400',
  '0000-00-00',
  '2026-02-30',
  'null',
  '[]',
  NIL_UUID,
  'ZZZZZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZZZZZZZZZ',
  LONG,
];

/** Values that only make sense on the wire: already percent-encoded, some of it invalid. */
const RAW_QUERY_VALUES: string[] = ['%', '%ZZ', '%E0%A4%A', '%00', '%ED%A0%80', '%FF%FE', '+', '%2B1', '%26status%3Dganho', '1%00', 'a%5B%5D'];

/** Numeric query parameters get these on top. */
const NUMBERS: string[] = [
  '0',
  '-1',
  '1.5',
  '1e20',
  '99999999999999999999',
  '9007199254740993',
  '1e-400',
  '-Infinity',
  '0x10',
  '+1',
  ' 1',
  '1_000',
  '١',
  '1000000001',
];

const DATES: string[] = ['2026-13-01', '2026-00-10', '2025-02-29', '+002026-01-01', '2026-1-1', '2026-01-01T00:00:00Z', '20260101', '9999-12-31', '0001-01-01'];

const SORTS: string[] = [
  '-',
  '--created_at',
  '+created_at',
  'created_at,title',
  'id',
  'team_id',
  'search_text',
  'CREATED_AT',
  'created_at ',
  '-title;DROP TABLE deals',
  'title desc',
  '(select 1)',
];

const DEAL_QUERY = [
  'page',
  'limit',
  'sort',
  'search',
  'status',
  'phase',
  'client_id',
  'responsible_id',
  'source',
  'store_id',
  'min_value',
  'max_value',
  'from',
  'to',
];
const CLIENT_QUERY = ['page', 'limit', 'sort', 'search', 'type', 'status', 'segment', 'store_id'];

function queryValues(param: string): string[] {
  const values = [...STRINGS.map(encodeURIComponent), ...RAW_QUERY_VALUES];
  if (['page', 'limit', 'min_value', 'max_value'].includes(param)) values.push(...NUMBERS.map(encodeURIComponent));
  if (param === 'from' || param === 'to') values.push(...DATES.map(encodeURIComponent));
  if (param === 'sort') values.push(...SORTS.map(encodeURIComponent));
  return values;
}

/** Query strings that are malformed as a whole rather than by one value. */
const WHOLE_QUERIES: string[] = [
  'status=a&status=b',
  'status=ativo&status=ganho',
  'page=1&page=2',
  'limit=10&limit=abc',
  'search=a&search=b',
  'sort=title&sort=-title',
  'search[]=x',
  'search[a]=b',
  'status[]=ativo',
  'page[]=1',
  '&&&',
  '===',
  '=x',
  'search',
  'page',
  'page=',
  'sort=',
  'limit=',
  'from=',
  'min_value=',
  'client_id=',
  '%=%',
  'a=%',
  `${LONG}=1`,
  `search=${encodeURIComponent(LONG)}&sort=${encodeURIComponent(LONG)}&store_id=${encodeURIComponent(LONG)}`,
  'page=1e20',
  'limit=99999999999999999999',
  'min_value=Infinity',
  'max_value=-Infinity&min_value=NaN',
  'min_value=1e400',
  'from=0000-00-00',
  'to=0000-00-00',
  'from=9999-12-31&to=0001-01-01',
  'page=1000000000&limit=100',
  'page=999999999&limit=99999999999999999999',
];

/** The text subset used in bodies (every field gets each): control, unicode, SQL and LIKE metacharacters, length. */
const BODY_STRINGS: string[] = [
  ' ',
  '\u0000',
  'a\u0000b',
  '😀🚗💨',
  '\u202e\u200b\ufeff',
  '%_\\\'"',
  "'; DROP TABLE deals; --",
  "x'::uuid",
  'NaN',
  '1e400',
  '0000-00-00',
  '2026-02-30',
  NIL_UUID,
  LONG,
];

/** Raw JSON texts put in each body field. */
const JSON_VALUES: string[] = [
  'null',
  'true',
  'false',
  '0',
  '-0',
  '-1',
  '0.1',
  '100.001',
  '1e308',
  '-1e308',
  '1e400',
  '-1e400',
  '1e-400',
  '5e-324',
  '123456789012345678901234567890',
  '999999999999.99',
  '1000000000000',
  '""',
  '"\\u0000"',
  '"\\ud800"',
  ...BODY_STRINGS.map((s) => JSON.stringify(s)),
  '[]',
  '["a"]',
  '[1,null,{}]',
  `[${'"t",'.repeat(60)}"t"]`,
  '{}',
  '{"a":1}',
  '{"city":{"a":1}}',
  '{"$gt":""}',
  `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`,
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
];

const DEAL_FIELDS = [
  'title',
  'description',
  'value',
  'phase',
  'priority',
  'probability',
  'expected_close_date',
  'client_id',
  'responsible_id',
  'source',
  'store_id',
  'case_id',
  'tags',
];
const DEAL_PUT_ONLY = ['status', 'loss_reason', 'is_starred'];
const CLIENT_FIELDS = [
  'type',
  'name',
  'display_name',
  'email',
  'phone',
  'mobile_phone',
  'whatsapp',
  'cpf',
  'rg',
  'birth_date',
  'gender',
  'marital_status',
  'nationality',
  'cnpj',
  'legal_name',
  'trade_name',
  'state_registration',
  'municipal_registration',
  'segment',
  'source',
  'store_id',
  'address',
  'notes',
  'tags',
  'credit_limit',
];
const PJ_FIELDS = new Set(['cnpj', 'legal_name', 'trade_name', 'state_registration', 'municipal_registration']);

/** A JSON object text with `field` set to a raw JSON value on top of a valid base. */
function objectWith(base: Record<string, unknown>, field: string, raw: string): string {
  const entries = Object.entries(base)
    .filter(([k]) => k !== field)
    .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  entries.push(`${JSON.stringify(field)}:${raw}`);
  return `{${entries.join(',')}}`;
}

const LEAK = /(SqliteError|QueryFailedError|syntax error at|invalid input syntax|node_modules|\.ts:\d+|\.js:\d+|\bat [\w.<>]+ \()/;

interface Offence {
  request: string;
  status: number;
  body: string;
}

function offence(request: InjectOptions, res: Response, reason: string): Offence {
  const url = typeof request.url === 'string' ? request.url : JSON.stringify(request.url);
  const payload = typeof request.payload === 'string' ? request.payload : '';
  const short = (s: string) => (s.length > 160 ? `${s.slice(0, 160)}…(${s.length} chars)` : s);
  return { request: `${request.method} ${short(url)} ${short(payload)}`.trim(), status: res.status, body: `${reason}: ${short(res.text)}` };
}

/** What every answer must look like: < 500 (501 only as the announced NOT_IMPLEMENTED), the envelope, no internals. */
function check(request: InjectOptions, res: Response, options: { allow501?: boolean } = {}): Offence | null {
  // HEAD answers carry no body; only the status can be judged (501 is the announced GET's HEAD twin).
  if (request.method === 'HEAD') return res.status >= 500 && !(res.status === 501 && options.allow501) ? offence(request, res, 'status >= 500') : null;
  if (res.status === 501 && options.allow501) {
    return res.body?.success === false && res.body?.error?.code === 'NOT_IMPLEMENTED' ? null : offence(request, res, '501 without NOT_IMPLEMENTED');
  }
  if (res.status >= 500) return offence(request, res, 'status >= 500');
  if (res.body === undefined || res.body === null || typeof res.body !== 'object') return offence(request, res, 'body is not JSON');
  if (LEAK.test(res.text)) return offence(request, res, 'internal detail leaked');
  if (res.status >= 400) {
    const error = res.body.error;
    const ok =
      res.body.success === false &&
      error &&
      typeof error.code === 'string' &&
      /^[A-Z_]+$/.test(error.code) &&
      typeof error.message === 'string' &&
      error.message.trim().length > 0 &&
      Object.keys(res.body).sort().join() === 'error,success';
    return ok ? null : offence(request, res, 'not the error envelope');
  }
  return res.body.success === true ? null : offence(request, res, '2xx without success:true');
}

async function barrage(h: Harness, requests: InjectOptions[], options: { allow501?: boolean } = {}): Promise<Offence[]> {
  const found: Offence[] = [];
  for (const request of requests) {
    let res: Response;
    try {
      res = await h.inject(request);
    } catch (error) {
      found.push({
        request: `${request.method} ${(typeof request.url === 'string' ? request.url : JSON.stringify(request.url)).slice(0, 160)}`,
        status: -1,
        body: `inject threw: ${String(error)}`,
      });
      continue;
    }
    const problem = check(request, res, options);
    if (problem) found.push(problem);
  }
  return found;
}

for (const dialect of DIALECTS) {
  describe(`robustness: no input gets a 500 (${dialect})`, () => {
    let h: Harness;
    let me: Caller;
    let dealId: string;
    let pfId: string;
    let pjId: string;
    let auth: Record<string, string>;
    let json: Record<string, string>;

    beforeAll(async () => {
      h = await createHarness(dialect);
      me = await h.team();
      auth = { authorization: bearer(me.key) };
      json = { ...auth, 'content-type': 'application/json' };
      dealId = (await me.post('/deals', { title: 'Alvo da robustez', value: 10 })).body.data.id;
      pfId = (await me.post('/clients', { type: 'PF', name: 'Pessoa alvo' })).body.data.id;
      pjId = (await me.post('/clients', { type: 'PJ', name: 'Empresa alvo' })).body.data.id;
      expect([dealId, pfId, pjId].every(Boolean)).toBe(true);
    });
    afterAll(async () => {
      await h?.close();
    });

    describe('query parameters', () => {
      for (const [resource, params] of [
        ['deals', DEAL_QUERY],
        ['clients', CLIENT_QUERY],
      ] as const) {
        for (const param of params) {
          it(`GET /${resource}?${param}=<hostile>`, async () => {
            const requests = queryValues(param).map((v): InjectOptions => ({ method: 'GET', url: `/api/v1/${resource}?${param}=${v}`, headers: auth }));
            expect(await barrage(h, requests)).toEqual([]);
          });
        }
        it(`GET /${resource} with malformed whole query strings`, async () => {
          const requests = WHOLE_QUERIES.map((q): InjectOptions => ({ method: 'GET', url: `/api/v1/${resource}?${q}`, headers: auth }));
          expect(await barrage(h, requests)).toEqual([]);
        });
      }
    });

    describe('body fields', () => {
      it('POST /deals: every field × hostile JSON values', async () => {
        const requests = DEAL_FIELDS.flatMap((field) =>
          JSON_VALUES.map((raw): InjectOptions => ({
            method: 'POST',
            url: '/api/v1/deals',
            headers: json,
            payload: objectWith({ title: 'Robustez' }, field, raw),
          })),
        );
        expect(await barrage(h, requests)).toEqual([]);
      });

      it('PUT /deals/:id: every field × hostile JSON values', async () => {
        const requests = [...DEAL_FIELDS, ...DEAL_PUT_ONLY].flatMap((field) =>
          JSON_VALUES.map((raw): InjectOptions => ({ method: 'PUT', url: `/api/v1/deals/${dealId}`, headers: json, payload: objectWith({}, field, raw) })),
        );
        expect(await barrage(h, requests)).toEqual([]);
      });

      it('POST /clients: every field × hostile JSON values', async () => {
        const requests = CLIENT_FIELDS.flatMap((field) => {
          const base = PJ_FIELDS.has(field) ? { type: 'PJ', name: 'Empresa robusta' } : { type: 'PF', name: 'Pessoa robusta' };
          return JSON_VALUES.map((raw): InjectOptions => ({ method: 'POST', url: '/api/v1/clients', headers: json, payload: objectWith(base, field, raw) }));
        });
        expect(await barrage(h, requests)).toEqual([]);
      });

      it('PUT /clients/:id: every field × hostile JSON values', async () => {
        const requests = CLIENT_FIELDS.flatMap((field) => {
          const id = PJ_FIELDS.has(field) ? pjId : pfId;
          return JSON_VALUES.map((raw): InjectOptions => ({ method: 'PUT', url: `/api/v1/clients/${id}`, headers: json, payload: objectWith({}, field, raw) }));
        });
        expect(await barrage(h, requests)).toEqual([]);
      });

      it('address members × hostile JSON values', async () => {
        const members = ['street', 'number', 'complement', 'neighborhood', 'city', 'state', 'zip_code', 'country', '__proto__', 'constructor'];
        const requests = members.flatMap((member) =>
          JSON_VALUES.map((raw): InjectOptions => ({
            method: 'PUT',
            url: `/api/v1/clients/${pfId}`,
            headers: json,
            payload: `{"address":${objectWith({}, member, raw)}}`,
          })),
        );
        expect(await barrage(h, requests)).toEqual([]);
      });

      it('whole bodies: everything long, everything NUL, everything wrong at once', async () => {
        const fill = (value: unknown) => Object.fromEntries([...new Set([...DEAL_FIELDS, ...DEAL_PUT_ONLY, ...CLIENT_FIELDS])].map((f) => [f, value]));
        const bodies = [
          fill(LONG),
          fill('\u0000'),
          fill(1e308),
          fill([]),
          fill({}),
          fill(null),
          fill('😀'),
          fill("'; DROP TABLE clients; --"),
          { ...fill(LONG), type: 'PF' },
          { ...fill(LONG), type: 'PJ' },
        ];
        const requests = bodies.flatMap((body): InjectOptions[] => [
          { method: 'POST', url: '/api/v1/deals', headers: json, payload: JSON.stringify(body) },
          { method: 'PUT', url: `/api/v1/deals/${dealId}`, headers: json, payload: JSON.stringify(body) },
          { method: 'POST', url: '/api/v1/clients', headers: json, payload: JSON.stringify(body) },
          { method: 'PUT', url: `/api/v1/clients/${pfId}`, headers: json, payload: JSON.stringify(body) },
          { method: 'PUT', url: `/api/v1/clients/${pjId}`, headers: json, payload: JSON.stringify(body) },
        ]);
        expect(await barrage(h, requests)).toEqual([]);
      });
    });

    describe('path ids', () => {
      /** Wire-form ids (already percent-encoded where needed). */
      const ids = (): string[] => [
        '%E0%A4%A',
        '..%2f..',
        '..%2F..%2Fhealth',
        '%2e%2e',
        '%00',
        '%ZZ',
        '%',
        '%25',
        '%ED%A0%80',
        '%F0%9F%98%80',
        encodeURIComponent("' OR '1'='1' --"),
        encodeURIComponent('1; DROP TABLE deals; --'),
        encodeURIComponent("x'::uuid"),
        '1',
        '0',
        '-1',
        '1e308',
        'null',
        'undefined',
        'NaN',
        LONG,
        `${dealId}${LONG}`,
        NIL_UUID,
        'ffffffff-ffff-ffff-ffff-ffffffffffff',
        'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
        `${dealId}x`,
        `%7B${dealId}%7D`,
        dealId.replace(/-/g, ''),
        `%20${dealId}`,
        `${dealId}%00`,
        'a%2Fb',
        ';',
        '*',
        '$',
        '.',
        encodeURIComponent('😀'),
        encodeURIComponent('\u0000'),
      ];
      for (const resource of ['deals', 'clients'] as const) {
        for (const method of ['GET', 'PUT', 'DELETE'] as const) {
          it(`${method} /${resource}/<hostile id>`, async () => {
            const body = resource === 'deals' ? '{"title":"x"}' : '{"name":"x"}';
            const requests = ids().map((id): InjectOptions => ({
              method,
              url: `/api/v1/${resource}/${id}`,
              headers: method === 'PUT' ? json : auth,
              ...(method === 'PUT' ? { payload: body } : {}),
            }));
            expect(await barrage(h, requests)).toEqual([]);
          });
        }
      }

      it('announced routes with hostile ids (501 only as NOT_IMPLEMENTED)', async () => {
        const requests = ANNOUNCED_ENDPOINTS.filter(([, p]) => p.includes(':id')).flatMap(([method, path]) =>
          ids()
            .slice(0, 15)
            .map((id): InjectOptions => ({ method, url: `/api/v1${path.replace(':id', id)}`, headers: json, ...(method === 'PUT' ? { payload: '{}' } : {}) })),
        );
        expect(await barrage(h, requests, { allow501: true })).toEqual([]);
      });

      it('hostile ids without a key are 401 or 4xx, never 500', async () => {
        const requests = ids().flatMap((id): InjectOptions[] => [
          { method: 'GET', url: `/api/v1/deals/${id}` },
          { method: 'DELETE', url: `/api/v1/clients/${id}`, headers: { authorization: 'Bearer x' } },
        ]);
        expect(await barrage(h, requests)).toEqual([]);
      });
    });

    describe('headers, methods and framing', () => {
      it('odd Content-Type, Accept and Authorization headers', async () => {
        const contentTypes = [
          'application/json; charset=utf-8',
          'application/json; charset=utf-16',
          'application/json;charset=latin1',
          'APPLICATION/JSON',
          'application/jsonp',
          'application/vnd.api+json',
          'application/json-patch+json',
          'text/json',
          'application/json; boundary=x; a=b',
          '*/*',
          'application/*',
          ';',
          'application/json, text/plain',
        ];
        const requests: InjectOptions[] = contentTypes.flatMap((ct): InjectOptions[] => [
          { method: 'POST', url: '/api/v1/deals', headers: { ...auth, 'content-type': ct }, payload: '{"title":"tipo de conteúdo"}' },
          { method: 'PUT', url: `/api/v1/clients/${pfId}`, headers: { ...auth, 'content-type': ct }, payload: '{"name":"tipo de conteúdo"}' },
        ]);
        for (const accept of ['text/html', 'application/xml', '*/*;q=0', 'application/json;q=0', '']) {
          requests.push({ method: 'GET', url: '/api/v1/deals', headers: { ...auth, accept } });
          requests.push({ method: 'GET', url: '/api/v1/nope', headers: { ...auth, accept } });
        }
        for (const authorization of [
          'Bearer ' + LONG,
          'Bearer %00',
          'Bearer \t' + me.key,
          'Bearer ' + "' OR '1'='1",
          `Bearer ${me.key}, Bearer ${me.key}`,
          'Bearer ask_' + '/'.repeat(43),
        ]) {
          requests.push({ method: 'GET', url: '/api/v1/deals', headers: { authorization } });
        }
        expect(await barrage(h, requests)).toEqual([]);
      });

      it('OPTIONS, HEAD and PATCH on every path', async () => {
        const paths = [
          '/api/v1/deals',
          `/api/v1/deals/${dealId}`,
          '/api/v1/clients',
          `/api/v1/clients/${pfId}`,
          '/health',
          '/ready',
          '/api/v1/financial',
          '/api/v1/nope',
        ];
        const requests = paths.flatMap((url) =>
          (['OPTIONS', 'HEAD', 'PATCH'] as const).flatMap((method): InjectOptions[] => [
            { method, url },
            { method, url, headers: auth },
          ]),
        );
        expect(await barrage(h, requests, { allow501: true })).toEqual([]);
      });

      it('hostile bodies on GET and DELETE are ignored or refused, never 500', async () => {
        const requests = ['{', '[]', '"x"', 'null', `{"a":${'['.repeat(3000)}${']'.repeat(3000)}}`, JSON.stringify({ title: LONG })].flatMap(
          (payload): InjectOptions[] => [
            { method: 'GET', url: '/api/v1/deals', headers: json, payload },
            { method: 'DELETE', url: `/api/v1/deals/${dealId}`, headers: json, payload },
            { method: 'GET', url: `/api/v1/clients/${pfId}`, headers: json, payload },
          ],
        );
        expect(await barrage(h, requests)).toEqual([]);
      });

      it('a burst of hostile requests in parallel', async () => {
        const requests: InjectOptions[] = [];
        for (let i = 0; i < 60; i++) {
          const v = encodeURIComponent(STRINGS[i % STRINGS.length]!);
          requests.push({ method: 'GET', url: `/api/v1/deals?search=${v}&page=${i + 1}`, headers: auth });
          requests.push({
            method: 'POST',
            url: '/api/v1/clients',
            headers: json,
            payload: objectWith({ type: 'PF', name: `Rajada ${i}` }, 'notes', JSON_VALUES[i % JSON_VALUES.length]!),
          });
          requests.push({
            method: 'PUT',
            url: `/api/v1/deals/${dealId}`,
            headers: json,
            payload: objectWith({}, 'probability', JSON_VALUES[i % JSON_VALUES.length]!),
          });
        }
        const results = await Promise.all(requests.map(async (r) => check(r, await h.inject(r))));
        expect(results.filter(Boolean)).toEqual([]);
      });
    });

    describe('afterwards', () => {
      it('the app still answers /health, /ready and a normal request', async () => {
        const health = await h.inject({ method: 'GET', url: '/health' });
        expect(health.status).toBe(200);
        expect((await h.inject({ method: 'GET', url: '/ready' })).status).toBe(200);
        const list = await me.get('/deals?limit=5');
        expect(list.status, list.text).toBe(200);
        const got = await me.get(`/deals/${dealId}`);
        expect(got.status, got.text).toBe(200);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      });
    });
  });
}
