import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A cached authentication confirmed by the read it rides on (issue 15): the auth plugin
 * (http/auth.ts) serves a GET with a key it found in its cache without checking the key again; the
 * first read of the request by the read planner (read-planner.repository.ts) returns the auth_epoch
 * counter of its own snapshot with its rows, and the authentication is settled with it before any row
 * is answered (a revoked key: 401 on the very next request). The plugin hands the confirmation to the
 * planner here, so no service, repository name or route carries it, and every resource's reads
 * confirm the same way.
 */

/**
 * Settles the pending authentication with the counter a read returned (null: none, the key is then
 * checked in full). Throws the 401/403/429 the auth plugin would have answered.
 */
export type Confirm = (authEpoch: number | null) => Promise<void>;

const pending = new AsyncLocalStorage<{ confirm: Confirm | null }>();

/** Runs a request's handler with its authentication pending: the first read of the planner confirms it. */
export function withPendingConfirmation<T>(confirm: Confirm, handler: () => Promise<T>): Promise<T> {
  return pending.run({ confirm }, handler);
}

/** Whether the running request's authentication waits for a read to confirm it. */
export const confirmationPending = (): boolean => pending.getStore()?.confirm != null;

/** The pending confirmation, taken (the first read confirms; later ones read as usual). */
export function takeConfirmation(): Confirm | null {
  const store = pending.getStore();
  if (!store?.confirm) return null;
  const { confirm } = store;
  store.confirm = null;
  return confirm;
}
