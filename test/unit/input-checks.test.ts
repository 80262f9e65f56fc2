import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../src/domain/idempotency/idempotency.service.js';
import { jsonText } from '../../src/domain/shared/json-text.js';
import { findText, nonUtf8Parameter } from '../../src/http/input-guard.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/http/json-body.js';

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('jsonText (the idempotency fingerprint’s serializer)', () => {
  it('is exactly JSON.stringify for parsed JSON', () => {
    const values = [
      null,
      true,
      0,
      -0,
      1.5e300,
      '',
      'João "aspas" \\ \u0000 \u2028 \ud83d\ude00 \ud800',
      [],
      {},
      [1, 'a', null, [[]], { b: [{}] }],
      { title: 'x', tags: ['a', 'b'], address: { city: null, '': 1, 'ç"\\': [true] }, n: 1e-7 },
      JSON.parse('{"__proto__x":1,"z":1,"a":2,"10":3,"2":4}'),
    ];
    for (const value of values) expect(jsonText(value)).toBe(JSON.stringify(value));
  });

  it('never overflows the stack: 100,000 nested arrays give the same text JSON.stringify would', () => {
    let deep: unknown[] = [];
    const root = deep;
    for (let i = 0; i < 100_000; i++) {
      const next: unknown[] = [];
      deep.push(i % 2 ? next : { k: next });
      deep = next;
    }
    expect(() => JSON.stringify(root)).toThrow(RangeError);
    const text = jsonText(root);
    expect(text.startsWith('[{"k":[[{"k":[')).toBe(true);
    expect(text.length).toBe((100_000 + 1) * 2 + 50_000 * 6); // every array "[]", every object {"k":}
    expect(fingerprintOf('POST', '/api/v1/deals', root)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('nestsDeeperThan (before JSON.parse)', () => {
  it(`counts arrays and objects; ${MAX_JSON_DEPTH} levels pass, one more does not`, () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(`${'{"a":'.repeat(33)}1${'}'.repeat(33)}`, 32)).toBe(true);
    expect(nestsDeeperThan('[[]][[]][[]]', 2)).toBe(false);
    expect(nestsDeeperThan('{"a":[1,{"b":[]}]}', 3)).toBe(true);
  });

  it('skips brackets inside strings, escaped quotes and backslashes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ t: '[[[[[[{{{{{' }), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ t: '\\"[[[[', u: '"\\\\' }), 1)).toBe(false);
    expect(nestsDeeperThan(`{"t":"\\\\"}${nested(3)}`, 2)).toBe(true);
    expect(nestsDeeperThan(`{"t":"\\"[[[["}`, 1)).toBe(false);
  });

  it('leaves malformed text to the parser', () => {
    expect(nestsDeeperThan('{"a":"unterminated [[[[[[', 1)).toBe(false);
    expect(nestsDeeperThan(']]]]', 1)).toBe(false);
  });

  it('is linear: a 1 MiB body of quotes and backslashes is one pass', () => {
    const text = `["${'\\"'.repeat(500_000)}"]`;
    expect(nestsDeeperThan(text, 1)).toBe(false);
  });
});

describe('findText', () => {
  const nul = (s: string) => (s.includes('\u0000') ? 'nul' : null);

  it('names the first offending string in document order, lists by their name', () => {
    expect(findText({ a: 'ok', b: { c: ['x', 'y\u0000'] }, d: '\u0000' }, nul)).toEqual({ path: 'b.c', problem: 'nul' });
    expect(findText({ a: { b: { c: '\u0000' } } }, nul)?.path).toBe('a.b.c');
    expect(findText('\u0000', nul)?.path).toBe('');
    expect(findText({ a: [1, null, true, { b: 'ok' }] }, nul)).toBeNull();
  });

  it('walks 100,000 nested levels without recursion or copied paths', () => {
    let root: Record<string, unknown> = {};
    const top = root;
    for (let i = 0; i < 100_000; i++) {
      const next = {};
      root.a = next;
      root = next;
    }
    root.z = '\u0000';
    const found = findText(top, nul);
    expect(found?.path.split('.').length).toBe(100_001);
  });
});

describe('nonUtf8Parameter', () => {
  it.each([
    ['/x?search=%FF', 'search'],
    ['/x?a=1&search=Jo%E3o', 'search'],
    ['/x?s=%ED%A0%80', 's'],
    ['/x?s=%C3', 's'],
    ['/x?s=%C3%A9%C3', 's'],
    ['/x?s%C3%A9=%FF', 'sé'],
  ])('%s is refused, naming %s', (url, name) => {
    expect(nonUtf8Parameter(url)).toEqual({ name });
  });

  it('an unreadable name is refused without one', () => {
    expect(nonUtf8Parameter('/x?%FF=1')).toEqual({ name: null });
  });

  it.each(['/x', '/x?', '/x?search=Jo%C3%A3o', '/x?a=%F0%9F%98%80', '/x?a=%ZZ&b=%', '/x?a+b=c+d', '/x?a=%25FF', '/x?a=&&b'])('%s is fine', (url) => {
    expect(nonUtf8Parameter(url)).toBeNull();
  });
});
