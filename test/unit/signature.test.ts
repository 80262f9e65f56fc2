import { execFileSync } from 'node:child_process';
import { describe, it, expect } from 'vitest';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, signPayload, verifyWebhookSignature } from '../../src/domain/webhooks/signature.js';

const SECRET = 'whsec_test_5f1c9a0e4b7d4e2c';
const NOW = 1_767_225_600; // 2026-01-01T00:00:00Z

/** Independent implementation: the openssl command line, fed the signed bytes on stdin. */
function opensslHmac(secret: string, signed: Buffer): string {
  const out = execFileSync('openssl', ['dgst', '-sha256', '-hmac', secret], { input: signed }).toString('utf8').trim();
  // "SHA2-256(stdin)= <hex>" (OpenSSL 3) or "(stdin)= <hex>" (older versions).
  const hex = out.split('=').pop()?.trim() ?? '';
  expect(hex).toMatch(/^[0-9a-f]{64}$/);
  return hex;
}

function signedBytes(timestamp: number, body: string | Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), typeof body === 'string' ? Buffer.from(body, 'utf8') : body]);
}

function headersFor(timestamp: number, signature: string): Record<string, string> {
  return {
    [SIGNATURE_HEADER]: signature,
    [TIMESTAMP_HEADER]: String(timestamp),
    [EVENT_ID_HEADER]: 'evt_0193f0c4a1b27c3e8d4f5a6b7c8d9e0f',
    'content-type': 'application/json',
  };
}

const BODIES: Record<string, string> = {
  'plain JSON': '{"id":"evt_1","type":"deal.created","api_version":"v1"}',
  'Portuguese name': '{"data":{"object":{"name":"João Conceição","city":"São Paulo"}}}',
  'emoji and astral characters': '{"title":"Carro novo 🚗🎉","notes":"𝒜 mais ✓"}',
  'empty body': '',
  'body with dots, newlines and spaces': '{\n  "a": "1.2.3",\n  "b": " x "\n}\n',
};

describe('signPayload', () => {
  it.each(Object.entries(BODIES))('matches openssl for a %s', (_label, body) => {
    const expected = opensslHmac(SECRET, signedBytes(NOW, body));
    expect(signPayload(SECRET, NOW, body)).toBe(expected);
  });

  it('is lower-case hex, 64 characters', () => {
    expect(signPayload(SECRET, NOW, '{}')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes with the timestamp and with the secret', () => {
    const base = signPayload(SECRET, NOW, '{}');
    expect(signPayload(SECRET, NOW + 1, '{}')).not.toBe(base);
    expect(signPayload(`${SECRET}x`, NOW, '{}')).not.toBe(base);
  });
});

describe('verifyWebhookSignature', () => {
  it.each(Object.entries(BODIES))('accepts an openssl signature for a %s (string and Buffer body)', (_label, body) => {
    const signature = opensslHmac(SECRET, signedBytes(NOW, body));
    const headers = headersFor(NOW, signature);
    expect(verifyWebhookSignature(body, headers, SECRET, { now: NOW })).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body, 'utf8'), headers, SECRET, { now: NOW })).toBe(true);
  });

  it('uses the raw bytes of a Buffer body, even when they are not valid UTF-8', () => {
    const body = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0x22, 0x7d]);
    const signature = opensslHmac(SECRET, signedBytes(NOW, body));
    expect(verifyWebhookSignature(body, headersFor(NOW, signature), SECRET, { now: NOW })).toBe(true);
    // Decoding to a string first replaces the invalid bytes, so the check must fail.
    expect(verifyWebhookSignature(body.toString('utf8'), headersFor(NOW, signature), SECRET, { now: NOW })).toBe(false);
  });

  it('accepts a body re-encoded differently only if the bytes are identical', () => {
    // Same JSON value, different bytes (escaped vs literal "ã"): must be rejected.
    const sent = '{"name":"João"}';
    const reserialised = '{"name":"Jo\\u00e3o"}';
    expect(JSON.parse(reserialised)).toEqual(JSON.parse(sent));
    const signature = signPayload(SECRET, NOW, sent);
    expect(verifyWebhookSignature(reserialised, headersFor(NOW, signature), SECRET, { now: NOW })).toBe(false);
  });

  describe('timestamp tolerance', () => {
    const body = '{"id":"evt_tol"}';
    const check = (timestamp: number, options: { toleranceSeconds?: number } = {}) =>
      verifyWebhookSignature(body, headersFor(timestamp, signPayload(SECRET, timestamp, body)), SECRET, { now: NOW, ...options });

    it('accepts exactly 300 s in the past and in the future', () => {
      expect(check(NOW - 300)).toBe(true);
      expect(check(NOW + 300)).toBe(true);
    });

    it('rejects 301 s in the past and in the future', () => {
      expect(check(NOW - 301)).toBe(false);
      expect(check(NOW + 301)).toBe(false);
    });

    it('honours a custom tolerance', () => {
      expect(check(NOW - 60, { toleranceSeconds: 60 })).toBe(true);
      expect(check(NOW - 61, { toleranceSeconds: 60 })).toBe(false);
      expect(check(NOW - 1000, { toleranceSeconds: 3600 })).toBe(true);
    });

    it('rejects a negative or NaN tolerance instead of throwing', () => {
      expect(check(NOW, { toleranceSeconds: -1 })).toBe(false);
      expect(check(NOW, { toleranceSeconds: Number.NaN })).toBe(false);
    });

    it('uses the real clock when `now` is not given', () => {
      const current = Math.floor(Date.now() / 1000);
      const headers = headersFor(current, signPayload(SECRET, current, body));
      expect(verifyWebhookSignature(body, headers, SECRET)).toBe(true);
      const stale = current - 3600;
      expect(verifyWebhookSignature(body, headersFor(stale, signPayload(SECRET, stale, body)), SECRET)).toBe(false);
    });

    it('rejects a signature made for another timestamp (header replaced)', () => {
      const signature = signPayload(SECRET, NOW - 10, body);
      expect(verifyWebhookSignature(body, headersFor(NOW, signature), SECRET, { now: NOW })).toBe(false);
    });
  });

  describe('rejections', () => {
    const body = '{"id":"evt_rej","data":{"object":{"name":"João"}}}';
    const signature = signPayload(SECRET, NOW, body);

    it('rejects the wrong secret', () => {
      expect(verifyWebhookSignature(body, headersFor(NOW, signature), 'another-secret', { now: NOW })).toBe(false);
      expect(verifyWebhookSignature(body, headersFor(NOW, signature), '', { now: NOW })).toBe(false);
    });

    it('rejects a body with one byte changed', () => {
      const bytes = Buffer.from(body, 'utf8');
      for (const index of [0, Math.floor(bytes.length / 2), bytes.length - 1]) {
        const tampered = Buffer.from(bytes);
        tampered[index] = (tampered[index] ?? 0) ^ 0x01;
        expect(verifyWebhookSignature(tampered, headersFor(NOW, signature), SECRET, { now: NOW })).toBe(false);
      }
      expect(verifyWebhookSignature(`${body} `, headersFor(NOW, signature), SECRET, { now: NOW })).toBe(false);
    });

    it('rejects an upper-case hex signature (the contract is lower-case)', () => {
      expect(verifyWebhookSignature(body, headersFor(NOW, signature), SECRET, { now: NOW })).toBe(true);
      expect(verifyWebhookSignature(body, headersFor(NOW, signature.toUpperCase()), SECRET, { now: NOW })).toBe(false);
    });

    it('rejects malformed signatures of any length without throwing', () => {
      for (const bad of ['', 'abc', signature.slice(0, 63), `${signature}0`, `sha256=${signature}`, signature.replace(/./, 'g'), '💥'.repeat(32)]) {
        expect(verifyWebhookSignature(body, headersFor(NOW, bad), SECRET, { now: NOW })).toBe(false);
      }
    });

    it('rejects malformed timestamps without throwing', () => {
      for (const bad of ['', 'abc', `${NOW}.5`, `-${NOW}`, `+${NOW}`, '1e9', `${NOW}abc`, '9'.repeat(400)]) {
        const headers = { ...headersFor(NOW, signature), [TIMESTAMP_HEADER]: bad };
        expect(verifyWebhookSignature(body, headers, SECRET, { now: NOW })).toBe(false);
      }
    });

    it('rejects missing headers', () => {
      const full = headersFor(NOW, signature);
      const { [SIGNATURE_HEADER]: _sig, ...noSignature } = full;
      const { [TIMESTAMP_HEADER]: _ts, ...noTimestamp } = full;
      expect(verifyWebhookSignature(body, noSignature, SECRET, { now: NOW })).toBe(false);
      expect(verifyWebhookSignature(body, noTimestamp, SECRET, { now: NOW })).toBe(false);
      expect(verifyWebhookSignature(body, {}, SECRET, { now: NOW })).toBe(false);
      expect(verifyWebhookSignature(body, { ...full, [SIGNATURE_HEADER]: undefined }, SECRET, { now: NOW })).toBe(false);
    });

    it('never throws on nonsense input', () => {
      const nonsense: unknown[] = [null, undefined, 42, {}, []];
      for (const value of nonsense) {
        expect(verifyWebhookSignature(value as string, headersFor(NOW, signature), SECRET, { now: NOW })).toBe(false);
        expect(verifyWebhookSignature(body, value as Record<string, string>, SECRET, { now: NOW })).toBe(false);
        expect(verifyWebhookSignature(body, headersFor(NOW, signature), value as string, { now: NOW })).toBe(false);
      }
    });
  });

  describe('header shapes', () => {
    const body = '{"id":"evt_hdr","title":"Fusca 🚙"}';
    const signature = signPayload(SECRET, NOW, body);

    it('reads plain-object headers case-insensitively', () => {
      const headers = { 'X-Service-Signature': signature, 'X-SERVICE-TIMESTAMP': String(NOW) };
      expect(verifyWebhookSignature(body, headers, SECRET, { now: NOW })).toBe(true);
    });

    it('accepts a single-entry array value and rejects several values', () => {
      expect(verifyWebhookSignature(body, { [SIGNATURE_HEADER]: [signature], [TIMESTAMP_HEADER]: [String(NOW)] }, SECRET, { now: NOW })).toBe(true);
      const other = signPayload('other', NOW, body);
      expect(verifyWebhookSignature(body, { [SIGNATURE_HEADER]: [other, signature], [TIMESTAMP_HEADER]: String(NOW) }, SECRET, { now: NOW })).toBe(false);
      expect(verifyWebhookSignature(body, { [SIGNATURE_HEADER]: [signature, signature], [TIMESTAMP_HEADER]: String(NOW) }, SECRET, { now: NOW })).toBe(false);
      expect(verifyWebhookSignature(body, { [SIGNATURE_HEADER]: [], [TIMESTAMP_HEADER]: String(NOW) }, SECRET, { now: NOW })).toBe(false);
    });

    it('rejects the same header given twice under differently-cased keys', () => {
      const headers = { [SIGNATURE_HEADER]: signature, 'X-Service-Signature': signature, [TIMESTAMP_HEADER]: String(NOW) };
      expect(verifyWebhookSignature(body, headers, SECRET, { now: NOW })).toBe(false);
    });

    it('reads a fetch Headers object', () => {
      const headers = new Headers({ 'X-Service-Signature': signature, 'X-Service-Timestamp': String(NOW), 'Content-Type': 'application/json' });
      expect(verifyWebhookSignature(body, headers, SECRET, { now: NOW })).toBe(true);
      const duplicated = new Headers(headers);
      duplicated.append('x-service-signature', signature);
      expect(verifyWebhookSignature(body, duplicated, SECRET, { now: NOW })).toBe(false);
      expect(verifyWebhookSignature(body, new Headers(), SECRET, { now: NOW })).toBe(false);
    });

    it('works end to end through a fetch Request with a Buffer body', async () => {
      const request = new Request('https://receiver.example/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headersFor(NOW, signature) },
        body,
      });
      const raw = Buffer.from(await request.arrayBuffer());
      expect(verifyWebhookSignature(raw, request.headers, SECRET, { now: NOW })).toBe(true);
    });
  });
});
