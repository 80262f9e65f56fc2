import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords are stored with scrypt (node:crypto, no native add-on to download), in a self-describing
 * form `scrypt$N$r$p$salt$hash` (salt and hash base64url), so the cost can be raised later and old
 * hashes still verify. The default cost (N = 2^15, r = 8, p = 1: 32 MiB, tens of milliseconds) is
 * OWASP's floor for scrypt; tests lower it through the composition root.
 */
export interface PasswordHashing {
  /** log2 of scrypt's N. */
  cost: number;
}

export const DEFAULT_PASSWORD_HASHING: PasswordHashing = { cost: 15 };
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

const memoryFor = (N: number, r: number) => 128 * N * r * 2;

export async function hashPassword(password: string, { cost }: PasswordHashing = DEFAULT_PASSWORD_HASHING): Promise<string> {
  const N = 2 ** cost;
  const r = 8;
  const p = 1;
  const salt = randomBytes(16);
  const hash = await derive(password, salt, { N, r, p, maxmem: memoryFor(N, r) });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** Whether `password` matches `stored`; false (never an exception) for a malformed stored value. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > 2 ** 20) return false;
  const expected = Buffer.from(parts[5]!, 'base64url');
  const actual = await derive(password, Buffer.from(parts[4]!, 'base64url'), { N, r, p, maxmem: memoryFor(N, r) });
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** A hash of a random password, verified against when the e-mail is unknown so that both answers take as long. */
export async function decoyHash(hashing: PasswordHashing): Promise<string> {
  return hashPassword(randomBytes(16).toString('base64url'), hashing);
}
