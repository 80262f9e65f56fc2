import { pino, type Logger, type LevelWithSilent } from 'pino';

/**
 * Secrets never reach a log line: the Authorization header (and anything named key or secret) is
 * redacted wherever a request or an object is logged; so are the panel's cookies, passwords and tokens.
 */
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.headers.authorization',
  'authorization',
  'key',
  '*.key',
  'secret',
  '*.secret',
  // The panel: session cookies (set-cookie too), passwords, one-time link and CSRF tokens.
  'res.headers["set-cookie"]',
  'headers.cookie',
  'req.headers["x-csrf-token"]',
  'password',
  '*.password',
  '*.current_password',
  '*.new_password',
  'token',
  '*.token',
  'csrf_token',
  '*.csrf_token',
];

/** Lines are written once this much is buffered (a few dozen request lines)... */
export const LOG_BUFFER_BYTES = 4096;
/** ...or this long after the last write, whichever comes first. */
export const LOG_FLUSH_MS = 100;

/**
 * Standard output, buffered (issue 15): pino's default destination writes every line on its own
 * (an `fs.write` on libuv's thread pool and an event-loop wake-up: two syscalls and a thread hop
 * per request, a real share of a by-id read's time). Here lines collect in memory and go out in
 * one synchronous `write` per ~4 KiB, or on a short unref'd timer when traffic is light, so a quiet
 * server's lines still appear within LOG_FLUSH_MS. Synchronous writes never leave a write in flight,
 * so `flushSync` on the process's `exit` event (which also fires after an uncaught exception, after
 * `process.exit` in the shutdown helper and in the CLI's error path) writes everything still buffered,
 * in order. Only a process killed outright (SIGKILL, or a signal before its handler is installed)
 * loses up to LOG_FLUSH_MS of lines.
 */
export function bufferedStdout(fd = 1): pino.DestinationStream & { flush(done?: (error?: Error) => void): void; flushSync(): void } {
  const stream = pino.destination({ dest: fd, sync: true, minLength: LOG_BUFFER_BYTES });
  let timer: NodeJS.Timeout | null = null;
  const flushSoon = () => {
    timer = null;
    stream.flush();
  };
  const flushAtExit = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    try {
      stream.flushSync();
    } catch {
      // Standard output closed (EPIPE): nothing more can be written anyway.
    }
  };
  process.once('exit', flushAtExit);
  return {
    write(line: string) {
      stream.write(line);
      // A timer per buffered batch, not per line: armed by the first line after a write.
      if (!timer) {
        timer = setTimeout(flushSoon, LOG_FLUSH_MS);
        timer.unref();
      }
    },
    /** pino's `logger.flush()`: everything buffered goes out now. */
    flush(done?: (error?: Error) => void) {
      flushAtExit();
      done?.();
    },
    flushSync: flushAtExit,
  };
}

/** The one logger factory of the programs (`serve`, `worker`): JSON lines on stdout (buffered), secrets redacted. */
export function createLogger(level: LevelWithSilent, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: LOG_REDACT }, destination ?? bufferedStdout());
}
