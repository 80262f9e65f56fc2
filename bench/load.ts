// Load generation with autocannon, in the runner process (the server is a separate process).
import autocannon from 'autocannon';

export interface NextRequest {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: string;
}

export interface LoadSpec {
  baseUrl: string;
  connections: number;
  /** Seconds. */
  duration: number;
  /** Default headers (authorization); a per-request key can come with `next`. */
  headers: Record<string, string>;
  next: () => NextRequest & { headers?: Record<string, string> };
  /** Checked after every response: true ends the run early (a spent rate-limit budget). */
  stopWhen?: () => boolean;
}

export interface LoadResult {
  requests: number;
  /** No request completed within the run: the latencies are the run's length, a lower bound. */
  noneCompleted: boolean;
  durationS: number;
  rps: number;
  /** Latencies in ms (sub-millisecond precision, measured by autocannon per response). */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  connections: number;
}

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  let latencies = new Float64Array(1 << 16);
  let n = 0;
  const instance = autocannon({
    url: spec.baseUrl,
    connections: spec.connections,
    duration: spec.duration,
    pipelining: 1,
    timeout: 30,
    // Checks the stop flag every 50 ms (default 1 s), so fractional durations are honoured.
    sampleInt: 50,
    headers: spec.headers,
    requests: [
      {
        setupRequest: (request) => {
          const next = spec.next();
          request.method = next.method;
          request.path = next.path;
          request.body = next.body;
          request.headers =
            next.body === undefined ? { ...spec.headers, ...next.headers } : { ...spec.headers, 'content-type': 'application/json', ...next.headers };
          return request;
        },
      },
    ],
  });
  // autocannon's instance is also a promise (of the final result), awaited below through its 'done' event.
  let stopping = false;
  void instance.on('response', (_client, _status, _bytes, responseTime) => {
    if (!stopping && spec.stopWhen?.()) {
      stopping = true;
      instance.stop();
    }
    if (n === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[n++] = responseTime;
  });
  const result = await instance;
  const sorted = latencies.subarray(0, n).sort();
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i]!;
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)]));
  // Nothing completed: every request took longer than the run; report the run's length as a lower bound.
  const none = n === 0;
  const floor = result.duration * 1000;
  return {
    requests: n,
    noneCompleted: none,
    durationS: result.duration,
    rps: n / result.duration,
    p50: none ? floor : percentile(sorted, 50),
    p90: none ? floor : percentile(sorted, 90),
    p99: none ? floor : percentile(sorted, 99),
    max: none ? floor : sorted[n - 1]!,
    mean: n ? sum / n : NaN,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    connections: spec.connections,
  };
}

/**
 * Loads run side by side (one per server process) as one: requests, rates and errors add up; the
 * latency percentiles are the worse of the runs (a bound, not a merged distribution).
 */
export function combineLoads(loads: LoadResult[]): LoadResult {
  const sum = (f: (l: LoadResult) => number) => loads.reduce((s, l) => s + f(l), 0);
  const worst = (f: (l: LoadResult) => number) => Math.max(...loads.map(f));
  const statusCodes: Record<string, number> = {};
  for (const l of loads) for (const [code, n] of Object.entries(l.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  const requests = sum((l) => l.requests);
  return {
    requests,
    noneCompleted: loads.every((l) => l.noneCompleted),
    durationS: worst((l) => l.durationS),
    rps: sum((l) => l.rps),
    p50: worst((l) => l.p50),
    p90: worst((l) => l.p90),
    p99: worst((l) => l.p99),
    max: worst((l) => l.max),
    mean: requests ? sum((l) => l.mean * l.requests) / requests : NaN,
    non2xx: sum((l) => l.non2xx),
    errors: sum((l) => l.errors),
    timeouts: sum((l) => l.timeouts),
    statusCodes,
    connections: sum((l) => l.connections),
  };
}
