/** Configuration read once from the environment, validated, frozen. No secret has a default. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  databasePoolMax: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

export const DEFAULT_DATABASE_URL = 'sqlite:./data/autosales.db';
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export class ConfigError extends Error {}

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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const problems: string[] = [];
  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got '${env.LOG_LEVEL}')`);
  const databaseUrl = env.DATABASE_URL || DEFAULT_DATABASE_URL;
  if (!/^(sqlite:.+|postgres(ql)?:\/\/.+)$/.test(databaseUrl)) {
    problems.push("DATABASE_URL must be sqlite:<path> (e.g. sqlite:./data/autosales.db, sqlite::memory:) or postgres://user@host:5432/db");
  }
  const config: Config = {
    port: integer(env, 'PORT', 3000, 0, 65535, problems),
    host: env.HOST || '127.0.0.1',
    databaseUrl,
    databasePoolMax: integer(env, 'DATABASE_POOL_MAX', 10, 1, 1000, problems),
    logLevel,
  };
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return Object.freeze(config);
}
