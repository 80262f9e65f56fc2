/**
 * Waiting in tests: on a condition (waitUntil), never a fixed time for something to happen. Time-driven
 * behaviour is tested with an injected clock (src/domain/shared/clock.ts; test/support/clock.ts).
 * `sleep` remains for pacing a loop and for the few checks that something does NOT happen, where
 * there is no event to wait for.
 */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface WaitOptions {
  /** Between checks; 20 ms by default. */
  intervalMs?: number;
  /** An error of `check` for which waiting longer is pointless (rethrown at once); others count as "not yet". */
  failFast?: (error: unknown) => boolean;
}

/** Polls `check` until it returns a truthy value (returned), or throws after `timeoutMs`. */
export async function waitUntil<T>(check: () => T | Promise<T>, timeoutMs: number, what: string, options: WaitOptions = {}): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  const intervalMs = options.intervalMs ?? 20;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
      last = value;
    } catch (error) {
      if (options.failFast?.(error)) throw error;
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${String(last)})`);
    await sleep(intervalMs);
  }
}

/** A promise and the function that settles it: lets a test hold a transaction (or anything) open at a chosen point. */
export function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
