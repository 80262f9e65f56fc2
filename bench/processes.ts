// Child processes of the benchmark: the autosales server (`node bin/autosales.js serve`) and the bare
// Fastify ceiling. The load generator stays in the runner process.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Resident set size of a process, in MB (Linux: VmRSS of /proc/<pid>/status). */
export function rssMb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** CPU time (user + system) of a process so far, in ms (Linux: /proc/<pid>/stat). */
export function cpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / 100;
  } catch {
    return null;
  }
}

export interface Child {
  name: string;
  process: ChildProcess;
  pid: number;
  url: string;
  logFile: string;
  /** RSS read just before the process was asked to stop. */
  finalRssMb: number | null;
  stop(): Promise<void>;
}

async function waitReady(url: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) break;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  let tail = '';
  try {
    tail = readFileSync(logFile, 'utf8').slice(-3000);
  } catch {
    /* no log */
  }
  throw new Error(`${url} did not become ready (${exited ? `process exited ${child.exitCode}` : 'timeout'}); log tail:\n${tail}`);
}

const FORWARDED_ENV = /^(PATH|HOME|LANG|LC_.*|TZ|TMPDIR|USER|SHELL|NODE_OPTIONS)$/;

export interface SpawnOptions {
  name: string;
  args: string[];
  env: Record<string, string>;
  readyPath: string;
  logDir: string;
  cwd: string;
  nodeFlags?: string[];
  port: number;
}

export async function spawnChild(options: SpawnOptions): Promise<Child> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && FORWARDED_ENV.test(k)) env[k] = v;
  Object.assign(env, options.env);
  const logFile = join(options.logDir, `${options.name}.log`);
  const log = createWriteStream(logFile);
  await new Promise<void>((resolve) => log.once('open', () => resolve()));
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), ...options.args], { cwd: options.cwd, env, stdio: ['ignore', log, log] });
  const url = `http://127.0.0.1:${options.port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const handle: Child = {
    name: options.name,
    process: child,
    pid: child.pid!,
    url,
    logFile,
    finalRssMb: null,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      handle.finalRssMb = rssMb(child.pid!);
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
      log.end();
    },
  };
  try {
    await waitReady(`${url}${options.readyPath}`, child, logFile, 30_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return handle;
}

/** Waits until the process has been (nearly) idle for a while: a slow scenario leaves queued requests behind. */
export async function waitIdle(pid: number, timeoutMs = 120_000): Promise<number> {
  const start = Date.now();
  let quiet = 0;
  let last = cpuMs(pid);
  while (Date.now() - start < timeoutMs) {
    await new Promise((r) => setTimeout(r, 100));
    const now = cpuMs(pid);
    if (now === null || last === null) return Date.now() - start;
    // Below 20% of a core for 300 ms: idle.
    quiet = now - last < 20 ? quiet + 1 : 0;
    last = now;
    if (quiet >= 3) return Date.now() - start;
  }
  return Date.now() - start;
}
