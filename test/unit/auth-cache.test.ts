import { describe, expect, it } from 'vitest';
import { coalescedFreshRead, createAuthCache, type AuthLookup } from '../../src/domain/teams/auth-cache.js';
import type { AuthChanges } from '../../src/storage/auth-changes.js';

/** Issue 15: the in-process cache of authentications, driven by a hand-moved token and clock. */

function fakeChanges(exact = true) {
  const state = { token: 1 as number | null };
  const changes: AuthChanges = { current: () => state.token, maxAgeMs: 1_000, exact, close: () => Promise.resolve() };
  return { state, changes };
}
const found = (teamId = 't1', epoch = 1): AuthLookup => ({
  auth: { keyId: 'k', teamId, plan: 'starter', scopes: new Set(['deals:read']) },
  epoch,
  lastUsedMs: null,
});

describe('auth cache', () => {
  it('offers a loaded key while the token stays the same, and nothing once it moves', async () => {
    const { state, changes } = fakeChanges();
    const cache = createAuthCache(changes);
    expect(cache.get('h')).toBeUndefined();
    await cache.load('h', () => Promise.resolve(found()));
    expect(cache.get('h')?.auth.teamId).toBe('t1');
    state.token = 2;
    expect(cache.get('h')).toBeUndefined();
    state.token = 1;
    expect(cache.get('h'), 'entries made before a change are gone for good').toBeUndefined();
  });

  it('never caches a refused key, nor anything while the token is unknown (fail closed)', async () => {
    const { state, changes } = fakeChanges();
    const cache = createAuthCache(changes);
    await cache.load('bad', () => Promise.resolve(null));
    expect(cache.get('bad')).toBeUndefined();
    state.token = null;
    expect((await cache.load('h', () => Promise.resolve(found())))?.auth).toMatchObject({ teamId: 't1' });
    expect(cache.get('h')).toBeUndefined();
    state.token = 1;
    expect(cache.get('h')).toBeUndefined();
  });

  it('a lookup that a revocation overtakes is not remembered (token moved, or this process cleared)', async () => {
    const { state, changes } = fakeChanges();
    const cache = createAuthCache(changes);
    await cache.load('h', async () => {
      state.token = 2; // committed while the lookup was in flight
      return found();
    });
    expect(cache.get('h')).toBeUndefined();
    await cache.load('h', async () => {
      cache.clear(); // this process revoked a key meanwhile
      return found();
    });
    expect(cache.get('h')).toBeUndefined();
    await cache.load('h', () => Promise.resolve(found()));
    expect(cache.get('h')).toBeDefined();
  });

  it('entries expire after maxAgeMs whatever the token says', async () => {
    const { changes } = fakeChanges();
    let now = 0;
    const cache = createAuthCache(changes, () => now);
    await cache.load('h', () => Promise.resolve(found()));
    now = 999;
    expect(cache.get('h')).toBeDefined();
    now = 1_000;
    expect(cache.get('h')).toBeUndefined();
  });
});

describe('coalesced fresh reads', () => {
  it('each caller gets a read sent after it asked; concurrent callers share the next one', async () => {
    const releases: Array<(n: number) => void> = [];
    let sent = 0;
    const read = coalescedFreshRead(
      () =>
        new Promise<number>((resolve) => {
          sent++;
          releases.push(resolve);
        }),
    );
    const a = read(); // starts read 1
    const b = read(); // read 1 was sent before b asked: b waits for read 2
    const c = read(); // shares read 2
    expect(sent).toBe(1);
    releases[0]!(10);
    expect(await a).toBe(10);
    await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    expect(sent).toBe(2);
    releases[1]!(11);
    expect(await b).toBe(11);
    expect(await c).toBe(11);
    const d = read();
    expect(sent).toBe(3);
    releases[2]!(12);
    expect(await d).toBe(12);
  });

  it('a failed read fails its callers only; the next caller reads again', async () => {
    let n = 0;
    const read = coalescedFreshRead(() => (++n === 1 ? Promise.reject(new Error('down')) : Promise.resolve(n)));
    await expect(read()).rejects.toThrow('down');
    expect(await read()).toBe(2);
  });
});
