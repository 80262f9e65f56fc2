import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { AppError } from '../../errors.js';
import type { Database } from '../../storage/database.js';
import { uniqueViolationIndex } from '../../storage/unique-violation.js';
import { jsonText } from '../shared/json-text.js';
import { nowIso } from '../shared/time.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** A "processing" record older than this belongs to a request that died: its key may be used again. */
export const ABANDONED_AFTER_MS = 60_000;

export type Begin = { kind: 'proceed' } | { kind: 'replay'; statusCode: number; body: string };

export const fingerprintOf = (method: string, route: string, body: unknown): string =>
  createHash('sha256').update(`${method} ${route}\n${jsonText(body ?? null)}`).digest('hex');

const ageMs = (value: Date | string) => Date.now() - new Date(value).getTime();

/** Stripe's semantics, stored in the database so they hold across processes. */
export function createIdempotencyStore(db: Kysely<Database>) {
  async function claim(teamId: string, key: string, fingerprint: string): Promise<boolean> {
    const now = nowIso();
    try {
      await db.insertInto('idempotency_keys').values({ team_id: teamId, key, fingerprint, status: 'processing', status_code: null, response_body: null, created_at: now, updated_at: now }).execute();
      return true;
    } catch (error) {
      if (uniqueViolationIndex(error) === null) throw error;
      return false;
    }
  }

  return {
    /** Claims the key for this request, or says to replay the stored response; conflicts are errors. */
    async begin(teamId: string, key: string, fingerprint: string): Promise<Begin> {
      for (let round = 0; round < 3; round++) {
        if (await claim(teamId, key, fingerprint)) return { kind: 'proceed' };
        const row = await db.selectFrom('idempotency_keys').selectAll().where('team_id', '=', teamId).where('key', '=', key).executeTakeFirst();
        if (!row) continue; // expired and removed between our insert and select: try again
        const stale = ageMs(row.created_at) > IDEMPOTENCY_TTL_MS || (row.status === 'processing' && ageMs(row.updated_at) > ABANDONED_AFTER_MS);
        if (stale) {
          // Only one contender deletes the stale record (the delete is conditional on what it read).
          await db.deleteFrom('idempotency_keys').where('team_id', '=', teamId).where('key', '=', key).where('updated_at', '=', row.updated_at).execute();
          continue;
        }
        if (row.fingerprint !== fingerprint) {
          throw new AppError(422, 'VALIDATION_ERROR', 'Esta Idempotency-Key já foi usada com uma requisição diferente');
        }
        if (row.status === 'processing') {
          throw new AppError(409, 'IDEMPOTENCY_CONFLICT', 'Uma requisição com esta Idempotency-Key ainda está em andamento; tente novamente em instantes');
        }
        return { kind: 'replay', statusCode: row.status_code!, body: row.response_body! };
      }
      throw new AppError(409, 'IDEMPOTENCY_CONFLICT', 'Uma requisição com esta Idempotency-Key ainda está em andamento; tente novamente em instantes');
    },

    async complete(teamId: string, key: string, statusCode: number, body: string): Promise<void> {
      await db
        .updateTable('idempotency_keys')
        .set({ status: 'completed', status_code: statusCode, response_body: body, updated_at: nowIso() })
        .where('team_id', '=', teamId)
        .where('key', '=', key)
        .execute();
    },

    /** Forgets the key (the request failed on our side), so a retry runs again. */
    async release(teamId: string, key: string): Promise<void> {
      await db.deleteFrom('idempotency_keys').where('team_id', '=', teamId).where('key', '=', key).where('status', '=', 'processing').execute();
    },

    async purgeExpired(): Promise<number> {
      const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', new Date(Date.now() - IDEMPOTENCY_TTL_MS).toISOString()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;
