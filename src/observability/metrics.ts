import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Clock } from '../domain/shared/clock.js';
import type { QueueStats } from '../domain/webhooks/deliveries.types.js';
import type { PoolStats } from '../storage/db.js';
import type { GroupCommitStats } from '../storage/group-commit.js';
import type { SendResult } from '../worker/webhook-sender.js';

export type RateLimitKind = 'plan' | 'unauthenticated';

export const DELIVERY_OUTCOMES = ['success', 'http', 'timeout', 'tls', 'dns', 'blocked', 'redirect', 'connection'] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

export interface Metrics {
  readonly registry: Registry;
  readonly contentType: string;
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  rateLimitRejected(kind: RateLimitKind): void;
  webhookAttempt(result: Pick<SendResult, 'ok' | 'errorClass'>): void;
  /** The Prometheus text exposition: this app's metrics, then the process's (CPU, memory, event loop, GC). */
  render(): Promise<string>;
}

export interface MetricsDeps {
  /** The delivery queue (services.deliveries), read at scrape time; without it the queue gauges are absent. */
  queue?: { queueStats(): Promise<QueueStats> };
  /** PostgreSQL pool usage (Db#poolStats), read at scrape time; without it the pool gauges are absent. */
  poolStats?: () => PoolStats;
  /** SQLite group commit (Db#groupCommitStats), read at scrape time; without it the commit counters are absent. */
  groupCommitStats?: () => GroupCommitStats;
  /** The age of the oldest due delivery is measured against it; the services' clock. */
  clock?: Clock;
}

// Process metrics describe the process, not an app: one registry for all the apps a process builds
// (tests build hundreds), created on first use. prom-client's global registry stays untouched.
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export function outcomeOf(result: Pick<SendResult, 'ok' | 'errorClass'>): DeliveryOutcome {
  return result.ok ? 'success' : (result.errorClass ?? 'connection');
}

/** What the gauges read at scrape time: the delivery queue of `services` and the pool of `db`. */
export const metricsSources = (
  db: { poolStats?: () => PoolStats; groupCommitStats?: () => GroupCommitStats },
  services: { deliveries: MetricsDeps['queue']; clock: Clock },
): MetricsDeps => ({
  queue: services.deliveries,
  clock: services.clock,
  ...(db.poolStats ? { poolStats: db.poolStats } : {}),
  ...(db.groupCommitStats ? { groupCommitStats: db.groupCommitStats } : {}),
});

/** Every metric of one app instance, in a registry of its own. */
export function createMetrics({ queue, poolStats, groupCommitStats, clock }: MetricsDeps = {}): Metrics {
  const nowMs = () => (clock ? clock.now().getTime() : Date.now());
  const registry = new Registry();
  const registers = [registry];

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to the end of the answer, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const rejections = new Counter({
    name: 'rate_limit_rejections_total',
    help: 'Requests refused with 429: plan limit of a team, or failed-authentication budget of an IP.',
    labelNames: ['kind'] as const,
    registers,
  });
  const deliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts made by this process, by outcome (success or the error class).',
    labelNames: ['outcome'] as const,
    registers,
  });
  // Zero series from the start, so rate() and alerts see every label before its first event.
  for (const kind of ['plan', 'unauthenticated'] as const) rejections.labels(kind).inc(0);
  for (const outcome of DELIVERY_OUTCOMES) deliveries.labels(outcome).inc(0);

  if (queue) {
    // Both queue gauges come from one query per scrape (prom-client collects them side by side).
    let stats: Promise<QueueStats | null> | null = null;
    const queueStats = () =>
      (stats ??= queue
        .queueStats()
        .catch(() => null)
        .finally(() => {
          stats = null;
        }));
    new Gauge({
      name: 'webhook_delivery_queue_depth',
      help: 'Pending webhook deliveries of enabled webhooks that are due now (read from the database at scrape time).',
      registers,
      async collect() {
        const s = await queueStats();
        // An unreadable database gives NaN (unknown) rather than a misleading 0, and the scrape still answers.
        this.set(s ? s.due : Number.NaN);
      },
    });
    new Gauge({
      name: 'webhook_delivery_oldest_due_age_seconds',
      help: 'How long the oldest due webhook delivery has been waiting (0 when none is due).',
      registers,
      async collect() {
        const s = await queueStats();
        if (!s) this.set(Number.NaN);
        else this.set(s.oldestDueAt ? Math.max(0, (nowMs() - Date.parse(s.oldestDueAt)) / 1000) : 0);
      },
    });
  }
  if (poolStats) {
    const poolGauge = (name: string, help: string, read: (p: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read(poolStats()));
        },
      });
    poolGauge('db_pool_clients', 'Open connections in the PostgreSQL pool (idle and in use).', (p) => p.total);
    poolGauge('db_pool_idle_clients', 'Open PostgreSQL connections not in use.', (p) => p.idle);
    poolGauge('db_pool_waiting_requests', 'Queries waiting for a free PostgreSQL connection.', (p) => p.waiting);
    poolGauge('db_pool_max_clients', 'Size limit of the PostgreSQL pool (DATABASE_POOL_MAX).', (p) => p.max);
  }

  if (groupCommitStats) {
    // Their ratio is the mean number of writes per COMMIT (issue 15).
    const commitCounter = (name: string, help: string, read: (s: GroupCommitStats) => number) =>
      new Counter({
        name,
        help,
        registers,
        collect() {
          this.reset();
          this.inc(read(groupCommitStats()));
        },
      });
    commitCounter('db_sqlite_commits_total', 'COMMITs of SQLite group-commit batches (failed ones included).', (s) => s.batches);
    commitCounter('db_sqlite_committed_transactions_total', 'Transactions committed by those batches (SQLite).', (s) => s.units);
  }

  // Bounded: routes are patterns (never raw URLs), methods and statuses are few.
  const requestChildren = new Map<string, { count: { inc(): void }; duration: { observe(value: number): void } }>();
  return {
    registry,
    contentType: registry.contentType,
    observeRequest(method, route, status, seconds) {
      // prom-client hashes the label values on every labels() call; the children are looked up once per (method, route, status).
      const key = `${method} ${route} ${status}`;
      let children = requestChildren.get(key);
      if (!children) {
        children = { count: requests.labels(method, route, String(status)), duration: duration.labels(method, route) };
        requestChildren.set(key, children);
      }
      children.count.inc();
      children.duration.observe(seconds);
    },
    rateLimitRejected(kind) {
      rejections.labels(kind).inc();
    },
    webhookAttempt(result) {
      deliveries.labels(outcomeOf(result)).inc();
    },
    async render() {
      const [own, process] = await Promise.all([registry.metrics(), processMetrics().metrics()]);
      return `${own.trimEnd()}\n\n${process.trimEnd()}\n`;
    },
  };
}
