import type { DbExecutor } from '../../storage/executor.js';
import { createHash, randomBytes } from 'node:crypto';
import { notFound, validationError } from '../shared/errors.js';
import { canonicalId, newId } from '../shared/ids.js';
import { isoNow, type Clock } from '../shared/clock.js';
import { toApiTimestamp, toApiTimestampOrNull } from '../shared/time.js';
import type { ApiKeyRow } from '../../storage/database.js';
import * as repo from './api-keys.repository.js';
import type { TeamsService } from './teams.service.js';
import type { AuthChanges } from '../../storage/auth-changes.js';
import { coalescedFreshRead, createAuthCache, type AuthLookup } from './auth-cache.js';
import { DEFAULT_SCOPES, SCOPES, type ApiKeyView, type AuthContext, type CreateApiKeyInput, type Scope } from './api-keys.types.js';

const KEY_PREFIX = 'ask_';
/** `last_used_at` is kept to the minute: at most one write per key and minute, whatever the traffic. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** Every key this service issues: the prefix and 32 random bytes in base64url. */
const KEY_SHAPE = /^ask_[A-Za-z0-9_-]{43}$/;

/** Whether a presented token could be one of our keys at all (anything else needs no lookup). */
export const looksLikeApiKey = (token: string): boolean => KEY_SHAPE.test(token);

/** SHA-256 is enough here: keys carry 256 random bits, so there is nothing to brute-force offline. */
export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

function view(row: ApiKeyRow): ApiKeyView {
  return {
    id: row.id,
    team_id: row.team_id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes.split(' ') as Scope[],
    created_at: toApiTimestamp(row.created_at),
    revoked_at: toApiTimestampOrNull(row.revoked_at),
    last_used_at: toApiTimestampOrNull(row.last_used_at),
  };
}

export function parseScopes(raw: string[] | undefined): Scope[] {
  if (!raw || raw.length === 0) return [...DEFAULT_SCOPES];
  const unknown = raw.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length) throw validationError(`Escopo inválido: ${unknown.join(', ')}. Use: ${SCOPES.join(', ')}`);
  return SCOPES.filter((s) => raw.includes(s));
}

export function createApiKeysService(
  db: DbExecutor,
  {
    teams,
    clock,
    authChanges,
    committedReads = false,
  }: {
    teams: Pick<TeamsService, 'find'>;
    clock: Clock;
    /** Without it, every authentication reads the database. */
    authChanges?: AuthChanges;
    /**
     * SQLite: GET by id reads the auth_epoch counter with its record on a connection that only sees
     * committed state (storage/committed-reader.ts), so `unconfirmed` may offer a cached entry for
     * that read to confirm. False (`:memory:`): the SQLite cache is checked by `authenticate` alone.
     */
    committedReads?: boolean;
  },
) {
  // Valid keys authenticated recently, trusted only while no revocation was committed since (auth-cache.ts).
  const cache = authChanges ? createAuthCache(authChanges) : null;
  // PostgreSQL: a cached answer is confirmed by a read of auth_epoch sent after the request arrived, shared by concurrent requests.
  const freshEpoch = coalescedFreshRead(() => repo.readAuthEpoch(db));
  const lookup = async (hash: string): Promise<AuthLookup | null> => {
    const row = await repo.findActiveKeyByHash(db, hash);
    if (!row) return null;
    return {
      auth: { keyId: row.id, teamId: row.team_id, plan: row.plan, scopes: new Set(row.scopes.split(' ')) },
      epoch: Number(row.auth_epoch),
      lastUsedMs: row.last_used_at === null ? null : new Date(row.last_used_at).getTime(),
    };
  };
  /** Writes `last_used_at` when the one known is over a minute old; the time now recorded (or the old one). */
  const touchIfStale = async (keyId: string, lastUsedMs: number | null): Promise<number | null> => {
    const now = clock.now();
    if (lastUsedMs !== null && lastUsedMs >= now.getTime() - LAST_USED_RESOLUTION_MS) return lastUsedMs;
    await repo.touchApiKey(db, keyId, now.toISOString(), new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString());
    return now.getTime();
  };
  /** The caller behind a presented key, or null when the key is unknown or revoked. */
  async function authenticate(key: string): Promise<AuthContext | null> {
    const hash = hashApiKey(key);
    let found: AuthLookup | null | undefined = cache?.get(hash);
    if (found && !authChanges?.exact) {
      const epoch = await freshEpoch().catch(() => null);
      if (epoch !== found.epoch) {
        // Something was revoked or changed since the entry was made (or the read failed): ask the database.
        cache?.clear();
        found = undefined;
      }
    }
    found ??= cache ? await cache.load(hash, () => lookup(hash)) : await lookup(hash);
    if (!found) return null;
    // A cached key still records its use to the minute (the entry remembers the last write).
    found.lastUsedMs = await touchIfStale(found.auth.keyId, found.lastUsedMs);
    return found.auth;
  }
  return {
    /** Creates a key; the secret is in the result and nowhere else, ever. */
    async create(input: CreateApiKeyInput): Promise<ApiKeyView & { key: string }> {
      const team = await teams.find(input.teamId);
      if (!team) throw notFound('Time não encontrado');
      const scopes = parseScopes(input.scopes);
      const key = KEY_PREFIX + randomBytes(32).toString('base64url');
      const row = {
        id: newId(),
        team_id: team.id,
        name: input.name?.trim() || null,
        prefix: key.slice(0, KEY_PREFIX.length + 6),
        key_hash: hashApiKey(key),
        scopes: scopes.join(' '),
        created_at: isoNow(clock),
        revoked_at: null,
        last_used_at: null,
        store_id: null,
      } satisfies ApiKeyRow;
      await repo.insertApiKey(db, row);
      return { ...view(row), key };
    },

    async list(teamId: string): Promise<ApiKeyView[]> {
      const team = await teams.find(teamId);
      if (!team) throw notFound('Time não encontrado');
      return (await repo.listApiKeys(db, team.id)).map(view);
    },

    async revoke(keyId: string): Promise<ApiKeyView> {
      const id = canonicalId(keyId);
      const row = id ? await repo.revokeApiKey(db, id, isoNow(clock)) : undefined;
      // Other processes learn it from the database; this one need not wait for its own notification.
      cache?.clear();
      if (!row) throw notFound('Chave de API não encontrada');
      return view(row);
    },

    /** The key, or null for an unknown or malformed id (the panel checks its team before acting on it). */
    async find(keyId: string): Promise<ApiKeyView | null> {
      const id = canonicalId(keyId);
      const row = id ? await repo.findApiKey(db, id) : undefined;
      return row ? view(row) : null;
    },

    /**
     * For a read that confirms the authentication itself (GET by id): the cached entry for this key,
     * *not yet confirmed*. Its `epoch` must equal the auth_epoch counter read by a statement run
     * after the request arrived, in a committed snapshot, before anything is served (`confirm`).
     * - PostgreSQL: offered while the LISTEN token says nothing changed (a hint; the read decides).
     * - SQLite (`committedReads`): offered without reading the counter first; the read on the
     *   read-only connection returns it with the record, so the counter is read once per request.
     *   The counter only goes up at COMMIT, so an equal value proves nothing was revoked since the
     *   entry's lookup, by this process or any other.
     * Null when nothing is cached (or the cache is off, or `:memory:`): the hook authenticates.
     */
    unconfirmed(key: string, hash = hashApiKey(key)): AuthLookup | null {
      if (!cache || !authChanges) return null;
      if (authChanges.exact) return committedReads ? (cache.peek(hash) ?? null) : null;
      return cache.get(hash) ?? null;
    },

    /**
     * The caller behind an `unconfirmed` entry, given the counter the read returned: the entry when
     * it is unchanged, else (the counter moved, or nothing was read) the full check of
     * `authenticate`, which answers exactly as without a cache (null: revoked or unknown).
     */
    async confirm(key: string, entry: AuthLookup, epoch: number | null): Promise<AuthContext | null> {
      if (epoch !== null && epoch === entry.epoch) {
        entry.lastUsedMs = await touchIfStale(entry.auth.keyId, entry.lastUsedMs);
        return entry.auth;
      }
      // The counter moved: no entry made before it can be trusted; the next lookup refills the cache.
      if (epoch !== null) cache?.clear();
      return authenticate(key);
    },

    authenticate,
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
