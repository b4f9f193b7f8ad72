// Password hashing with scrypt from node:crypto (OpenSSL's, no native add-on to install): cost N=2^14, r=8,
// p=5, one of OWASP's recommended scrypt settings at 16 MiB per hash, run on libuv's thread pool so the event
// loop stays free. Stored as `scrypt$N$r$p$salt$hash` (base64url) so the cost can be raised later and old
// hashes still verify.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { z } from 'zod';
import { parseInput } from '../shared/validation.js';

const COST = { N: 2 ** 14, r: 8, p: 5 } as const;
const KEY_LENGTH = 32;
const MAX_MEMORY = 64 * 1024 * 1024;

/** At least 10 characters (NIST SP 800-63B asks for 8; no composition rules), at most 200. */
export const passwordInput = z
  .string()
  .min(10, { message: 'must be at least 10 characters' })
  .max(200, { message: 'must be at most 200 characters' });

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A hash of a random password: verified against when the account does not exist, so the answer takes as long. */
let decoyHash: Promise<string> | undefined;

/** True when `password` matches `stored`; a missing hash is checked against a decoy so timing reveals nothing. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, n, r, p, salt, expected] = (stored ?? (await (decoyHash ??= hashPassword(randomBytes(16).toString('hex'))))).split('$');
  if (scheme !== 'scrypt' || !salt || !expected) return false;
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  const wanted = Buffer.from(expected, 'base64url');
  return stored !== null && wanted.length === key.length && timingSafeEqual(wanted, key);
}

const passwordField = z.object({ password: passwordInput });

/** The password as given, or VALIDATION_ERROR naming `password`. */
export function checkedPassword(password: string): string {
  return parseInput(passwordField, { password }).password;
}
