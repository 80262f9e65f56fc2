import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from '../../src/domain/webhooks/retry-schedule.js';

describe('parseRetrySchedule', () => {
  it("the contract's schedule: 6 attempts, immediate, 5 min, 30 min, 2 h, 12 h, 24 h", () => {
    expect(parseRetrySchedule(DEFAULT_RETRY_SCHEDULE)).toEqual([0, 300_000, 1_800_000, 7_200_000, 43_200_000, 86_400_000]);
  });

  it('units ms, s, m, h, d; bare numbers are seconds; spaces allowed', () => {
    expect(parseRetrySchedule('0, 250ms, 2, 1.5s, 1m, 1h, 1d')).toEqual([0, 250, 2000, 1500, 60_000, 3_600_000, 86_400_000]);
  });

  it('refuses a first delay other than 0, junk and negative values', () => {
    expect(() => parseRetrySchedule('5m,10m')).toThrow(/first delay must be 0/);
    expect(() => parseRetrySchedule('0,soon')).toThrow(/'soon' is not a delay/);
    expect(() => parseRetrySchedule('0,-5m')).toThrow(/not a delay/);
    expect(() => parseRetrySchedule('0,5x')).toThrow(/not a delay/);
  });
});

describe('webhook configuration from the environment', () => {
  it('defaults: worker in serve, 5 s timeout, the contract schedule, private targets refused, no SMTP', () => {
    const config = loadConfig({});
    expect(config.webhooks).toMatchObject({ workerInServe: true, timeoutMs: 5000, allowPrivateTargets: false });
    expect(config.webhooks.retrySchedule).toHaveLength(6);
    expect(config.smtpUrl).toBeNull();
  });

  it('reads WEBHOOK_* and SMTP_URL', () => {
    const config = loadConfig({
      WEBHOOK_WORKER: 'off',
      WEBHOOK_TIMEOUT_MS: '300',
      WEBHOOK_RETRY_SCHEDULE: '0,100ms,100ms',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      SMTP_URL: 'smtp://u:p@127.0.0.1:2525',
    });
    expect(config.webhooks).toMatchObject({ workerInServe: false, timeoutMs: 300, retrySchedule: [0, 100, 100], allowPrivateTargets: true });
    expect(config.smtpUrl).toBe('smtp://u:p@127.0.0.1:2525');
  });

  it('names each bad variable', () => {
    expect(() => loadConfig({ WEBHOOK_WORKER: 'maybe' })).toThrow(/WEBHOOK_WORKER/);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1m' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_MS: 'fast' })).toThrow(/WEBHOOK_TIMEOUT_MS/);
    expect(() => loadConfig({ SMTP_URL: 'mail.example.com' })).toThrow(/SMTP_URL/);
  });
});
