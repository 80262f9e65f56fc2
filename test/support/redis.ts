import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './cli.js';

/**
 * A throwaway `redis-server` of the test's own, on its own port, with no persistence, so that a test
 * can stop it mid-run and start it again on the same port, and never touches the shared Redis on
 * 6379. Every server started here is SIGKILLed by `killAllRedis()` (call it in `afterAll`) and again
 * when the worker exits.
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

const servers = new Set<ChildProcess>();

export function killAllRedis(): void {
  for (const child of servers) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        child.kill('SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }
  servers.clear();
}
process.once('exit', killAllRedis);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
  let child: ChildProcess | null = null;
  let output = '';

  async function start(): Promise<void> {
    if (child && child.exitCode === null && child.signalCode === null) return;
    output = '';
    const spawned = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--loglevel', 'warning'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = spawned;
    servers.add(spawned);
    spawned.once('exit', () => servers.delete(spawned));
    spawned.stdout.setEncoding('utf8').on('data', (c: string) => (output += c));
    spawned.stderr.setEncoding('utf8').on('data', (c: string) => (output += c));
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (spawned.exitCode !== null || spawned.signalCode !== null) throw new Error(`redis-server on ${port} exited at start:\n${output}`);
      if (await pingRedis(port)) return;
      await sleep(50);
    }
    spawned.kill('SIGKILL');
    throw new Error(`redis-server on ${port} did not answer PING within 10 s:\n${output}`);
  }

  async function stop(): Promise<void> {
    const current = child;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise<void>((r) => current.once('exit', () => r()));
    current.kill('SIGTERM');
    const timer = setTimeout(() => current.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }

  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    running: () => !!child && child.exitCode === null && child.signalCode === null,
    output: () => output,
    stop,
    start,
    async dispose() {
      await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
