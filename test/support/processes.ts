import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServices } from '../../src/app/services.js';
import type { Db } from '../../src/storage/db.js';
import { BIN, ROOT, childEnv, killAllChildren, track } from './cli.js';

/**
 * More helpers for tests that run the built program as separate processes (see ./cli.ts):
 * `autosales worker` as a child, bounded polling, an independent HMAC check and in-process seeding.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// `autosales worker`

/** Worker children are tracked with the other children: `killAllChildren` from ./cli.js ends them too. */
export const killAllWorkers = killAllChildren;

export interface WorkerProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends a signal (if still running) and waits (bounded) for the exit; SIGKILL and throw if it does not come. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `autosales worker` (LOG_LEVEL warn unless `env` says otherwise). Does not wait for anything. */
export function startWorker(databaseUrl: string, env: Record<string, string | undefined> = {}): WorkerProcess {
  const child = spawn(process.execPath, [BIN, 'worker'], {
    cwd: ROOT,
    env: childEnv({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      resolve({ code, signal });
    }),
  );
  return {
    child,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM', timeoutMs = 15_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const result = await Promise.race([exited, sleep(timeoutMs).then(() => null)]);
      if (result) return result;
      child.kill('SIGKILL');
      await exited;
      throw new Error(`autosales worker did not exit within ${timeoutMs} ms of ${signal}\n${output}`);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Waiting

/** Polls `check` until it returns a truthy value (returned), or throws after `timeoutMs`. */
export async function waitUntil<T>(check: () => T | Promise<T>, timeoutMs: number, what: string, intervalMs = 50): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${String(last)})`);
    await sleep(intervalMs);
  }
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
  const { teams, keys, webhooks } = createServices(db);
  const team = await teams.create({ name: `Loja webhooks ${++seq} ${Date.now().toString(36)}`, alertEmail: options.alertEmail ?? null });
  const key = await keys.create({ teamId: team.id });
  const hook = await webhooks.create({ teamId: team.id, url, events: options.events });
  return { teamId: team.id, key: key.key, webhookId: hook.id, secret: hook.secret };
}
