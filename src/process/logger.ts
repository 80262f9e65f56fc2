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

/** The one logger factory of the programs (`serve`, `worker`): JSON lines on stdout, secrets redacted. */
export function createLogger(level: LevelWithSilent, destination?: pino.DestinationStream): Logger {
  return destination ? pino({ level, redact: LOG_REDACT }, destination) : pino({ level, redact: LOG_REDACT });
}
