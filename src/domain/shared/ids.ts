import { v7 as uuidv7 } from 'uuid';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Time-ordered ids keep inserts at the end of the primary-key index. */
export const newId = (): string => uuidv7();

/** The canonical (lower-case) form of an id, or null when it is not a UUID: such an id is simply unknown. */
export function canonicalId(raw: string): string | null {
  return UUID.test(raw) ? raw.toLowerCase() : null;
}
