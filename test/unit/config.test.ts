import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_DATABASE_URL, loadConfig } from '../../src/config.js';

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has defaults for everything: PORT 3000, HOST 127.0.0.1, SQLite in ./data, LOG_LEVEL info', () => {
    expect(loadConfig({})).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: 'sqlite:./data/autosales.db',
      databasePoolMax: 10,
      logLevel: 'info',
    });
    expect(DEFAULT_DATABASE_URL).toBe('sqlite:./data/autosales.db');
  });

  it('AUTH_CACHE: on by default, off turns the in-process cache of authentications off (issue 15)', () => {
    expect(loadConfig({}).authCache).toBe(true);
    expect(loadConfig({ AUTH_CACHE: 'off' }).authCache).toBe(false);
    expect(configError({ AUTH_CACHE: 'maybe' }).message).toMatch(/AUTH_CACHE/);
  });

  it('SQLITE_GROUP_COMMIT: on by default, off gives one transaction per write on SQLite (issue 15)', () => {
    expect(loadConfig({}).sqliteGroupCommit).toBe(true);
    expect(loadConfig({ SQLITE_GROUP_COMMIT: 'off' }).sqliteGroupCommit).toBe(false);
    expect(loadConfig({}).sqliteBackgroundCheckpoints).toBe(true);
    expect(loadConfig({ SQLITE_BACKGROUND_CHECKPOINTS: 'off' }).sqliteBackgroundCheckpoints).toBe(false);
    expect(configError({ SQLITE_GROUP_COMMIT: 'sometimes' }).message).toMatch(/SQLITE_GROUP_COMMIT/);
  });

  it('SQLITE_READ_WORKERS: 2 read workers by default, 0 for none, a bounded integer (issue 15)', () => {
    expect(loadConfig({}).sqliteReadWorkers).toBe(2);
    expect(loadConfig({ SQLITE_READ_WORKERS: '0' }).sqliteReadWorkers).toBe(0);
    expect(loadConfig({ SQLITE_READ_WORKERS: '4' }).sqliteReadWorkers).toBe(4);
    expect(configError({ SQLITE_READ_WORKERS: '17' }).message).toMatch(/SQLITE_READ_WORKERS/);
    expect(configError({ SQLITE_READ_WORKERS: 'many' }).message).toMatch(/SQLITE_READ_WORKERS/);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', HOST: '', DATABASE_URL: '', LOG_LEVEL: '', DATABASE_POOL_MAX: '' })).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: DEFAULT_DATABASE_URL,
      databasePoolMax: 10,
      logLevel: 'info',
    });
  });

  it('reads every variable', () => {
    expect(
      loadConfig({
        PORT: '8080',
        HOST: '0.0.0.0',
        DATABASE_URL: 'postgres://app@db:5432/autosales',
        LOG_LEVEL: 'debug',
        DATABASE_POOL_MAX: '25',
      }),
    ).toMatchObject({ port: 8080, host: '0.0.0.0', databaseUrl: 'postgres://app@db:5432/autosales', databasePoolMax: 25, logLevel: 'debug' });
  });

  it.each(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])('accepts LOG_LEVEL=%s', (level) => {
    expect(loadConfig({ LOG_LEVEL: level }).logLevel).toBe(level);
  });

  it.each(['sqlite::memory:', 'sqlite:/var/lib/autosales/x.db', 'postgresql://u:p@h/db', 'postgres://h/db'])('accepts DATABASE_URL=%s', (url) => {
    expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
  });

  it('accepts PORT 0 and 65535', () => {
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
    expect(loadConfig({ PORT: '65535' }).port).toBe(65535);
  });

  it('returns a frozen object', () => {
    expect(Object.isFrozen(loadConfig({}))).toBe(true);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '3000.5'],
    ['LOG_LEVEL', 'loud'],
    ['LOG_LEVEL', 'INFO'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'sqlite:'],
    ['DATABASE_URL', './data/autosales.db'],
    ['DATABASE_POOL_MAX', '0'],
    ['DATABASE_POOL_MAX', 'many'],
  ])('%s=%s is refused with a message naming the variable', (name, value) => {
    const error = configError({ [name]: value });
    expect(error.message).toContain(name);
  });

  it('shows the refused value for numbers and levels', () => {
    expect(configError({ PORT: 'abc' }).message).toContain("'abc'");
    expect(configError({ LOG_LEVEL: 'loud' }).message).toContain("'loud'");
  });

  it('reports every bad variable at once', () => {
    const message = configError({ PORT: 'abc', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x', DATABASE_POOL_MAX: '0' }).message;
    for (const name of ['PORT', 'LOG_LEVEL', 'DATABASE_URL', 'DATABASE_POOL_MAX']) expect(message).toContain(name);
  });

  it('never echoes a database password in the error', () => {
    expect(configError({ DATABASE_URL: 'mysql://root:s3cr3t-pw@db/app' }).message).not.toContain('s3cr3t-pw');
  });
  it('scheduler: on every 15 s by default; SCHEDULER=off; SCHEDULER_POLL_MS from 100 to 60000 (never more than a minute late)', () => {
    expect(loadConfig({}).scheduler).toEqual({ enabled: true, pollMs: 15_000 });
    expect(loadConfig({ SCHEDULER: 'off', SCHEDULER_POLL_MS: '60000' }).scheduler).toEqual({ enabled: false, pollMs: 60_000 });
    expect(configError({ SCHEDULER_POLL_MS: '60001' }).message).toContain('SCHEDULER_POLL_MS must be an integer from 100 to 60000');
    expect(configError({ SCHEDULER: 'maybe' }).message).toContain('SCHEDULER must be true/on or false/off');
  });
});
