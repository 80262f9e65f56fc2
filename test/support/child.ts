import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { sleep } from './wait.js';

/**
 * The one child-process helper of the suite: spawn with the output captured, bounded waits for the
 * exit, and a registry that kills (SIGKILL) whatever a test file leaves running.
 */

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const children = new Set<ChildProcess>();

/** Registers a child so `killAllChildren` (and process exit) never leaves it running. */
export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Kills (SIGKILL) every child still running. Safe to call more than once. */
export function killAllChildren(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        child.kill('SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }
  children.clear();
}
process.once('exit', killAllChildren);

export interface ChildHandle {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far (or to `logFile`). */
  output(): string;
  stdout(): string;
  stderr(): string;
  exited: Promise<Exit>;
  running(): boolean;
  /** Waits (bounded) for the process to exit by itself; SIGKILL and throw if it does not. */
  waitExit(timeoutMs?: number): Promise<Exit>;
  /** Sends a signal (only if still running) and waits (bounded) for the exit; SIGKILL and throw if it does not come. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<Exit>;
}

export interface SpawnOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Name in error messages. */
  name?: string;
  /** Both streams go to this file instead of memory (for chatty processes). */
  logFile?: string;
}

export function spawnChild(command: string, args: string[], options: SpawnOptions = {}): ChildHandle {
  const name = options.name ?? [command, ...args].join(' ');
  let stdout = '';
  let stderr = '';
  let child: ChildProcess;
  if (options.logFile) {
    const fd = openSync(options.logFile, 'w');
    child = track(spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', fd, fd] }));
    closeSync(fd);
  } else {
    child = track(spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] }));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  }
  const exited = new Promise<Exit>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const output = () => (options.logFile ? readFileSync(options.logFile, 'utf8') : stdout + stderr);
  const running = () => child.exitCode === null && child.signalCode === null;
  async function bounded(timeoutMs: number, what: string): Promise<Exit> {
    const result = await Promise.race([exited, sleep(timeoutMs).then(() => null)]);
    if (result) return result;
    child.kill('SIGKILL');
    await exited;
    throw new Error(`${name} did not exit within ${timeoutMs} ms${what}\n${output()}`);
  }
  return {
    child,
    output,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    running,
    waitExit: (timeoutMs = 15_000) => bounded(timeoutMs, ''),
    stop(signal = 'SIGTERM', timeoutMs = 15_000) {
      if (running()) child.kill(signal);
      return bounded(timeoutMs, ` of ${signal}`);
    },
  };
}
