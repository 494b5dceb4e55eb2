import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const PREFIX = 'v1.';

/**
 * Seals text at rest (AES-256-GCM, a key derived from SECRET_KEY for each purpose). Mail bodies: a
 * reset mail waiting in the outbox holds its link, and so its token: sealed, the database never holds
 * a usable reset token, even while the mail server is down (docs/api.md, "What is never lost"). The
 * TOTP secrets of two-step sign-in are sealed the same way, under a key of their own.
 */
export function createBodySeal(secretKey: string, purpose: 'mail-outbox-body' | 'totp-secret' = 'mail-outbox-body') {
  const key = Buffer.from(hkdfSync('sha256', secretKey, 'hello-all', purpose, 32));
  return {
    seal(text: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
    },
    /** The text; throws if it was sealed under another key or tampered with. */
    open(stored: string): string {
      if (!stored.startsWith(PREFIX)) throw new Error('the text is not sealed');
      const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

export type BodySeal = ReturnType<typeof createBodySeal>;
