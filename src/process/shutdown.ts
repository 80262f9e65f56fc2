import type { Logger } from '../domain/shared/logger.js';

/** How long a graceful close may take before the process exits anyway (with 1). */
export const FORCE_EXIT_MS = 10_000;

export interface ShutdownOptions {
  /** Logged with the signal, e.g. 'encerrando'. */
  message: string;
  forceExitMs?: number;
  /** process.exit and the process's signals, replaceable in tests. */
  exit?: (code: number) => void;
  signals?: { once(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown };
}

/**
 * On the first SIGTERM or SIGINT: logs it, runs `close` (finish what is in flight, then release
 * resources) and exits 0; exits 1 when `close` fails (the error is logged) or takes longer than
 * `forceExitMs`. Shared by `serve` and `worker`.
 */
export function exitOnShutdownSignal(logger: Pick<Logger, 'info' | 'error'>, close: () => Promise<unknown>, options: ShutdownOptions): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let started = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    logger.info({ signal }, options.message);
    const force = setTimeout(() => {
      logger.error({ signal, timeoutMs: options.forceExitMs ?? FORCE_EXIT_MS }, 'encerramento excedeu o tempo limite; saindo');
      exit(1);
    }, options.forceExitMs ?? FORCE_EXIT_MS);
    force.unref();
    close().then(
      () => exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'erro ao encerrar');
        exit(1);
      },
    );
  };
  const signals = options.signals ?? process;
  signals.once('SIGTERM', shutdown);
  signals.once('SIGINT', shutdown);
}
