import { describe, expect, it } from 'vitest';
import { isSafeResetPath } from '../../src/auth/reset-tokens.js';
import { redactUrl } from '../../src/logger.js';

/**
 * A reset link is `PUBLIC_URL + path + "?token=" + token`; its stored copy (mail/outbox-worker.ts) and
 * the log are scrubbed by redactUrl. A path that reads as a query of its own must not let the token
 * through either end.
 */
describe('reset link scrubbing', () => {
  it('refuses a reset path holding ? & = # or whitespace and control characters', () => {
    for (const bad of ['/x&next=', '/x=1', '/a&b', '/x?', '/x#', '/x\t', '/x\r', '/x\u0000', '/x\u007f', '/x\u00a0'])
      expect(isSafeResetPath(bad), JSON.stringify(bad)).toBe(false);
    for (const ok of ['/resetnewpassword', '/a/b;c', '/x%26next%3D', "/it's(1)"])
      expect(isSafeResetPath(ok), ok).toBe(true);
  });

  it('redacts a token= value wherever it stands in a URL, after a plain name too', () => {
    expect(redactUrl('http://h/x&next=?token=ABC')).toBe('http://h/x&next=?token=[redacted]');
    for (const name of ['next', 'id', 'limit', 'before', 'page']) {
      const scrubbed = redactUrl(`Open http://h/x&${name}=?token=LIVE-TOKEN within an hour.`);
      expect(scrubbed, name).not.toContain('LIVE-TOKEN');
      expect(scrubbed).toContain('token=[redacted] within an hour.');
    }
    expect(redactUrl('/x?next=/a?token=ABC&limit=2')).toBe('/x?next=/a?token=[redacted]&limit=2');
    expect(redactUrl('/x;token=ABC')).toBe('/x;token=[redacted]');
    expect(redactUrl('/api/v1/token/?mfa_token=ABC')).toBe('/api/v1/token/?mfa_token=[redacted]');
    // A secret holding a `?` is redacted whole: only a `?` that starts another name= ends a value.
    expect(redactUrl('/a?password=abc?def')).toBe('/a?password=[redacted]');
    expect(redactUrl('/a?api_key=s3?x&limit=5')).toBe('/a?api_key=[redacted]&limit=5');
    // The product's own plain values stay as they are.
    expect(redactUrl('/api/v1/localnews/?limit=20&before=MTIz')).toBe('/api/v1/localnews/?limit=20&before=MTIz');
  });
});
