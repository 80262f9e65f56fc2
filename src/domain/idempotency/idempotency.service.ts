import { createHash } from 'node:crypto';
import type { DbExecutor } from '../../storage/executor.js';
import { isoNow, type Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { jsonText } from '../shared/json-text.js';
import * as repo from './idempotency.repository.js';
import type { Begin, StoredAnswer } from './idempotency.types.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** A "processing" record older than this belongs to a request that died: its key may be used again. */
export const ABANDONED_AFTER_MS = 60_000;

export const fingerprintOf = (method: string, route: string, body: unknown): string =>
  createHash('sha256')
    .update(`${method} ${route}\n${jsonText(body ?? null)}`)
    .digest('hex');

const conflict = () =>
  new AppError(409, 'IDEMPOTENCY_CONFLICT', 'Uma requisição com esta Idempotency-Key ainda está em andamento; tente novamente em instantes');

/** Stripe's semantics, stored in the database so they hold across processes. */
export function createIdempotencyService(db: DbExecutor, { clock }: { clock: Clock }) {
  const ageMs = (value: Date | string) => clock.now().getTime() - new Date(value).getTime();

  return {
    /** Claims the key for this request, or says to replay the stored response; conflicts are errors. */
    async begin(teamId: string, key: string, fingerprint: string): Promise<Begin> {
      for (let round = 0; round < 3; round++) {
        if (await repo.insertProcessing(db, { teamId, key, fingerprint, now: isoNow(clock) })) return { kind: 'proceed' };
        const row = await repo.findKey(db, teamId, key);
        if (!row) continue; // expired and removed between our insert and select: try again
        const stale = ageMs(row.created_at) > IDEMPOTENCY_TTL_MS || (row.status === 'processing' && ageMs(row.updated_at) > ABANDONED_AFTER_MS);
        if (stale) {
          // Only one contender deletes the stale record (the delete is conditional on what it read).
          await repo.deleteIfUnchanged(db, teamId, key, row.updated_at);
          continue;
        }
        if (row.fingerprint !== fingerprint) {
          throw new AppError(422, 'VALIDATION_ERROR', 'Esta Idempotency-Key já foi usada com uma requisição diferente');
        }
        if (row.status === 'processing') throw conflict();
        return { kind: 'replay', statusCode: row.status_code!, body: row.response_body! };
      }
      throw conflict();
    },

    /**
     * Stores the answer of the request that claimed the key. Given the transaction that created the
     * record (`executor`), the answer commits with the record or not at all.
     */
    async complete(teamId: string, key: string, answer: StoredAnswer, executor: DbExecutor = db): Promise<void> {
      await repo.storeAnswer(executor, teamId, key, { ...answer, now: isoNow(clock) });
    },

    /** Forgets the key (the request failed on our side), so a retry runs again. */
    async release(teamId: string, key: string): Promise<void> {
      await repo.deleteProcessing(db, teamId, key);
    },

    /** Drops the records older than the replay window; returns how many. */
    async purgeExpired(): Promise<number> {
      return repo.deleteCreatedBefore(db, new Date(clock.now().getTime() - IDEMPOTENCY_TTL_MS).toISOString());
    },
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
