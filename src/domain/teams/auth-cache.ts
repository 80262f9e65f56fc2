import type { AuthChanges } from '../../storage/auth-changes.js';
import type { AuthContext } from './api-keys.types.js';

/** How many keys each process keeps authenticated in memory (the oldest entry goes first). */
export const AUTH_CACHE_MAX = 10_000;

/** A key lookup's answer: the caller, and the auth_epoch counter read in the same snapshot. */
export interface AuthLookup {
  auth: AuthContext;
  epoch: number;
  /** When the key's use was last written (`last_used_at`), in ms; kept up to date by the caller. */
  lastUsedMs: number | null;
}

interface Entry extends AuthLookup {
  /** The `AuthChanges` token read before the lookup that produced this entry. */
  token: number;
  /** `cleared` at that moment. */
  cleared: number;
  expiresAt: number;
}

/**
 * Valid keys this process authenticated recently, by key hash (issue 15): the hot path of an
 * authenticated request without its own key lookup, keeping "a revoked key fails on its very next
 * request" whoever revoked it.
 *
 * An entry is offered only while `changes.current()` still returns the token read *before* the
 * lookup that produced it, and for at most `changes.maxAgeMs`. When `current()` is null (SQLite inside
 * another request's transaction; PostgreSQL while its LISTEN connection is down) nothing is read
 * from or written to the cache: the database decides. On SQLite an unchanged token proves that no
 * revocation was committed since (`changes.exact`); on PostgreSQL it is only a hint, and the caller
 * confirms the entry's `epoch` against a fresh read (api-keys.service.ts).
 */
export function createAuthCache(changes: AuthChanges, now: () => number = Date.now) {
  const entries = new Map<string, Entry>();
  let seenToken: number | null = null;
  /** How many times this process cleared the cache itself (a revocation of its own). */
  let cleared = 0;

  /**
   * The entry for this key hash *without* asking `changes.current()`, for a caller that confirms
   * the entry's `epoch` against a counter it reads itself in a committed snapshot taken after the
   * request arrived (GET by id on SQLite: api-keys.service.ts, `unconfirmed`). Expired entries and
   * those made before this process cleared the cache are never offered.
   */
  function peek(hash: string): Entry | undefined {
    const entry = entries.get(hash);
    if (!entry) return undefined;
    if (entry.cleared !== cleared || entry.expiresAt <= now()) {
      entries.delete(hash);
      return undefined;
    }
    return entry;
  }

  return {
    /** The cached lookup for this key hash, if the cache may offer one right now. */
    get(hash: string): AuthLookup | undefined {
      const token = changes.current();
      if (token === null) return undefined;
      if (token !== seenToken) {
        // Something changed since the entries were made: none of them can be trusted.
        entries.clear();
        seenToken = token;
        return undefined;
      }
      const entry = peek(hash);
      if (entry && entry.token !== token) {
        entries.delete(hash);
        return undefined;
      }
      return entry;
    },

    peek,

    /** Runs the database lookup and remembers a valid answer when nothing changed meanwhile. */
    async load(hash: string, lookup: () => Promise<AuthLookup | null>): Promise<AuthLookup | null> {
      const before = changes.current();
      const clearedBefore = cleared;
      const found = await lookup();
      if (!found || before === null) return found;
      const after = changes.current();
      if (after !== before || cleared !== clearedBefore) return found;
      if (seenToken !== before) {
        entries.clear();
        seenToken = before;
      }
      entries.delete(hash);
      if (entries.size >= AUTH_CACHE_MAX) entries.delete(entries.keys().next().value!);
      const entry: Entry = { ...found, token: before, cleared, expiresAt: now() + changes.maxAgeMs };
      entries.set(hash, entry);
      return entry;
    },

    /** Forgets everything (a revocation of this process's own, or a confirmation that found the epoch moved). */
    clear(): void {
      cleared++;
      entries.clear();
    },

    size: () => entries.size,
  };
}

export type AuthCache = ReturnType<typeof createAuthCache>;

/**
 * Fresh reads of a value shared by concurrent callers: each caller gets the result of a read that
 * was *sent after it asked* (so its snapshot is not older than the caller's request), yet
 * concurrent callers share reads: while one read is in flight, every new caller waits for the one
 * next read, sent when the current one returns. At most one read in flight and one queued,
 * whatever the request rate: on PostgreSQL, confirming cached authentications costs about one
 * round trip per round-trip time for the whole process instead of one per request.
 */
export function coalescedFreshRead<T>(read: () => Promise<T>): () => Promise<T> {
  let current: Promise<T> | null = null;
  let queued: Promise<T> | null = null;
  const start = (): Promise<T> => {
    const started: Promise<T> = read().finally(() => {
      if (current === started) current = null;
    });
    current = started;
    return started;
  };
  return () => {
    if (queued) return queued;
    if (!current) return start();
    const next = current
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        queued = null;
        return start();
      });
    queued = next;
    return next;
  };
}
