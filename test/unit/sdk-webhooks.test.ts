import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as server from '../../src/domain/webhooks/signature.js';
import * as sdk from '../../packages/sdk/src/index.js';

/**
 * The SDK carries its own copy of the webhook signature check (it cannot depend on the server
 * package). These tests hold the two to the same bytes and the same verdicts.
 */

const SECRET = 'whsec_test_5f1c9a0e4b7d4e2c';
const NOW = 1_767_225_600; // 2026-01-01T00:00:00Z
const BODY = '{"id":"evt_0195d7a3c8e47b1f9a2e6c4d8b0f1a3e","type":"deal.won","data":{"object":{"title":"João 🚗"}}}';

describe('SDK webhook signatures', () => {
  it('uses the same header names', () => {
    expect([sdk.SIGNATURE_HEADER, sdk.TIMESTAMP_HEADER, sdk.EVENT_ID_HEADER]).toEqual([
      server.SIGNATURE_HEADER,
      server.TIMESTAMP_HEADER,
      server.EVENT_ID_HEADER,
    ]);
  });

  it('signs byte for byte like the service', () => {
    for (let i = 0; i < 50; i++) {
      const secret = randomBytes(24).toString('base64url');
      const body = randomBytes(i * 7).toString('latin1') + '✓ João';
      const timestamp = NOW + i;
      expect(sdk.signWebhookPayload(secret, timestamp, body)).toBe(server.signPayload(secret, timestamp, body));
    }
  });

  it("accepts the service's signature on a string, a Buffer and a Uint8Array body", () => {
    const headers = { 'x-service-signature': server.signPayload(SECRET, NOW, BODY), 'x-service-timestamp': String(NOW) };
    const bytes = Buffer.from(BODY, 'utf8');
    expect(sdk.verifyWebhookSignature(BODY, headers, SECRET, { now: NOW })).toBe(true);
    expect(sdk.verifyWebhookSignature(bytes, headers, SECRET, { now: NOW })).toBe(true);
    expect(sdk.verifyWebhookSignature(new Uint8Array(bytes), headers, SECRET, { now: NOW })).toBe(true);
    expect(sdk.verifyWebhookSignature(BODY, new Headers(headers), SECRET, { now: NOW })).toBe(true);
    // The current clock, default tolerance.
    const now = Math.floor(Date.now() / 1000);
    expect(sdk.verifyWebhookSignature(BODY, { 'X-Service-Signature': server.signPayload(SECRET, now, BODY), 'X-Service-Timestamp': String(now) }, SECRET)).toBe(
      true,
    );
  });

  it('rejects a tampered body, another secret, and stale or future timestamps', () => {
    const headers = { 'x-service-signature': server.signPayload(SECRET, NOW, BODY), 'x-service-timestamp': String(NOW) };
    expect(sdk.verifyWebhookSignature(BODY.replace('deal.won', 'deal.lost'), headers, SECRET, { now: NOW })).toBe(false);
    expect(sdk.verifyWebhookSignature(`${BODY} `, headers, SECRET, { now: NOW })).toBe(false);
    expect(sdk.verifyWebhookSignature(BODY, headers, `${SECRET}x`, { now: NOW })).toBe(false);
    expect(sdk.verifyWebhookSignature(BODY, headers, SECRET, { now: NOW + 301 })).toBe(false);
    expect(sdk.verifyWebhookSignature(BODY, headers, SECRET, { now: NOW - 301 })).toBe(false);
    expect(sdk.verifyWebhookSignature(BODY, headers, SECRET, { now: NOW + 300 })).toBe(true);
    expect(sdk.verifyWebhookSignature(BODY, headers, SECRET, { now: NOW + 3600, toleranceSeconds: 3600 })).toBe(true);
    const stale = Math.floor(Date.now() / 1000) - 301;
    expect(
      sdk.verifyWebhookSignature(BODY, { 'x-service-signature': server.signPayload(SECRET, stale, BODY), 'x-service-timestamp': String(stale) }, SECRET),
    ).toBe(false);
  });

  it('gives the same verdict as the service on odd inputs', () => {
    const sig = server.signPayload(SECRET, NOW, BODY);
    const cases: Array<[string, unknown, unknown, unknown, object?]> = [
      ['uppercase signature', BODY, { 'x-service-signature': sig.toUpperCase(), 'x-service-timestamp': String(NOW) }, SECRET],
      ['repeated signature (array)', BODY, { 'x-service-signature': [sig, sig], 'x-service-timestamp': String(NOW) }, SECRET],
      ['one-element array', BODY, { 'x-service-signature': [sig], 'x-service-timestamp': String(NOW) }, SECRET],
      ['two keys differing in case', BODY, { 'x-service-signature': sig, 'X-Service-Signature': sig, 'x-service-timestamp': String(NOW) }, SECRET],
      ['spaces around values', BODY, { 'x-service-signature': ` ${sig} `, 'x-service-timestamp': ` ${NOW} ` }, SECRET],
      [
        'fetch Headers with a joined value',
        BODY,
        new Headers([
          ['x-service-signature', sig],
          ['x-service-signature', sig],
          ['x-service-timestamp', String(NOW)],
        ]),
        SECRET,
      ],
      ['missing timestamp', BODY, { 'x-service-signature': sig }, SECRET],
      ['timestamp with a fraction', BODY, { 'x-service-signature': sig, 'x-service-timestamp': `${NOW}.0` }, SECRET],
      ['negative tolerance', BODY, { 'x-service-signature': sig, 'x-service-timestamp': String(NOW) }, SECRET, { toleranceSeconds: -1 }],
      ['empty secret', BODY, { 'x-service-signature': sig, 'x-service-timestamp': String(NOW) }, ''],
      ['body that is a number', 42, { 'x-service-signature': sig, 'x-service-timestamp': String(NOW) }, SECRET],
      ['null headers', BODY, null, SECRET],
      ['empty body', '', { 'x-service-signature': server.signPayload(SECRET, NOW, ''), 'x-service-timestamp': String(NOW) }, SECRET],
      ['short signature', BODY, { 'x-service-signature': sig.slice(1), 'x-service-timestamp': String(NOW) }, SECRET],
    ];
    for (const [label, body, headers, secret, options] of cases) {
      const args = [body, headers, secret, { now: NOW, ...options }] as Parameters<typeof server.verifyWebhookSignature>;
      expect(sdk.verifyWebhookSignature(...(args as Parameters<typeof sdk.verifyWebhookSignature>)), label).toBe(server.verifyWebhookSignature(...args));
    }
  });
});
