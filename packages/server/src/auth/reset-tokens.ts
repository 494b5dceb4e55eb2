import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes: 256 bits, far beyond guessing, written URL-safe for the link. */
const TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** Only this hash is stored: a copy of the database does not hand out working reset links. */
export const hashResetToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export function newResetToken(): { token: string; hash: string } {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, hash: hashResetToken(token) };
}

/** Could this be a token we made? Anything else is answered "not found" without a query. */
export const looksLikeResetToken = (token: string): boolean => TOKEN_SHAPE.test(token);

/**
 * A reset link's path must stay on our own origin: one leading `/`, no `//` (a scheme-relative URL),
 * no backslash (which browsers read as `/`), no scheme, and nothing of its own after it (`?`, `#`),
 * since `?token=` is appended to it. No `&` or `=` either: `/x&next=` would make the link read as
 * a query `next=?token=…` to whatever scrubs tokens out of stored mail and logs (logger.ts).
 */
export const isSafeResetPath = (path: string): boolean => /^\/(?!\/)[A-Za-z0-9\-._~!$'()*+,;:@%/]*$/.test(path);
