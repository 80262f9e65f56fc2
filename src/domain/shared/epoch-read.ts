import { notFound } from './errors.js';

/**
 * A read by id that also returned the auth_epoch counter of its own snapshot (null: nothing was
 * read, e.g. an id that cannot exist). `value()` gives the record, or throws the 404 the plain read
 * would: the caller asks for it only once the authentication is confirmed, so a revoked key is
 * answered 401, never 404 or the record.
 */
export interface EpochRead<T> {
  authEpoch: number | null;
  value(): T;
}

export function epochRead<R, T>(authEpoch: number | null, row: R | undefined, view: (row: R) => T, notFoundMessage: string): EpochRead<T> {
  return {
    authEpoch,
    value: () => {
      if (row === undefined) throw notFound(notFoundMessage);
      return view(row);
    },
  };
}

/**
 * A read (a list's page) that returned the auth_epoch counter of its own snapshot with its value.
 * Should it fail (a 400 for a bad input, a fault), the failure waits in `value()`, as a 404 does,
 * with no counter: the key is then checked in full first, and a revoked key is answered 401.
 */
export async function deferredEpochRead<T>(read: () => Promise<{ authEpoch: number | null; value: T }>): Promise<EpochRead<T>> {
  try {
    const { authEpoch, value } = await read();
    return { authEpoch, value: () => value };
  } catch (error) {
    return {
      authEpoch: null,
      value: () => {
        throw error;
      },
    };
  }
}
