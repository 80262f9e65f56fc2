import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServices } from '../../src/app/services.js';
import type { Db } from '../../src/storage/db.js';
import { killAllChildren, spawnChild, type ChildHandle } from './child.js';
import { BIN, ROOT, childEnv } from './cli.js';

/**
 * More helpers for tests that run the built program as separate processes (see ./cli.ts):
 * `autosales worker` as a child, an independent HMAC check and in-process seeding.
 */

// ---------------------------------------------------------------------------------------------
// `autosales worker`

/** Worker children are tracked with the other children: `killAllChildren` from ./child.js ends them too. */
export const killAllWorkers = killAllChildren;

export type WorkerProcess = ChildHandle;

/** Starts `autosales worker` (LOG_LEVEL warn unless `env` says otherwise). Does not wait for anything. */
export function startWorker(databaseUrl: string, env: Record<string, string | undefined> = {}): WorkerProcess {
  return spawnChild(process.execPath, [BIN, 'worker'], {
    cwd: ROOT,
    env: childEnv({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', ...env }),
    name: 'autosales worker',
  });
}

// ---------------------------------------------------------------------------------------------
// Signature check written from the documented algorithm, independent of src/

/** A stock HMAC-SHA256 check, as an integrator would write it with node:crypto only. */
export function stockSignatureCheck(rawBody: string, headers: Record<string, string | string[] | undefined>, secret: string): boolean {
  const timestamp = headers['x-service-timestamp'];
  const signature = headers['x-service-signature'];
  if (typeof timestamp !== 'string' || !/^\d+$/.test(timestamp)) return false;
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) return false;
  if (Math.abs(Math.floor(Date.now() / 1000) - Number(timestamp)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
  return timingSafeEqual(Buffer.from(expected, 'utf8'), Buffer.from(signature, 'utf8'));
}

// ---------------------------------------------------------------------------------------------
// Seeding (in-process, for tests whose subject is not the CLI itself)

let seq = 0;

/** A team (with an alert address), an all-scopes API key and a webhook to `url`, written directly to `db`. */
export async function seedWebhookTeam(
  db: Db,
  url: string,
  options: { alertEmail?: string; events?: string[] } = {},
): Promise<{ teamId: string; key: string; webhookId: string; secret: string }> {
  // The receivers listen on this machine: seeding accepts private targets (what each process delivers to is its own setting).
  const { teams, keys, webhooks } = createServices(db, { allowPrivateWebhookTargets: true });
  const team = await teams.create({ name: `Loja webhooks ${++seq} ${Date.now().toString(36)}`, alertEmail: options.alertEmail ?? null });
  const key = await keys.create({ teamId: team.id });
  const hook = await webhooks.create({ teamId: team.id, url, events: options.events });
  return { teamId: team.id, key: key.key, webhookId: hook.id, secret: hook.secret };
}
