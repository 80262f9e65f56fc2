import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './domain/webhooks/retry-schedule.js';

/** Configuration read once from the environment, validated, frozen. No secret has a default. */
export interface Config {
  port: number;
  /** REQUEST_TIMEOUT_MS: a request (headers and body) not fully received by then is answered 408 and its connection closed. */
  requestTimeoutMs: number;
  host: string;
  databaseUrl: string;
  databasePoolMax: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  webhooks: WebhookConfig;
  smtpUrl: string | null;
  alertEmailFrom: string;
  rateLimits: RateLimitConfig;
  /** Fastify trustProxy: false, true, or a comma-separated list of proxy addresses/CIDRs. */
  trustProxy: boolean | string;
  metrics: MetricsConfig;
  scheduler: SchedulerConfig;
  /** AUTH_CACHE=off: every request's key is looked up in the database, as before issue 15 (diagnostics, A/B in the bench). */
  authCache: boolean;
  /** SQLITE_GROUP_COMMIT=off: one BEGIN … COMMIT per transaction on SQLite, as before issue 15 (escape hatch, A/B in the bench). */
  sqliteGroupCommit: boolean;
  /** SQLITE_BACKGROUND_CHECKPOINTS=off: SQLite checkpoints the WAL inside a COMMIT, as before (storage/checkpointer.ts). */
  sqliteBackgroundCheckpoints: boolean;
  /** SQLITE_READ_WORKERS: worker threads that run long SQLite reads off the event loop (storage/read-workers.ts); 0: none. */
  sqliteReadWorkers: number;
  panel: PanelConfig;
}

/** The product panel (served at /): where people reach it, and how long its sessions last. */
export interface PanelConfig {
  /** PUBLIC_URL: the address people open (used in password links the CLI prints); null: http://HOST:PORT. */
  publicUrl: string | null;
  /** PANEL_SESSION_IDLE_MINUTES (default 720): a session unused this long ends. */
  sessionIdleMinutes: number;
  /** PANEL_SESSION_MAX_DAYS (default 7): a session ends this long after sign-in. */
  sessionMaxDays: number;
}

/** The scheduler of time-driven events (activity.due_soon, activity.overdue, financial.overdue). */
export interface SchedulerConfig {
  /** SCHEDULER=off: this process (serve or worker) runs no scheduler. */
  enabled: boolean;
  /** SCHEDULER_POLL_MS: time between two looks at what is due (at most 60 s, so no event is more than a minute late). */
  pollMs: number;
}

/**
 * GET /metrics. On the main port: behind METRICS_TOKEN when set; open when neither METRICS_TOKEN nor
 * METRICS_PORT is set and NODE_ENV is not production (development); otherwise 404. With METRICS_PORT,
 * also served without a token on a listener of its own (METRICS_HOST, loopback by default).
 */
export interface MetricsConfig {
  token: string | null;
  port: number | null;
  host: string;
  mainPort: 'token' | 'open' | 'off';
}

export interface RateLimitConfig {
  /** Plan limits (RATE_LIMITS=off turns them off; unauthenticated traffic stays limited). */
  enabled: boolean;
  redisUrl: string | null;
  unauthenticatedPerMinute: number;
}

export interface WebhookConfig {
  /** Run the delivery worker inside `serve` (WEBHOOK_WORKER=off leaves it to `autosales worker`). */
  workerInServe: boolean;
  timeoutMs: number;
  /** Delays before each attempt, in ms; its length is the number of attempts. */
  retrySchedule: number[];
  allowPrivateTargets: boolean;
  pollMs: number;
  concurrency: number;
}

export const DEFAULT_DATABASE_URL = 'sqlite:./data/autosales.db';
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export class ConfigError extends Error {}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean, problems: string[]): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'on', 'yes'].includes(raw)) return true;
  if (['false', '0', 'off', 'no'].includes(raw)) return false;
  problems.push(`${name} must be true/on or false/off (got '${env[name]}')`);
  return fallback;
}

function trustProxy(raw: string | undefined): boolean | string {
  if (!raw || ['false', '0', 'off', 'no'].includes(raw.trim().toLowerCase())) return false;
  if (['true', '1', 'on', 'yes'].includes(raw.trim().toLowerCase())) return true;
  return raw;
}

function schedule(env: NodeJS.ProcessEnv, problems: string[]): number[] {
  try {
    return parseRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE || DEFAULT_RETRY_SCHEDULE);
  } catch (error) {
    problems.push(`WEBHOOK_RETRY_SCHEDULE: ${(error as Error).message}`);
    return parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);
  }
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    problems.push(`${name} must be an integer from ${min} to ${max} (got '${raw}')`);
    return fallback;
  }
  return value;
}

function metricsConfig(env: NodeJS.ProcessEnv, problems: string[]): MetricsConfig {
  const token = env.METRICS_TOKEN || null;
  // The token itself is never echoed: a configuration error message may end up in a log.
  if (token !== null && !/^[\x21-\x7e]{16,256}$/.test(token)) {
    problems.push(`METRICS_TOKEN must be 16 to 256 printable ASCII characters without spaces (got ${token.length} characters; e.g. openssl rand -hex 32)`);
  }
  const port = env.METRICS_PORT ? integer(env, 'METRICS_PORT', 0, 1, 65535, problems) : null;
  const host = env.METRICS_HOST || '127.0.0.1';
  if (!/^[A-Za-z0-9.:%[\]-]{1,253}$/.test(host)) problems.push(`METRICS_HOST must be a host name or an IP address (got '${env.METRICS_HOST}')`);
  const production = env.NODE_ENV === 'production';
  const mainPort = token ? 'token' : port === null && !production ? 'open' : 'off';
  return { token, port, host, mainPort };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const problems: string[] = [];
  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got '${env.LOG_LEVEL}')`);
  const databaseUrl = env.DATABASE_URL || DEFAULT_DATABASE_URL;
  if (!/^(sqlite:.+|postgres(ql)?:\/\/.+)$/.test(databaseUrl)) {
    problems.push('DATABASE_URL must be sqlite:<path> (e.g. sqlite:./data/autosales.db, sqlite::memory:) or postgres://user@host:5432/db');
  }
  const config: Config = {
    port: integer(env, 'PORT', 3000, 0, 65535, problems),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 600_000, problems),
    host: env.HOST || '127.0.0.1',
    databaseUrl,
    databasePoolMax: integer(env, 'DATABASE_POOL_MAX', 10, 1, 1000, problems),
    logLevel,
    webhooks: {
      workerInServe: flag(env, 'WEBHOOK_WORKER', true, problems),
      timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 5000, 100, 60_000, problems),
      retrySchedule: schedule(env, problems),
      allowPrivateTargets: flag(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', false, problems),
      // A commit that queues deliveries wakes the worker (in-process on SQLite, NOTIFY on PostgreSQL):
      // the poll only finds retries falling due and what a lost wake missed.
      pollMs: integer(env, 'WEBHOOK_POLL_MS', 250, 10, 60_000, problems),
      concurrency: integer(env, 'WEBHOOK_CONCURRENCY', 32, 1, 100, problems),
    },
    rateLimits: {
      enabled: flag(env, 'RATE_LIMITS', true, problems),
      redisUrl: env.REDIS_URL || null,
      unauthenticatedPerMinute: integer(env, 'RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE', 30, 1, 100_000, problems),
    },
    trustProxy: trustProxy(env.TRUST_PROXY),
    smtpUrl: env.SMTP_URL || null,
    alertEmailFrom: env.ALERT_EMAIL_FROM || 'autosales <alertas@autosales.local>',
    metrics: metricsConfig(env, problems),
    scheduler: {
      enabled: flag(env, 'SCHEDULER', true, problems),
      pollMs: integer(env, 'SCHEDULER_POLL_MS', 15_000, 100, 60_000, problems),
    },
    authCache: flag(env, 'AUTH_CACHE', true, problems),
    sqliteGroupCommit: flag(env, 'SQLITE_GROUP_COMMIT', true, problems),
    sqliteBackgroundCheckpoints: flag(env, 'SQLITE_BACKGROUND_CHECKPOINTS', true, problems),
    sqliteReadWorkers: integer(env, 'SQLITE_READ_WORKERS', 2, 0, 16, problems),
    panel: {
      publicUrl: env.PUBLIC_URL ? env.PUBLIC_URL.replace(/\/+$/, '') : null,
      sessionIdleMinutes: integer(env, 'PANEL_SESSION_IDLE_MINUTES', 720, 5, 43_200, problems),
      sessionMaxDays: integer(env, 'PANEL_SESSION_MAX_DAYS', 7, 1, 90, problems),
    },
  };
  if (config.panel.publicUrl && !/^https?:\/\/[^/]+/.test(config.panel.publicUrl)) problems.push('PUBLIC_URL must look like https://painel.example.com');
  if (config.rateLimits.redisUrl && !/^rediss?:\/\/.+/.test(config.rateLimits.redisUrl))
    problems.push('REDIS_URL must look like redis://host:6379 or rediss://…');
  if (config.metrics.port !== null && config.metrics.port === config.port) problems.push(`METRICS_PORT must differ from PORT (both ${config.port})`);
  if (config.smtpUrl && !/^smtps?:\/\/.+/.test(config.smtpUrl)) problems.push('SMTP_URL must look like smtp://user:pass@host:587 or smtps://…');
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return Object.freeze({
    ...config,
    webhooks: Object.freeze({ ...config.webhooks }),
    rateLimits: Object.freeze({ ...config.rateLimits }),
    metrics: Object.freeze({ ...config.metrics }),
    scheduler: Object.freeze({ ...config.scheduler }),
    panel: Object.freeze({ ...config.panel }),
  });
}

/** Where people open the panel: PUBLIC_URL, or this server's own address (a wildcard host read as loopback). */
export function panelBaseUrl(config: Pick<Config, 'host' | 'port' | 'panel'>): string {
  if (config.panel.publicUrl) return config.panel.publicUrl;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/** Panel session lifetimes in the form the sessions service takes. */
export function sessionSettingsOf(config: Pick<Config, 'panel'>): { idleMs: number; absoluteMs: number } {
  return { idleMs: config.panel.sessionIdleMinutes * 60_000, absoluteMs: config.panel.sessionMaxDays * 86_400_000 };
}
