import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exitOnShutdownSignal, FORCE_EXIT_MS } from '../../src/process/shutdown.js';

/** A logger that keeps its calls, a fake signal source and a fake exit. */
function rig() {
  const lines: Array<{ level: 'info' | 'error'; obj: object; msg: string }> = [];
  const logger = {
    info: (obj: object, msg: string) => void lines.push({ level: 'info', obj, msg }),
    error: (obj: object, msg: string) => void lines.push({ level: 'error', obj, msg }),
  };
  const signals = new EventEmitter();
  const exits: number[] = [];
  return { lines, logger, signals, exits, exit: (code: number) => void exits.push(code) };
}

describe('exitOnShutdownSignal (serve and worker)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('logs the signal, closes, and exits 0', async () => {
    const r = rig();
    let closed = 0;
    exitOnShutdownSignal(r.logger, () => Promise.resolve(void (closed += 1)), { message: 'encerrando', exit: r.exit, signals: r.signals });
    r.signals.emit('SIGTERM', 'SIGTERM');
    await vi.waitFor(() => expect(r.exits).toEqual([0]));
    expect(closed).toBe(1);
    expect(r.lines[0]).toEqual({ level: 'info', obj: { signal: 'SIGTERM' }, msg: 'encerrando' });
  });

  it('a failing close is logged with its error and exits 1', async () => {
    const r = rig();
    const failure = new Error('banco não fechou');
    exitOnShutdownSignal(r.logger, () => Promise.reject(failure), { message: 'encerrando worker', exit: r.exit, signals: r.signals });
    r.signals.emit('SIGINT', 'SIGINT');
    await vi.waitFor(() => expect(r.exits).toEqual([1]));
    expect(r.lines).toContainEqual({ level: 'error', obj: { err: failure }, msg: 'erro ao encerrar' });
  });

  it(`a close that hangs is cut after ${FORCE_EXIT_MS} ms: exit 1, logged`, () => {
    vi.useFakeTimers();
    const r = rig();
    exitOnShutdownSignal(r.logger, () => new Promise(() => undefined), { message: 'encerrando', exit: r.exit, signals: r.signals });
    r.signals.emit('SIGTERM', 'SIGTERM');
    vi.advanceTimersByTime(FORCE_EXIT_MS - 1);
    expect(r.exits).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(r.exits).toEqual([1]);
    expect(r.lines.at(-1)?.level).toBe('error');
  });

  it('a second signal during the close does not start another', async () => {
    const r = rig();
    let closes = 0;
    let finish: () => void = () => undefined;
    exitOnShutdownSignal(r.logger, () => new Promise<void>((resolve) => ((closes += 1), (finish = resolve))), {
      message: 'encerrando',
      exit: r.exit,
      signals: r.signals,
    });
    r.signals.emit('SIGTERM', 'SIGTERM');
    r.signals.emit('SIGINT', 'SIGINT');
    finish();
    await vi.waitFor(() => expect(r.exits).toEqual([0]));
    expect(closes).toBe(1);
  });
});
