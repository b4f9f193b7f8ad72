// Random tokens and their digests: API keys, webhook secrets, verify tokens, OAuth codes and tokens.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Constant-time comparison of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(sha256Hex(a), 'hex');
  const right = Buffer.from(sha256Hex(b), 'hex');
  return timingSafeEqual(left, right);
}

/** SHA-256 as base64url without padding: PKCE's S256 code challenge of a verifier (RFC 7636 §4.2). */
export function sha256Base64Url(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}
