/**
 * The logging every layer may use, as a narrow interface: pino's logger (src/process/logger.ts)
 * satisfies it, and tests pass a capturing one. Secrets never go in `obj`.
 */
export interface Logger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}
