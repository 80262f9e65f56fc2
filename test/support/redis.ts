import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killAllChildren, spawnChild, type ChildHandle } from './child.js';
import { freePort } from './cli.js';
import { waitUntil } from './wait.js';

class ExitedAtStart extends Error {}

/**
 * A throwaway `redis-server` of the test's own, on its own port, with no persistence, so that a test
 * can stop it mid-run and start it again on the same port, and never touches the shared Redis on
 * 6379. Every server started here is SIGKILLed by `killAllRedis()` (call it in `afterAll`) and again
 * when the test process exits.
 */

/** True when the `redis-server` binary is on the PATH (tests that need one skip otherwise). */
export const HAS_REDIS_SERVER: boolean = (() => {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore', timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
})();

/** Servers are children of ./child.ts: `killAllChildren` ends them too. */
export const killAllRedis = killAllChildren;

/** One PING over a raw socket: true when the server answers +PONG within `ms`. */
export function pingRedis(port: number, ms = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let answer = '';
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), ms);
    socket.once('error', () => done(false));
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
    socket.once('connect', () => socket.write('PING\r\n'));
  });
}

export interface ThrowawayRedis {
  port: number;
  /** `redis://127.0.0.1:<port>` */
  url: string;
  running(): boolean;
  /** Everything the current server process printed. */
  output(): string;
  /** Stops the server (SIGTERM, SIGKILL after 5 s) and waits until it has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: nothing was persisted) and waits until it answers PING. */
  start(): Promise<void>;
  /** Stops it for good and removes its directory. */
  dispose(): Promise<void>;
}

/** Starts `redis-server --port P --save "" --appendonly no` on a free port and waits until it answers. */
export async function startThrowawayRedis(): Promise<ThrowawayRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'autosales-redis-'));
  let server: ChildHandle | null = null;

  async function start(): Promise<void> {
    if (server?.running()) return;
    const spawned = spawnChild(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--loglevel', 'warning'],
      { name: `redis-server on ${port}` },
    );
    server = spawned;
    await waitUntil(
      async () => {
        if (!spawned.running()) throw new ExitedAtStart(`redis-server on ${port} exited at start:\n${spawned.output()}`);
        return pingRedis(port);
      },
      10_000,
      `redis-server on ${port} to answer PING`,
      { intervalMs: 50, failFast: (error) => error instanceof ExitedAtStart },
    ).catch(async (error: unknown) => {
      await spawned.stop('SIGKILL');
      throw error;
    });
  }

  /** SIGTERM, SIGKILL after 5 s; resolves once it has exited. */
  async function stop(): Promise<void> {
    const current = server;
    if (!current?.running()) return;
    current.child.kill('SIGTERM');
    const timer = setTimeout(() => current.child.kill('SIGKILL'), 5_000);
    await current.exited;
    clearTimeout(timer);
  }

  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    running: () => server?.running() ?? false,
    output: () => server?.output() ?? '',
    stop,
    start,
    async dispose() {
      await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
