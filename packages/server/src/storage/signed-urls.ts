import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long an attachment link works. */
export const SIGNED_URL_LIFETIME_SECONDS = 3600;
/** Links kept signed at once (about 100 bytes each): far more than a few pages' worth. */
const MAX_KEPT_LINKS = 10_000;
/** Expiry times are rounded up to this step, so a list answers the same URLs for a few minutes. */
const ROUNDING_SECONDS = 300;
/** Bytes of the HMAC a link carries (see createUrlSigner). */
const SIGNATURE_BYTES = 16;
/** Those bytes in base64url, as a link carries them. */
const SIGNATURE_TEXT = /^[\w-]{22}$/;

/**
 * Signed, expiring links to news attachments: `?expires=<unix>&sig=<HMAC-SHA256(id.name.expires)>`,
 * so a logged-in user's browser downloads by plain link with no Authorization header. `name` is the
 * file's random stored name: a link opens that file only, never another that came to have its id (a
 * restored backup winds the ids back, and links handed out since still work for an hour). The HMAC key is
 * derived from SECRET_KEY for this one purpose, so a signature can never stand in for a token.
 * The signature is the HMAC's first 128 bits (22 characters): half its length, as much as HMAC's
 * definition asks a truncated one to keep, and beyond any guessing. A page of 50 items carries 100
 * links, and the signatures are the part of it that does not compress: the full 256 bits made it
 * some 2 kB larger on the wire (docs/benchmarks.md).
 */
export function createUrlSigner(secretKey: string, lifetimeSeconds = SIGNED_URL_LIFETIME_SECONDS) {
  const key = createHmac('sha256', secretKey).update('hello-all/news-file-url/v1').digest();
  const mac = (id: number, name: string, expires: number) =>
    createHmac('sha256', key).update(`${id}.${name}.${expires}`).digest().subarray(0, SIGNATURE_BYTES);

  const current = (expires: unknown, sig: unknown, nowMs = Date.now()): boolean => {
    if (typeof expires !== 'string' || typeof sig !== 'string') return false;
    if (!/^\d{1,12}$/.test(expires) || !SIGNATURE_TEXT.test(sig)) return false;
    const expiresAt = Number(expires);
    const now = nowMs / 1000;
    return expiresAt > now && expiresAt <= now + lifetimeSeconds + ROUNDING_SECONDS;
  };
  const expiry = (nowMs: number) => Math.ceil((nowMs / 1000 + lifetimeSeconds) / ROUNDING_SECONDS) * ROUNDING_SECONDS;
  // The links of the current expiry step, by file id: one HMAC per file per step, not per listing.
  let keptExpiry = 0;
  const kept = new Map<number, { name: string; query: string }>();

  return {
    /** The expiry (unix seconds) of links signed at `nowMs`: it changes once per rounding step. */
    expiry: (nowMs = Date.now()) => expiry(nowMs),
    /** The query string (without `?`) that makes a link to file `id` (stored as `name`) valid for about `lifetimeSeconds`. */
    sign(id: number, name: string, nowMs = Date.now()): string {
      const expires = expiry(nowMs);
      // Bounded: items read at random across a large store would otherwise keep a link per file.
      if (expires !== keptExpiry || kept.size >= MAX_KEPT_LINKS) {
        kept.clear();
        keptExpiry = expires;
      }
      const known = kept.get(id);
      // The name is checked too: after a restore the same id may name another file.
      if (known?.name === name) return known.query;
      const query = `expires=${expires}&sig=${mac(id, name, expires).toString('base64url')}`;
      kept.set(id, { name, query });
      return query;
    },
    /** True when `expires` and `sig` are shaped as ours and not expired: asked before the file is looked up. */
    current,
    /** True when the signature is ours for this file and has not expired; compared in constant time. */
    verify(id: number, name: string, expires: unknown, sig: unknown, nowMs = Date.now()): boolean {
      if (!current(expires, sig, nowMs)) return false;
      // Compare the text, not decoded bytes: base64url decoding ignores stray characters and spare bits.
      const given = Buffer.from(sig as string, 'latin1');
      const expected = Buffer.from(mac(id, name, Number(expires)).toString('base64url'), 'latin1');
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

export type UrlSigner = ReturnType<typeof createUrlSigner>;
