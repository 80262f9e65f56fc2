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
